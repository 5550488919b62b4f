/**
 * A catalogue list under load, against a bare baseline: `GET /api/customers` for page 50 of a
 * search with a filter and a sort, in a workspace of 100,000 customers among 100 workspaces, with
 * autocannon at 50 connections and at 1, on PGlite and on PostgreSQL. Targets, on PostgreSQL, on
 * the medians of BENCH_ROUNDS (3) interleaved rounds at 50 connections: the engine keeps at least
 * 93% of the baseline's requests/s, its p99 is at most 1.2× the baseline's, and the server's CPU
 * time per request is at most 1.5× the baseline process's; with 0 errors and the same answer.
 * PGlite is measured and reported beside it, not judged. A single user (1 connection) is measured
 * and reported for both, the engine beside the baseline: on a shared machine its absolute
 * latency says more about the machine than the engine.
 *
 * The baseline (catalogue-list-baseline.ts) is a `node:http` handler in a child process that runs
 * the very statements the server sent for the request — captured once by starting the server
 * with sql-capture.ts preloaded — in the same order (those sent together, together), with the
 * same driver and settings (named prepared statements under the server's names), and answers the
 * same JSON: the two answers are compared byte for byte before measuring, and if the bytes differ,
 * as parsed JSON (the server writes from the record's schema, the baseline with JSON.stringify).
 * Every request carries the same `Accept-Language` (BENCH_LANGUAGE, `en`): names sort in the
 * reader's language, so the captured statements are the ones for that language. What separates
 * the two is then the engine (Fastify, the access guard's work around its query, validation,
 * Drizzle, mapping, serialization).
 *
 * Per database: seed from this process (catalogue-seed.ts), capture, `EXPLAIN ANALYZE` the list
 * (the planner's choice depends on ANALYZE's sample, so it is reported), then the server alone
 * (50 connections after a warm-up, then 1) and the baseline alone (the same), taking turns for
 * BENCH_ROUNDS rounds (server, baseline, server, baseline, …); the comparison uses the medians
 * over the rounds, and every round is reported. On PGlite they run one after the other on the
 * same folder (one process per folder). After every run, requests are sent one at a time until
 * one answers as fast as on an idle server: the backlog a load run leaves is worked off before
 * the next starts.
 *
 * Environment: BENCH_DATABASES (pglite,postgres), BENCH_CONNECTIONS (50), BENCH_DURATION (10 s),
 * BENCH_WARMUP (3 s), BENCH_WORKSPACES (100), BENCH_CUSTOMERS (100000: the big workspace),
 * BENCH_OTHER_CUSTOMERS (200 per other workspace), BENCH_PAGE (50), BENCH_PAGE_SIZE (20),
 * BENCH_SEARCH (ahmed), BENCH_SOURCE (walkIn), BENCH_SORT (name), BENCH_LANGUAGE (en: the
 * requests' Accept-Language), BENCH_POSTGRES_URL (as auth.ts), BENCH_ROUNDS (3: turns of the
 * server and the baseline), BENCH_EXTRA_SQL (statements run after seeding, e.g. an index to try;
 * shown in the report).
 */
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { type CatalogueSeed, seedCatalogue } from './catalogue-seed.ts';
import type { CapturedStatement } from './sql-capture.ts';
import { benchDatabases, type DatabaseKind, databaseName, type Skipped } from './support/database-kinds.ts';
import { migrated, withFreshDatabase } from './support/databases.ts';
import { captureStatements, explainList, type ListPlan, planLabel } from './support/list-sql.ts';
import {
  fetchListPage,
  type Handler,
  type ListFigures,
  listPassed,
  loadRunSummary,
  medianFigures,
  ratios,
  type SameAnswer,
  sameAnswerLabel,
  takeTurns,
  verdictLabel,
} from './support/lists.ts';
import {
  type BackendCpu,
  backendSampler,
  type LoadRun,
  loadRun,
  loadSettings,
  type RequestHeaders,
} from './support/load.ts';
import { type DatabaseMachine, databaseMachine, machineLine } from './support/machine.ts';
import { ms } from './support/numbers.ts';
import { benchDir } from './support/paths.ts';
import { writeResult } from './support/results.ts';
import { intFromEnv, runAsScript } from './support/script.ts';
import type { RunningServer } from './support/server.ts';
import { sizesLine, type TableSize, tableSizes } from './support/sizes.ts';

