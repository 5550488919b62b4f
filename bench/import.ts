/**
 * A list's import at size (issue 37): a CSV of 100,000 new customers (`BENCH_ROWS`), as a merchant
 * moving to Dukkan would bring them — a code, a name (English and Arabic in turn), a phone number
 * written as the export writes it (`'+20…`), a source, a brand by its code — into a workspace of
 * `catalogue-seed.ts` (its 12 brands, no customers), through the server's own routes: the file
 * uploaded (`POST /api/customers/import`), its job followed (`GET …/import-jobs/:id`, every
 * 250 ms) until it ends, first as a dry run, then as the commit, with the audit log on.
 *
 * Per step: the time from the upload's first byte to the job's end as the page sees it, the
 * report's counts and errors, how often the page saw the job's progress move (the longest time
 * it stood still while the job ran), and the server's resident memory before the upload and at
 * its highest until the end (sampled every 20 ms from /proc). The page's other source of progress,
 * the list's event stream (decision 0052), is read from before the upload: how often it told the
 * job's rows done moving, and the longest it stood still between the job's first event and its
 * end — what the page sees on PGlite, whose poll waits for the run. After the commit, the list's total
 * says the rows are there. Targets, on PostgreSQL: dry run at most 20 s, commit at most 30 s,
 * the server's memory growing by at most 200 MB; PGlite reported beside them.
 *
 * Environment: BENCH_DATABASES (postgres,pglite), BENCH_ROWS (100000), BENCH_POSTGRES_URL.
 */
import { type ImportJob, type ImportJobEvent, importJobEventName } from '@dukkan/contract';
import { type CatalogueSeed, seedCatalogue } from './catalogue-seed.ts';
import { benchDatabases, type DatabaseKind, databaseName, type Skipped } from './support/database-kinds.ts';
import { migrated, withFreshDatabase } from './support/databases.ts';
import { type DatabaseMachine, databaseMachine, machineLine } from './support/machine.ts';
import { writeResult } from './support/results.ts';
import { intFromEnv, runAsScript } from './support/script.ts';
import { type RunningServer, withServer } from './support/server.ts';

const targets = { dryRunSeconds: 20, commitSeconds: 30, memoryGrowthMiB: 200 };
const pollMs = 250;

interface ImportStep {
  database: DatabaseKind;
  step: 'dry run' | 'commit';
  seconds: number;
  status: ImportJob['status'];
  counts?: { create: number; update: number; unchanged: number };
  errors: number;
  /** Polls that saw `rowsDone` move while the job ran, and the longest time it did not. */
  progressMoves: number;
  longestStillSeconds: number;
  /** The same from the list's event stream: its events that moved `rowsDone`, the longest without one. */
  streamMoves: number;
  streamLongestStillSeconds: number;
  rssBeforeMiB: number | undefined;
  rssPeakMiB: number | undefined;
  growthMiB: number | undefined;
}

interface ImportBenchReport {
  machine: DatabaseMachine;
  rows: number;
  fileBytes: number;
  steps: ImportStep[];
  /** The customers list's total after each database's commit. */
  totals: { database: DatabaseKind; total: number }[];
  skipped: Skipped[];
  targets: typeof targets;
}

const sources = ['walkIn', 'phone', 'online', 'referral', 'other'];

/** The file: the export's header (English), then `rows` customers, CRLF as spreadsheets write. */
export function customersFile(rows: number): Buffer {
  const lines = ['\uFEFFCode,Name,Phone numbers,Source,Brand,Status'];
  for (let index = 1; index <= rows; index++) {
    const name = index % 2 === 0 ? `Customer ${index}` : `عميل ${index}`;
    const phone = `'+2010${String(index).padStart(8, '0')}`;
    const brand = `B${String((index % 12) + 1).padStart(2, '0')}`;
    lines.push(`IM-${String(index).padStart(6, '0')},${name},${phone},${sources[index % 5]},${brand},active`);
  }
  return Buffer.from(`${lines.join('\r\n')}\r\n`, 'utf8');
}

