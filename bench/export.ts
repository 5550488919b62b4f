/**
 * A list's export at size: `GET /api/customers/export?format=xlsx` (and `csv`) of a workspace of
 * 100,000 customers (catalogue-seed.ts), on PostgreSQL and on PGlite. Per format and round: the
 * time to the last byte, the file's size, and the server's resident memory before the request
 * and at its highest while the file streams (sampled every 20 ms from /proc), so the growth says
 * whether the rows were held. The CSV's lines are counted (one per customer and the header).
 * Targets, on PostgreSQL (issue 37): an XLSX of 100,000 rows in at most 10 s, the server's memory
 * growing by at most 200 MB.
 *
 * Environment: BENCH_DATABASES (postgres,pglite), BENCH_CUSTOMERS (100000), BENCH_ROUNDS (3),
 * BENCH_LANGUAGE (en), BENCH_POSTGRES_URL (as auth.ts).
 */
import { type CatalogueSeed, seedCatalogue } from './catalogue-seed.ts';
import { benchDatabases, type DatabaseKind, databaseName, type Skipped } from './support/database-kinds.ts';
import { migrated, withFreshDatabase } from './support/databases.ts';
import { type DatabaseMachine, databaseMachine, machineLine } from './support/machine.ts';
import { writeResult } from './support/results.ts';
import { intFromEnv, runAsScript } from './support/script.ts';
import { type RunningServer, withServer } from './support/server.ts';

const targets = { xlsxSeconds: 10, memoryGrowthMiB: 200 };
const formats = ['xlsx', 'csv'] as const;

interface ExportRun {
  database: DatabaseKind;
  format: (typeof formats)[number];
  round: number;
  seconds: number;
  bytes: number;
  /** CSV only: lines after the header. */
  rows?: number;
  rssBeforeMiB: number | undefined;
  rssPeakMiB: number | undefined;
  growthMiB: number | undefined;
}

interface ExportBenchReport {
  machine: DatabaseMachine;
  customers: number;
  runs: ExportRun[];
  skipped: Skipped[];
  targets: typeof targets;
}

async function exportOnce(
  server: RunningServer,
  seed: CatalogueSeed,
  format: (typeof formats)[number],
  language: string,
) {
  const before = server.rssMiB();
  let peak = before;
  const sampler = setInterval(() => {
    const now = server.rssMiB();
    if (now !== undefined && (peak === undefined || now > peak)) peak = now;
  }, 20);
  const started = performance.now();
  let bytes = 0;
  let lines = 0;
  try {
    const response = await fetch(
      `${server.url}/api/customers/export?workspaceId=${seed.workspaceId}&format=${format}`,
      { headers: { cookie: seed.cookie, 'accept-language': language } },
    );
    if (!response.ok || !response.body)
      throw new Error(`export ${format}: ${response.status} ${await response.text()}`);
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.byteLength;
      if (format === 'csv') for (const byte of chunk) if (byte === 0x0a) lines += 1;
    }
  } finally {
    clearInterval(sampler);
  }
  const seconds = Math.round((performance.now() - started) / 10) / 100;
  return {
    seconds,
    bytes,
    rows: format === 'csv' ? lines - 1 : undefined,
    rssBeforeMiB: before,
    rssPeakMiB: peak,
    growthMiB: before !== undefined && peak !== undefined ? peak - before : undefined,
  };
}

export async function runExportBench(): Promise<{ ok: boolean; report: ExportBenchReport }> {
  const customers = intFromEnv('BENCH_CUSTOMERS', 100_000);
  const rounds = intFromEnv('BENCH_ROUNDS', 3);
  const language = process.env.BENCH_LANGUAGE ?? 'en';
  const report: ExportBenchReport = {
    machine: databaseMachine(),
    customers,
    runs: [],
    skipped: [],
    targets,
  };
  process.stdout.write(
    `export bench: ${customers.toLocaleString('en-US')} customers, ${machineLine(report.machine)}\n`,
  );
  const databases = process.env.BENCH_DATABASES
    ? benchDatabases()
    : (['postgres', 'pglite'] as DatabaseKind[]);
  for (const database of databases) {
    await withFreshDatabase(database, 'export', report, async ({ options, variables }) => {
      const seed = await migrated(options, (db) =>
        seedCatalogue(db, { workspaces: 1, bigCustomers: customers, otherCustomers: 0 }),
      );
      await withServer(variables, `export bench on ${database}`, async (server) => {
        // A first small export warms the statements and modules up.
        await exportOnce(server, seed, 'csv', language);
        for (let round = 1; round <= rounds; round++) {
          for (const format of formats) {
            const run = { database, format, round, ...(await exportOnce(server, seed, format, language)) };
            report.runs.push(run);
            process.stdout.write(
              `  ${databaseName(database).padEnd(18)} ${format.padEnd(4)} round ${round}: ${run.seconds} s, ${(run.bytes / 1e6).toFixed(1)} MB${run.rows === undefined ? '' : `, ${run.rows} rows`}, RSS ${run.rssBeforeMiB} → ${run.rssPeakMiB} MiB (+${run.growthMiB})\n`,
            );
          }
        }
      });
    });
  }
  const postgresXlsx = report.runs.filter((run) => run.database === 'postgres' && run.format === 'xlsx');
  const ok =
    postgresXlsx.length > 0 &&
    postgresXlsx.every(
      (run) =>
        run.seconds <= targets.xlsxSeconds &&
        run.growthMiB !== undefined &&
        run.growthMiB <= targets.memoryGrowthMiB,
    ) &&
    report.runs.filter((run) => run.format === 'csv').every((run) => run.rows === customers);
  process.stdout.write(`export bench ${ok ? 'passed' : 'did not pass'}: ${writeResult('export', report)}\n`);
  return { ok, report };
}

runAsScript(import.meta.url, runExportBench);