const baselineEntry = join(benchDir, 'catalogue-list-baseline.ts');

export interface ListResult extends LoadRun {
  database: DatabaseKind;
  handler: Handler;
  /** Server and baseline take turns: round 1 of each, round 2 of each, … */
  round: number;
}

/** The targets, on PostgreSQL at full load, medians over the rounds (engine ÷ baseline). */
export const catalogueTargets = {
  /** Engine req/s ÷ baseline req/s: at least. */
  throughputRatio: 0.93,
  /** Engine p99 ÷ baseline p99: at most. */
  p99Ratio: 1.2,
  /** Engine CPU ms per request ÷ baseline CPU ms per request (each process's own): at most. */
  cpuRatio: 1.5,
} as const;

export interface ListComparison {
  database: DatabaseKind;
  /** Whether the targets apply (PostgreSQL); PGlite is reported beside it. */
  judged: boolean;
  rounds: number;
  /** Engine req/s ÷ baseline req/s at full load, of the medians: at least 0.93. */
  throughputRatio: number;
  /** Engine p99 ÷ baseline p99 at full load, of the medians: at most 1.2. */
  p99Ratio: number;
  /** Engine CPU ms/request ÷ baseline CPU ms/request at full load, of the medians: at most 1.5. */
  cpuRatio?: number;
  /** Medians over the rounds at full load (req/s, ms, CPU ms per request). */
  engine: ListFigures;
  baseline: ListFigures;
  /** The same ratios within each round (engine and baseline of one round), for the spread. */
  perRound: { round: number; throughputRatio: number; p99Ratio: number; cpuRatio?: number }[];
  /** At 1 connection, medians over the rounds (reported, no target). */
  single: { engine: ListFigures; baseline?: ListFigures };
  sameAnswer: SameAnswer;
  /** Throughput, p99 and CPU within their targets and the same answer (whether judged or not). */
  withinTarget: boolean;
}

export interface CatalogueBenchReport {
  machine: DatabaseMachine;
  settings: {
    connections: number;
    durationSeconds: number;
    warmupSeconds: number;
    workspaces: number;
    customers: number;
    otherCustomers: number;
    page: number;
    pageSize: number;
    search: string;
    source: string;
    sort: string;
    /** The requests' `Accept-Language` (BENCH_LANGUAGE): names sort in the reader's language. */
    language: string;
    /** Turns of the server and the baseline (BENCH_ROUNDS). */
    rounds: number;
    /** BENCH_EXTRA_SQL: statements run after seeding (an index to try); empty for the product's schema. */
    extraSql: string;
  };
  databases: {
    database: DatabaseKind;
    seedSeconds: number;
    /** Records matching the search and filter, and the answer's size. */
    matching: number;
    responseBytes: number;
    statements: CapturedStatement[];
    /** The plans (`EXPLAIN ANALYZE`, warm) of the statements reading customers, on the measured statistics. */
    plans: ListPlan[];
    /** The customers table and its indexes after seeding (and BENCH_EXTRA_SQL). */
    sizes: TableSize[];
  }[];
  results: ListResult[];
  comparisons: ListComparison[];
  skipped: Skipped[];
}

type Settings = CatalogueBenchReport['settings'];

function listPath(workspaceId: string, settings: Settings): string {
  const query = new URLSearchParams({
    workspaceId,
    page: String(settings.page),
    pageSize: String(settings.pageSize),
    search: settings.search,
    source: settings.source,
    sort: settings.sort,
  });
  return `/api/customers?${query}`;
}

/** What every request of the benchmark sends: the session cookie and the reader's language. */
const requestHeaders = (seed: CatalogueSeed, settings: Settings): RequestHeaders => ({
  cookie: seed.cookie,
  'accept-language': settings.language,
});