/**
 * Reads the list's import event stream until `stop()`: each job event with the time it arrived.
 * Resolves once the stream has answered (its first bytes), so the upload comes after it opened.
 */
async function followEvents(server: RunningServer, seed: CatalogueSeed) {
  const events: { at: number; event: ImportJobEvent }[] = [];
  const abort = new AbortController();
  const answer = await fetch(
    `${server.url}/api/customers/import-jobs/events?workspaceId=${seed.workspaceId}`,
    {
      headers: { cookie: seed.cookie, accept: 'text/event-stream' },
      signal: abort.signal,
    },
  );
  if (answer.status !== 200 || !answer.body) throw new Error(`import events: ${answer.status}`);
  const reader = answer.body.pipeThrough(new TextDecoderStream()).getReader();
  const reading = (async () => {
    let buffer = '';
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        buffer += value;
        let end = buffer.indexOf('\n\n');
        while (end !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const lines = block.split('\n');
          const data = lines.find((line) => line.startsWith('data: '));
          if (lines.includes(`event: ${importJobEventName}`) && data)
            events.push({ at: performance.now(), event: JSON.parse(data.slice(6)) as ImportJobEvent });
          end = buffer.indexOf('\n\n');
        }
      }
    } catch {
      // Aborted by stop().
    }
  })();
  return {
    /** The job's events: how many moved its rows done, and the longest time between two of them. */
    of(jobId: string) {
      const own = events.filter((entry) => entry.event.jobId === jobId);
      let moves = 0;
      let longest = 0;
      for (let index = 1; index < own.length; index++) {
        longest = Math.max(longest, own[index]!.at - own[index - 1]!.at);
        if (own[index]!.event.rowsDone !== own[index - 1]!.event.rowsDone) moves += 1;
      }
      return { moves, longestStillSeconds: Math.round(longest / 10) / 100 };
    },
    async stop() {
      abort.abort();
      await reading;
    },
  };
}

async function importOnce(
  server: RunningServer,
  seed: CatalogueSeed,
  file: Buffer,
  dryRun: boolean,
): Promise<Omit<ImportStep, 'database' | 'step'>> {
  const before = server.rssMiB();
  let peak = before;
  const sampler = setInterval(() => {
    const now = server.rssMiB();
    if (now !== undefined && (peak === undefined || now > peak)) peak = now;
  }, 20);
  const headers = { cookie: seed.cookie, 'accept-language': 'en' };
  const stream = await followEvents(server, seed);
  const started = performance.now();
  try {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(file)], { type: 'text/csv' }), 'customers.csv');
    const queued = await fetch(
      `${server.url}/api/customers/import?workspaceId=${seed.workspaceId}&dryRun=${dryRun}`,
      { method: 'POST', headers, body: form },
    );
    if (queued.status !== 202) throw new Error(`import: ${queued.status} ${await queued.text()}`);
    let job = ((await queued.json()) as { data: ImportJob }).data;
    let progressMoves = 0;
    let lastMove = performance.now();
    let longestStill = 0;
    while (job.status === 'queued' || job.status === 'running') {
      await new Promise((resolve) => setTimeout(resolve, pollMs));
      const answer = await fetch(
        `${server.url}/api/customers/import-jobs/${job.id}?workspaceId=${seed.workspaceId}`,
        { headers },
      );
      if (!answer.ok) throw new Error(`import job: ${answer.status} ${await answer.text()}`);
      const next = ((await answer.json()) as { data: ImportJob }).data;
      const at = performance.now();
      if (next.rowsDone !== job.rowsDone) {
        progressMoves += 1;
        longestStill = Math.max(longestStill, at - lastMove);
        lastMove = at;
      }
      job = next;
    }
    const seconds = Math.round((performance.now() - started) / 10) / 100;
    // The end event comes before the poll sees the end: it is published as the job ends.
    const streamed = stream.of(job.id);
    return {
      seconds,
      status: job.status,
      counts: job.report?.counts,
      errors: job.report?.errors.length ?? (job.error ? 1 : 0),
      progressMoves,
      longestStillSeconds: Math.round(longestStill / 10) / 100,
      streamMoves: streamed.moves,
      streamLongestStillSeconds: streamed.longestStillSeconds,
      rssBeforeMiB: before,
      rssPeakMiB: peak,
      growthMiB: before !== undefined && peak !== undefined ? peak - before : undefined,
    };
  } finally {
    clearInterval(sampler);
    await stream.stop();
  }
}