/** One request: 200 with a full page of data, else an error naming what came back. */
const fetchList = (url: string, headers: RequestHeaders, settings: Settings, label: string) =>
  fetchListPage(url, headers, settings, label, 'BENCH_PAGE_SIZE');

async function measure(
  server: RunningServer,
  url: string,
  headers: RequestHeaders,
  run: { database: DatabaseKind; handler: Handler; round: number; connections: number; idleMs: number },
  settings: Settings,
  backendCpu?: BackendCpu,
): Promise<ListResult> {
  const { database, handler, round, connections, idleMs } = run;
  const load = await loadRun(
    server,
    url,
    headers,
    {
      connections,
      warmupSeconds: connections > 1 ? settings.warmupSeconds : 0,
      durationSeconds: settings.durationSeconds,
      idleMs,
    },
    backendCpu,
  );
  process.stdout.write(
    `  ${database.padEnd(8)} ${handler.padEnd(8)} round ${round} ${String(connections).padStart(2)} conn ${loadRunSummary(load)}\n`,
  );
  return { database, handler, round, ...load };
}

const figuresOf = (row: ListResult): ListFigures => ({
  requestsPerSecond: row.requestsPerSecond,
  p50: row.latencyMs.p50,
  p95: row.latencyMs.p95,
  p99: row.latencyMs.p99,
  cpuMsPerRequest: row.cpuMsPerRequest,
  databaseCpuMsPerRequest: row.databaseCpuMsPerRequest,
});

/** One handler at one connection count: its rows by round, and the medians over them. */
function combined(results: ListResult[], database: DatabaseKind, handler: Handler, connections: number) {
  const rows = results
    .filter((row) => row.database === database && row.handler === handler && row.connections === connections)
    .sort((a, b) => a.round - b.round);
  if (rows.length === 0) return undefined;
  return { rows, figures: medianFigures(rows) };
}

function compare(
  database: DatabaseKind,
  results: ListResult[],
  settings: Settings,
  sameAnswer: SameAnswer,
): ListComparison | undefined {
  const engine = combined(results, database, 'engine', settings.connections);
  const baseline = combined(results, database, 'baseline', settings.connections);
  const single = combined(results, database, 'engine', 1);
  const singleBaseline = combined(results, database, 'baseline', 1);
  if (!engine || !baseline || !single) return undefined;
  const overall = ratios(engine.figures, baseline.figures);
  const perRound = engine.rows.flatMap((row) => {
    const other = baseline.rows.find((candidate) => candidate.round === row.round);
    return other ? [{ round: row.round, ...ratios(figuresOf(row), figuresOf(other)) }] : [];
  });
  return {
    database,
    judged: database === 'postgres',
    rounds: engine.rows.length,
    ...overall,
    engine: engine.figures,
    baseline: baseline.figures,
    perRound,
    single: { engine: single.figures, ...(singleBaseline ? { baseline: singleBaseline.figures } : {}) },
    sameAnswer,
    withinTarget:
      sameAnswer !== 'no' &&
      overall.throughputRatio >= catalogueTargets.throughputRatio &&
      overall.p99Ratio <= catalogueTargets.p99Ratio &&
      overall.cpuRatio !== undefined &&
      overall.cpuRatio <= catalogueTargets.cpuRatio,
  };
}

async function benchDatabase(database: DatabaseKind, settings: Settings, report: CatalogueBenchReport) {
  await withFreshDatabase(database, 'catalogue', report, async (fresh) => {
    const { options, variables, workDir } = fresh;
    const backendCpu = fresh.postgres && backendSampler(fresh.postgres.admin, fresh.postgres.name);
    const started = performance.now();
    let sizes: TableSize[] = [];
    const seed = await migrated(options, async (db) => {
      const seeded = await seedCatalogue(db, {
        workspaces: settings.workspaces,
        bigCustomers: settings.customers,
        otherCustomers: settings.otherCustomers,
      });
      if (settings.extraSql) {
        // An experiment (an index to try, say): not the product's schema, and reported as such.
        await db.execute(sql.raw(settings.extraSql));
        await db.execute(sql`ANALYZE`);
      }
      sizes = await tableSizes(db, ['customers']);
      return seeded;
    });
    const seedSeconds = Math.round((performance.now() - started) / 100) / 10;
    process.stdout.write(
      `  ${database.padEnd(8)} seeded ${settings.workspaces} workspaces, ${seed.customers.big.toLocaleString('en-US')} + ${seed.customers.others.toLocaleString('en-US')} customers in ${seedSeconds} s; ${sizesLine(sizes)}\n`,
    );
    const path = listPath(seed.workspaceId, settings);
    const headers = requestHeaders(seed, settings);
    const statements = await captureStatements(
      variables,
      path,
      (url) => fetchList(url, headers, settings, 'the server (capture)'),
      'catalogue bench SQL capture',
      workDir,
    );
    const named = statements.filter((statement) => statement.name).length;
    process.stdout.write(
      `  ${database.padEnd(8)} captured ${statements.length} statements (${named} named prepared): ${statements.map((statement) => statement.name ?? 'unnamed').join(', ')}\n`,
    );

    const plans = await explainList(options, statements, 'customers');
    process.stdout.write(`  ${database.padEnd(8)} plans: ${planLabel(plans)}\n`);

    const sameAnswer = await takeTurns({
      database,
      rounds: settings.rounds,
      engine: { variables, label: `catalogue bench on ${database}` },
      baseline: {
        entry: baselineEntry,
        plan: { statements, page: settings.page, pageSize: settings.pageSize },
      },
      workDir,
      path,
      headers,
      fetch: (url, label) => fetchList(url, headers, settings, label),
      first: (answer) =>
        report.databases.push({
          database,
          seedSeconds,
          matching: answer.total,
          responseBytes: Buffer.byteLength(answer.body),
          statements,
          plans,
          sizes,
        }),
      measure: async (server, url, run) => {
        for (const connections of [settings.connections, 1])
          report.results.push(
            await measure(server, url, headers, { database, ...run, connections }, settings, backendCpu),
          );
      },
    });
    const comparison = compare(database, report.results, settings, sameAnswer);
    if (comparison) report.comparisons.push(comparison);
  });
}

export function catalogueMarkdown(report: CatalogueBenchReport): string {
  const { settings } = report;
  const targets = catalogueTargets;
  const lines = [
    `\`GET /api/customers\` page ${settings.page} × ${settings.pageSize}, \`search=${settings.search}&source=${settings.source}&sort=${settings.sort}\`, \`Accept-Language: ${settings.language}\`, in a workspace of ${settings.customers.toLocaleString('en-US')} customers among ${settings.workspaces} workspaces; the engine against a bare \`node:http\` handler running the same SQL on the same driver; ${settings.rounds} interleaved round${settings.rounds === 1 ? '' : 's'} (engine, baseline, engine, baseline, …), autocannon ${settings.connections} connections and 1, ${settings.durationSeconds} s each (after ${settings.warmupSeconds} s warm-up), ${machineLine(report.machine)}`,
    '',
    ...(settings.extraSql ? [`Experiment, run after seeding: \`${settings.extraSql}\``, ''] : []),
    ...report.databases.map(
      (row) =>
        `${databaseName(row.database)}: ${row.matching.toLocaleString('en-US')} matching records, ${(row.responseBytes / 1024).toFixed(1)} KiB answer, seeded in ${row.seedSeconds} s; plans: ${planLabel(row.plans)}.`,
    ),
    '',
    "Every run (CPU: the process's own time per answered request; PostgreSQL: its backends' for this database, local server only):",
    '',
    '| database | handler | round | connections | req/s | p50 | p99 | process CPU / request | PostgreSQL CPU / request | errors | non-2xx | RSS |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...report.results.map(
      (row) =>
        `| ${databaseName(row.database)} | ${row.handler} | ${row.round} | ${row.connections} | ${row.requestsPerSecond.toLocaleString('en-US')} | ${row.latencyMs.p50} ms | ${row.latencyMs.p99} ms | ${ms(row.cpuMsPerRequest)} | ${row.databaseCpuMsPerRequest === undefined ? '–' : `${row.databaseCpuMsPerRequest} ms`} | ${row.errors} | ${row.non2xx} | ${row.rssMiB ?? '?'} MiB |`,
    ),
    '',
    `Medians over the rounds at ${settings.connections} connections, engine ÷ baseline (targets on PostgreSQL: req/s ≥ ${targets.throughputRatio}, p99 ≤ ${targets.p99Ratio}, CPU per request ≤ ${targets.cpuRatio}; PGlite reported, not judged), and at 1 connection (reported):`,
    '',
    `| database | req/s | ratio (≥ ${targets.throughputRatio}) | p99 | ratio (≤ ${targets.p99Ratio}) | CPU / request | ratio (≤ ${targets.cpuRatio}) | ratios by round (req/s, p99, CPU) | 1 connection p50 / p99, engine · baseline | same answer | verdict |`,
    '|---|---:|---:|---:|---:|---:|---:|---|---:|---|---|',
    ...report.comparisons.map((row) => {
      const byRound = row.perRound
        .map(
          (round) => `${round.round}: ${round.throughputRatio}, ${round.p99Ratio}, ${round.cpuRatio ?? '?'}`,
        )
        .join('; ');
      return `| ${databaseName(row.database)} | ${row.engine.requestsPerSecond} ÷ ${row.baseline.requestsPerSecond} | ${row.throughputRatio} | ${row.engine.p99} ÷ ${row.baseline.p99} ms | ${row.p99Ratio} | ${ms(row.engine.cpuMsPerRequest)} ÷ ${ms(row.baseline.cpuMsPerRequest)} | ${row.cpuRatio ?? '?'} | ${byRound} | ${row.single.engine.p50} / ${row.single.engine.p99} ms · ${row.single.baseline ? `${row.single.baseline.p50} / ${row.single.baseline.p99} ms` : '?'} | ${sameAnswerLabel[row.sameAnswer]} | ${verdictLabel(row)} |`;
    }),
  ];
  for (const skip of report.skipped) lines.push('', `${skip.database} skipped: ${skip.reason}`);
  return lines.join('\n');
}