async function customersTotal(server: RunningServer, seed: CatalogueSeed): Promise<number> {
  const answer = await fetch(`${server.url}/api/customers?workspaceId=${seed.workspaceId}&pageSize=1`, {
    headers: { cookie: seed.cookie },
  });
  if (!answer.ok) throw new Error(`customers: ${answer.status} ${await answer.text()}`);
  return ((await answer.json()) as { meta: { total: number } }).meta.total;
}

export async function runImportBench(): Promise<{ ok: boolean; report: ImportBenchReport }> {
  const rows = intFromEnv('BENCH_ROWS', 100_000);
  const file = customersFile(rows);
  const report: ImportBenchReport = {
    machine: databaseMachine(),
    rows,
    fileBytes: file.byteLength,
    steps: [],
    totals: [],
    skipped: [],
    targets,
  };
  process.stdout.write(
    `import bench: ${rows.toLocaleString('en-US')} customers (${(file.byteLength / 1e6).toFixed(1)} MB of CSV), ${machineLine(report.machine)}\n`,
  );
  const databases = process.env.BENCH_DATABASES
    ? benchDatabases()
    : (['postgres', 'pglite'] as DatabaseKind[]);
  for (const database of databases) {
    await withFreshDatabase(database, 'import', report, async ({ options, variables }) => {
      const seed = await migrated(options, (db) =>
        seedCatalogue(db, { workspaces: 1, bigCustomers: 0, otherCustomers: 0 }),
      );
      await withServer(variables, `import bench on ${database}`, async (server) => {
        // A small import first warms the routes, statements and modules up (and is kept: its
        // codes are not the big file's; a customer needs a phone number).
        const warm = await importOnce(
          server,
          seed,
          Buffer.from("Code,Name,Phone numbers\r\nWARM-1,Warm up,'+201099999999\r\n"),
          false,
        );
        if (warm.status !== 'done' || warm.errors > 0 || warm.counts?.create !== 1)
          throw new Error(`the warm-up import was not kept: ${JSON.stringify(warm)}`);
        for (const [step, dryRun] of [
          ['dry run', true],
          ['commit', false],
        ] as const) {
          const run: ImportStep = { database, step, ...(await importOnce(server, seed, file, dryRun)) };
          report.steps.push(run);
          process.stdout.write(
            `  ${databaseName(database).padEnd(18)} ${step.padEnd(7)}: ${run.seconds} s, ${run.status}, counts ${JSON.stringify(run.counts)}, ${run.errors} errors, progress moved ${run.progressMoves}× (still at most ${run.longestStillSeconds} s), streamed ${run.streamMoves}× (still at most ${run.streamLongestStillSeconds} s), RSS ${run.rssBeforeMiB} → ${run.rssPeakMiB} MiB (+${run.growthMiB})\n`,
          );
        }
        const total = await customersTotal(server, seed);
        report.totals.push({ database, total });
        process.stdout.write(`  ${databaseName(database).padEnd(18)} customers after the commit: ${total}\n`);
      });
    });
  }
  const postgres = report.steps.filter((step) => step.database === 'postgres');
  const ok =
    postgres.length === 2 &&
    postgres.every(
      (step) =>
        step.status === 'done' &&
        step.errors === 0 &&
        step.counts?.create === rows &&
        step.seconds <= (step.step === 'dry run' ? targets.dryRunSeconds : targets.commitSeconds) &&
        step.growthMiB !== undefined &&
        step.growthMiB <= targets.memoryGrowthMiB,
    ) &&
    report.totals.every((entry) => entry.total === rows + 1);
  process.stdout.write(`import bench ${ok ? 'passed' : 'did not pass'}: ${writeResult('import', report)}\n`);
  return { ok, report };
}

runAsScript(import.meta.url, runImportBench);