export async function runCatalogueBench(): Promise<{ report: CatalogueBenchReport; ok: boolean }> {
  const settings: Settings = {
    ...loadSettings(),
    workspaces: intFromEnv('BENCH_WORKSPACES', 100),
    customers: intFromEnv('BENCH_CUSTOMERS', 100_000),
    otherCustomers: intFromEnv('BENCH_OTHER_CUSTOMERS', 200),
    page: intFromEnv('BENCH_PAGE', 50),
    pageSize: intFromEnv('BENCH_PAGE_SIZE', 20),
    search: process.env.BENCH_SEARCH ?? 'ahmed',
    source: process.env.BENCH_SOURCE ?? 'walkIn',
    sort: process.env.BENCH_SORT ?? 'name',
    language: process.env.BENCH_LANGUAGE ?? 'en',
    rounds: intFromEnv('BENCH_ROUNDS', 3),
    extraSql: process.env.BENCH_EXTRA_SQL ?? '',
  };
  const databases = benchDatabases();
  const report: CatalogueBenchReport = {
    machine: databaseMachine(),
    settings,
    databases: [],
    results: [],
    comparisons: [],
    skipped: [],
  };
  process.stdout.write(
    `\nGET /api/customers, engine vs bare baseline: ${databases.join(', ')}; ${settings.rounds} interleaved rounds, ${settings.connections} connections and 1, ${settings.durationSeconds} s each; Node ${process.version}\n`,
  );
  for (const database of databases) await benchDatabase(database, settings, report);
  const path = writeResult('catalogue-list', report);
  const ok = listPassed(report, databases);
  const targets = catalogueTargets;
  process.stdout.write(
    `\n${catalogueMarkdown(report)}\n\nNo errors, same answer; on PostgreSQL (medians) ≥ ${targets.throughputRatio}× the baseline's req/s, p99 ≤ ${targets.p99Ratio}×, CPU per request ≤ ${targets.cpuRatio}×: ${ok ? 'PASS' : 'FAIL'}\nResults: ${path}\n`,
  );
  return { report, ok };
}

runAsScript(import.meta.url, runCatalogueBench, 'catalogue bench failed: ');
