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
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase } from '../apps/server/src/db/client.ts';
import type { BaselinePlan } from './catalogue-list-baseline.ts';
import { type CatalogueSeed, seedCatalogue } from './catalogue-seed.ts';
import type { CapturedStatement } from './sql-capture.ts';
import {
  benchDatabases,
  benchDir,
  type DatabaseKind,
  installedPgliteVersion,
  intFromEnv,
  isEntry,
  machineFacts,
  type RunningServer,
  sleep,
  startServer,
  writeResult,
} from './support.ts';

type Handler = 'engine' | 'baseline';

const baselineEntry = join(benchDir, 'catalogue-list-baseline.ts');
const captureHook = join(benchDir, 'sql-capture.ts');

export interface ListResult {
  database: DatabaseKind;
  handler: Handler;
  /** Server and baseline take turns: round 1 of each, round 2 of each, … */
  round: number;
  connections: number;
  durationSeconds: number;
  requestsPerSecond: number;
  requestsTotal: number;
  latencyMs: { p50: number; p90: number; p99: number; average: number; max: number };
  /** Failed requests, timeouts included. */
  errors: number;
  timeouts: number;
  /** Failed requests by error code or message. */
  errorKinds: Record<string, number>;
  non2xx: number;
  rssMiB?: number;
  /**
   * CPU time of the server's (or baseline's) process per request it answered, in ms (Linux): its
   * own work, without PostgreSQL's; with PGlite the queries run inside it and count too.
   */
  cpuMsPerRequest?: number;
  /**
   * CPU time of the PostgreSQL backends connected to the benchmark's database per request, in ms
   * (a local PostgreSQL on Linux only; a backend that closes during the run takes its time with
   * it, so at 1 connection, where the pool lets idle ones go, it can read a little low).
   */
  databaseCpuMsPerRequest?: number;
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

/** One handler's figures: a round's, or the medians over the rounds. */
export interface ListFigures {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  cpuMsPerRequest?: number;
  databaseCpuMsPerRequest?: number;
}

/** `bytes`: the same bytes; `json`: the same JSON with another key order or spacing; `no`: different. */
export type SameAnswer = 'bytes' | 'json' | 'no';

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
  machine: ReturnType<typeof machineFacts> & { postgres?: string; pglite: string };
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
  }[];
  results: ListResult[];
  comparisons: ListComparison[];
  skipped: { database: DatabaseKind; reason: string }[];
}

type Settings = CatalogueBenchReport['settings'];

export interface ListPlan {
  /** `page` (the records) or `count` (the total). */
  statement: 'page' | 'count';
  /** The indexes the plan reads, in order; empty for a sequential scan. */
  indexes: string[];
  /** Whether the bitmaps of several indexes are intersected (BitmapAnd). */
  bitmapAnd: boolean;
  executionMs: number;
  text: string;
}

const planLabel = (plans: ListPlan[]) =>
  plans
    .map(
      (plan) =>
        `${plan.statement}: ${plan.bitmapAnd ? 'BitmapAnd of ' : ''}${plan.indexes.join(' + ') || 'sequential scan'}, ${plan.executionMs} ms`,
    )
    .join('; ');

/**
 * `EXPLAIN ANALYZE` of the captured statements that read customers (the page, and the total if
 * it is a statement of its own) with their parameters, from this process while no server runs
 * (PGlite: one process per folder), three times each (the last is reported, warm). The planner
 * picks between plans from the statistics ANALYZE sampled, so runs can differ.
 */
async function explainList(
  options: { kind: 'pglite'; dataDir: string } | { kind: 'postgres'; url: string },
  statements: CapturedStatement[],
): Promise<ListPlan[]> {
  let query: (text: string, params: unknown[]) => Promise<string[]>;
  let close: () => Promise<void>;
  if (options.kind === 'postgres') {
    const client = new pg.Client({ connectionString: options.url });
    await client.connect();
    query = async (text, params) =>
      (await client.query<{ 'QUERY PLAN': string }>(text, params)).rows.map((row) => row['QUERY PLAN']);
    close = () => client.end();
  } else {
    const client = new PGlite(join(options.dataDir, 'pgdata'), { extensions: { pg_trgm } });
    query = async (text, params) =>
      (await client.query<{ 'QUERY PLAN': string }>(text, params)).rows.map((row) => row['QUERY PLAN']);
    close = () => client.close();
  }
  const plans: ListPlan[] = [];
  try {
    for (const statement of statements.filter((entry) => entry.text.includes('from "customers"'))) {
      let lines: string[] = [];
      for (let run = 0; run < 3; run++)
        lines = await query(`EXPLAIN (ANALYZE, COSTS OFF) ${statement.text}`, statement.params);
      const text = lines.join('\n');
      plans.push({
        statement: /\boffset\b/i.test(statement.text) ? 'page' : 'count',
        indexes: [...text.matchAll(/Index (?:Only )?Scan (?:using|on) (\w+)/g)].map((match) => match[1]!),
        bitmapAnd: text.includes('BitmapAnd'),
        executionMs: Number(/Execution Time: ([\d.]+) ms/.exec(text)?.[1] ?? Number.NaN),
        text,
      });
    }
  } finally {
    await close();
  }
  return plans;
}

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
type RequestHeaders = Record<string, string>;
const requestHeaders = (seed: CatalogueSeed, settings: Settings): RequestHeaders => ({
  cookie: seed.cookie,
  'accept-language': settings.language,
});

/** One request: 200 with a full page of data, else an error naming what came back. */
async function fetchList(url: string, headers: RequestHeaders, settings: Settings, label: string) {
  const response = await fetch(url, { headers });
  const body = await response.text();
  if (response.status !== 200) throw new Error(`${label} answered ${response.status}: ${body.slice(0, 300)}`);
  const answer = JSON.parse(body) as { data: unknown[]; meta: { total: number } };
  if (answer.data.length !== settings.pageSize || answer.meta.total < settings.page * settings.pageSize)
    throw new Error(
      `${label}: page ${settings.page} holds ${answer.data.length} records of ${answer.meta.total} matching; seed more or lower BENCH_PAGE_SIZE`,
    );
  return { body, total: answer.meta.total };
}

/**
 * Starts the server with sql-capture.ts preloaded and sends the request three times (the pool has
 * its connections by the last); returns the statements of the last, in the order sent.
 */
async function captureStatements(
  variables: Record<string, string>,
  url: (server: RunningServer) => string,
  headers: RequestHeaders,
  settings: Settings,
  workDir: string,
): Promise<CapturedStatement[]> {
  const file = join(workDir, 'statements.jsonl');
  writeFileSync(file, '');
  const server = await startServer(
    {
      ...variables,
      BENCH_SQL_CAPTURE: file,
      NODE_OPTIONS: `--import tsx --import ${pathToFileURL(captureHook).href}`,
    },
    'catalogue bench SQL capture',
  );
  try {
    await fetchList(url(server), headers, settings, 'the server (capture)');
    await fetchList(url(server), headers, settings, 'the server (capture)');
    const before = statSync(file).size;
    await fetchList(url(server), headers, settings, 'the server (capture)');
    // A statement is written when answered: the last can land a moment after the response.
    await sleep(200);
    const lines = readFileSync(file).subarray(before).toString('utf8').trim().split('\n').filter(Boolean);
    const statements = lines
      .map((line) => JSON.parse(line) as CapturedStatement)
      .sort((a, b) => a.sentMs - b.sentMs);
    if (!statements.some((statement) => /\boffset\b/i.test(statement.text)))
      throw new Error(`no captured statement reads the page:\n${lines.join('\n')}`);
    return statements;
  } finally {
    await server.stop();
  }
}

/** Sequential requests: the median time of `count` on an idle server. */
async function idleLatency(url: string, headers: RequestHeaders, count = 5): Promise<number> {
  const times: number[] = [];
  for (let index = 0; index < count; index++) {
    const started = performance.now();
    await fetch(url, { headers }).then((response) => response.arrayBuffer());
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(count / 2)]!;
}

/**
 * After a load run the server still works off the requests in flight when autocannon stopped,
 * though their client has gone. With PGlite they wait unread in the sockets — a query blocks the
 * event loop, so requests are read one at a time and a new one can be answered ahead of them — so
 * first the process must be idle (under 20% of a core for 300 ms); then, for PostgreSQL's pool
 * queue, requests are sent one at a time until three in a row answer about as fast as on an idle
 * server. Returns how many it sent.
 */
async function settle(
  server: RunningServer,
  url: string,
  headers: RequestHeaders,
  idleMs: number,
): Promise<number> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const before = cpuMs(server.pid);
    await sleep(300);
    const after = cpuMs(server.pid);
    if (before === undefined || after === undefined || after - before < 60 || Date.now() > deadline) break;
  }
  let sent = 0;
  let fastInARow = 0;
  while (fastInARow < 3 && Date.now() < deadline) {
    const started = performance.now();
    await fetch(url, { headers }).then((response) => response.arrayBuffer());
    sent++;
    fastInARow = performance.now() - started < idleMs * 2 + 20 ? fastInARow + 1 : 0;
  }
  return sent;
}

/** The CPU time so far of each PostgreSQL backend connected to one database (a local server). */
type BackendCpu = () => Promise<Map<number, number>>;

async function measure(
  server: RunningServer,
  url: string,
  headers: RequestHeaders,
  run: { database: DatabaseKind; handler: Handler; round: number; connections: number; idleMs: number },
  settings: Settings,
  backendCpu?: BackendCpu,
): Promise<ListResult> {
  const { database, handler, round, connections, idleMs } = run;
  const options = { url, headers, connections, timeout: 30 };
  if (connections > 1) await autocannon({ ...options, duration: settings.warmupSeconds });
  await settle(server, url, headers, idleMs);
  const backendsBefore = await backendCpu?.();
  const cpuBefore = cpuMs(server.pid);
  const errorKinds: Record<string, number> = {};
  const result = await new Promise<autocannon.Result>((resolveRun, reject) => {
    const instance = autocannon({ ...options, duration: settings.durationSeconds }, (error, finished) =>
      error ? reject(error) : resolveRun(finished),
    );
    instance.on('reqError', (error: { code?: string; message?: string }) => {
      const kind = error.code ?? error.message ?? 'unknown';
      errorKinds[kind] = (errorKinds[kind] ?? 0) + 1;
    });
  });
  const settling = await settle(server, url, headers, idleMs);
  const cpuAfter = cpuMs(server.pid);
  const backendsAfter = await backendCpu?.();
  // Answered: the completed requests, the one in flight on each connection when the run stopped
  // (the server still answers it) and the settling requests.
  const answered = result.requests.total + connections + settling;
  const measured: ListResult = {
    database,
    handler,
    round,
    connections,
    durationSeconds: result.duration,
    requestsPerSecond: Math.round(result.requests.average * 10) / 10,
    requestsTotal: result.requests.total,
    latencyMs: {
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      average: Math.round(result.latency.average * 10) / 10,
      max: result.latency.max,
    },
    errors: result.errors,
    timeouts: result.timeouts,
    errorKinds,
    non2xx: result.non2xx,
    rssMiB: server.rssMiB(),
    cpuMsPerRequest:
      cpuBefore === undefined || cpuAfter === undefined
        ? undefined
        : Math.round(((cpuAfter - cpuBefore) / answered) * 100) / 100,
  };
  if (backendsBefore && backendsAfter && backendsAfter.size > 0) {
    let used = 0;
    for (const [pid, after] of backendsAfter) used += after - (backendsBefore.get(pid) ?? 0);
    measured.databaseCpuMsPerRequest = Math.round((used / answered) * 100) / 100;
  }
  const kinds = Object.entries(errorKinds).map(([kind, count]) => `${kind} ×${count}`);
  process.stdout.write(
    `  ${database.padEnd(8)} ${handler.padEnd(8)} round ${round} ${String(connections).padStart(2)} conn ${String(measured.requestsPerSecond).padStart(7)} req/s  p50 ${measured.latencyMs.p50} ms  p99 ${measured.latencyMs.p99} ms  CPU ${measured.cpuMsPerRequest ?? '?'} ms/req${measured.databaseCpuMsPerRequest === undefined ? '' : ` (PostgreSQL ${measured.databaseCpuMsPerRequest})`}  errors ${measured.errors}${kinds.length ? ` (${kinds.join(', ')})` : ''}  non-2xx ${measured.non2xx}\n`,
  );
  return measured;
}

const round2 = (value: number) => Math.round(value * 100) / 100;

/**
 * User + system CPU time of a process in ms, from `/proc/<pid>/stat` (clock ticks of 10 ms);
 * undefined if there is none, or (with `command`) if it runs something else.
 */
function cpuMs(pid: number, command?: string): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    if (command !== undefined && stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) !== command)
      return undefined;
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14 and 15 of stat(5) are utime and stime; the slice starts at field 3.
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

/** The median (the mean of the middle two for an even count); undefined for none. */
function median(values: (number | undefined)[]): number | undefined {
  const known = values.filter((value): value is number => value !== undefined).sort((a, b) => a - b);
  if (known.length === 0 || known.length < values.length) return undefined;
  const middle = Math.floor(known.length / 2);
  return known.length % 2 === 1 ? known[middle]! : (known[middle - 1]! + known[middle]!) / 2;
}

const figuresOf = (row: ListResult): ListFigures => ({
  requestsPerSecond: row.requestsPerSecond,
  p50: row.latencyMs.p50,
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
  const medianOf = (pick: (row: ListResult) => number | undefined) => median(rows.map(pick));
  const cpu = medianOf((row) => row.cpuMsPerRequest);
  const databaseCpu = medianOf((row) => row.databaseCpuMsPerRequest);
  const figures: ListFigures = {
    requestsPerSecond: round2(medianOf((row) => row.requestsPerSecond)!),
    p50: round2(medianOf((row) => row.latencyMs.p50)!),
    p99: round2(medianOf((row) => row.latencyMs.p99)!),
    ...(cpu === undefined ? {} : { cpuMsPerRequest: round2(cpu) }),
    ...(databaseCpu === undefined ? {} : { databaseCpuMsPerRequest: round2(databaseCpu) }),
  };
  return { rows, figures };
}

/** Engine ÷ baseline: req/s, p99 (a baseline p99 under 1 ms counts as 1 ms) and CPU per request. */
function ratios(engine: ListFigures, baseline: ListFigures) {
  const cpuRatio =
    engine.cpuMsPerRequest !== undefined && baseline.cpuMsPerRequest
      ? round2(engine.cpuMsPerRequest / baseline.cpuMsPerRequest)
      : undefined;
  return {
    throughputRatio: baseline.requestsPerSecond
      ? round2(engine.requestsPerSecond / baseline.requestsPerSecond)
      : 0,
    p99Ratio: round2(engine.p99 / Math.max(baseline.p99, 1)),
    ...(cpuRatio === undefined ? {} : { cpuRatio }),
  };
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

/** The server's answer and another's: the same bytes, the same JSON (key order, spacing) or not. */
function sameAnswerAs(expected: string, actual: string): SameAnswer {
  if (expected === actual) return 'bytes';
  try {
    return isDeepStrictEqual(JSON.parse(expected), JSON.parse(actual)) ? 'json' : 'no';
  } catch {
    return 'no';
  }
}

/** The worse of two verdicts on the answers. */
const worse = (a: SameAnswer, b: SameAnswer): SameAnswer =>
  a === 'no' || b === 'no' ? 'no' : a === 'json' || b === 'json' ? 'json' : 'bytes';

/**
 * A sampler of the CPU time of the PostgreSQL backends connected to `database` (pids from
 * `pg_stat_activity`, times from `/proc`): undefined unless PostgreSQL runs on this machine.
 */
function backendSampler(admin: pg.Client, database: string): BackendCpu {
  return async () => {
    const { rows } = await admin.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE datname = $1',
      [database],
    );
    const times = new Map<number, number>();
    for (const { pid } of rows) {
      const time = cpuMs(pid, 'postgres');
      if (time !== undefined) times.set(pid, time);
    }
    return times;
  };
}

async function benchDatabase(database: DatabaseKind, settings: Settings, report: CatalogueBenchReport) {
  const workDir = mkdtempSync(join(tmpdir(), 'dukkan-bench-catalogue-'));
  let cleanup = async () => rmSync(workDir, { recursive: true, force: true });
  let variables: Record<string, string>;
  let options: { kind: 'pglite'; dataDir: string } | { kind: 'postgres'; url: string };
  let backendCpu: BackendCpu | undefined;
  if (database === 'pglite') {
    options = { kind: 'pglite', dataDir: workDir };
    variables = { DATA_DIR: workDir };
  } else {
    const adminUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
    const name = `dukkan_bench_catalogue_${process.pid}_${Date.now()}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    try {
      await admin.connect();
    } catch (error) {
      report.skipped.push({
        database,
        reason: `PostgreSQL at ${adminUrl} unreachable: ${(error as Error).message}`,
      });
      process.stdout.write(`  postgres skipped: ${adminUrl} unreachable (${(error as Error).message})\n`);
      await cleanup();
      return;
    }
    report.machine.postgres = String((await admin.query('SHOW server_version')).rows[0]?.server_version);
    await admin.query(`CREATE DATABASE ${name}`);
    cleanup = async () => {
      rmSync(workDir, { recursive: true, force: true });
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    };
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    options = { kind: 'postgres', url: url.toString() };
    variables = { DATABASE_URL: url.toString() };
    backendCpu = backendSampler(admin, name);
  }

  let server: RunningServer | undefined;
  try {
    const started = performance.now();
    const handle = await openDatabase(options);
    let seed: CatalogueSeed;
    try {
      await handle.migrate();
      seed = await seedCatalogue(handle.db, {
        workspaces: settings.workspaces,
        bigCustomers: settings.customers,
        otherCustomers: settings.otherCustomers,
      });
      if (settings.extraSql) {
        // An experiment (an index to try, say): not the product's schema, and reported as such.
        await handle.db.execute(sql.raw(settings.extraSql));
        await handle.db.execute(sql`ANALYZE`);
      }
    } finally {
      await handle.close();
    }
    const seedSeconds = Math.round((performance.now() - started) / 100) / 10;
    process.stdout.write(
      `  ${database.padEnd(8)} seeded ${settings.workspaces} workspaces, ${seed.customers.big.toLocaleString('en-US')} + ${seed.customers.others.toLocaleString('en-US')} customers in ${seedSeconds} s\n`,
    );
    const path = listPath(seed.workspaceId, settings);
    const headers = requestHeaders(seed, settings);
    const statements = await captureStatements(
      variables,
      (running) => `${running.url}${path}`,
      headers,
      settings,
      workDir,
    );
    const named = statements.filter((statement) => statement.name).length;
    process.stdout.write(
      `  ${database.padEnd(8)} captured ${statements.length} statements (${named} named prepared): ${statements.map((statement) => statement.name ?? 'unnamed').join(', ')}\n`,
    );

    const plans = await explainList(options, statements);
    process.stdout.write(`  ${database.padEnd(8)} plans: ${planLabel(plans)}\n`);

    const planFile = join(workDir, 'baseline-plan.json');
    const baselinePlan: BaselinePlan = { statements, page: settings.page, pageSize: settings.pageSize };
    writeFileSync(planFile, JSON.stringify(baselinePlan));
    let engineBody: string | undefined;
    let sameAnswer: SameAnswer = 'bytes';
    // The server and the baseline take turns, so that a slower spell of a shared machine does not
    // fall on one of them only; each starts afresh (on PGlite, one process per folder).
    for (let round = 1; round <= settings.rounds; round++) {
      for (const handler of ['engine', 'baseline'] as const) {
        server =
          handler === 'engine'
            ? await startServer(variables, `catalogue bench on ${database}`)
            : await startServer(
                { ...variables, BASELINE_PLAN: planFile },
                `baseline on ${database}`,
                baselineEntry,
              );
        const url = `${server.url}${path}`;
        const answer = await fetchList(url, headers, settings, `the ${handler}`);
        if (handler === 'engine' && engineBody === undefined) {
          engineBody = answer.body;
          report.databases.push({
            database,
            seedSeconds,
            matching: answer.total,
            responseBytes: Buffer.byteLength(answer.body),
            statements,
            plans,
          });
        } else {
          const same = sameAnswerAs(engineBody ?? '', answer.body);
          sameAnswer = worse(sameAnswer, same);
          if (same !== 'bytes')
            process.stdout.write(
              `  ${database}: the ${handler}'s answer ${same === 'json' ? 'is the same JSON in other bytes' : 'differs'} from the server's first:\n    server:   ${engineBody?.slice(0, 400)}\n    ${handler}: ${answer.body.slice(0, 400)}\n`,
            );
        }
        const idleMs = await idleLatency(url, headers);
        for (const connections of [settings.connections, 1])
          report.results.push(
            await measure(
              server,
              url,
              headers,
              { database, handler, round, connections, idleMs },
              settings,
              backendCpu,
            ),
          );
        await server.stop();
        server = undefined;
      }
    }
    const comparison = compare(database, report.results, settings, sameAnswer);
    if (comparison) report.comparisons.push(comparison);
  } finally {
    await server?.stop();
    await cleanup();
  }
}

const databaseName = (database: DatabaseKind) => (database === 'pglite' ? 'PGlite (embedded)' : 'PostgreSQL');

const ms = (value: number | undefined) => (value === undefined ? '?' : `${value} ms`);
const sameAnswerLabel: Record<SameAnswer, string> = {
  bytes: 'yes (bytes)',
  json: 'yes (same JSON, other bytes)',
  no: 'NO',
};

export function catalogueMarkdown(report: CatalogueBenchReport): string {
  const { settings } = report;
  const targets = catalogueTargets;
  const lines = [
    `\`GET /api/customers\` page ${settings.page} × ${settings.pageSize}, \`search=${settings.search}&source=${settings.source}&sort=${settings.sort}\`, \`Accept-Language: ${settings.language}\`, in a workspace of ${settings.customers.toLocaleString('en-US')} customers among ${settings.workspaces} workspaces; the engine against a bare \`node:http\` handler running the same SQL on the same driver; ${settings.rounds} interleaved round${settings.rounds === 1 ? '' : 's'} (engine, baseline, engine, baseline, …), autocannon ${settings.connections} connections and 1, ${settings.durationSeconds} s each (after ${settings.warmupSeconds} s warm-up), ${report.machine.cpus} cores (${report.machine.cpuModel}), Node ${report.machine.node}, PGlite ${report.machine.pglite}${report.machine.postgres ? `, PostgreSQL ${report.machine.postgres}` : ''}`,
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
      const verdict = row.judged
        ? row.withinTarget
          ? 'within'
          : 'OVER'
        : `not judged (${row.withinTarget ? 'would be within' : 'would be over'})`;
      const byRound = row.perRound
        .map(
          (round) => `${round.round}: ${round.throughputRatio}, ${round.p99Ratio}, ${round.cpuRatio ?? '?'}`,
        )
        .join('; ');
      return `| ${databaseName(row.database)} | ${row.engine.requestsPerSecond} ÷ ${row.baseline.requestsPerSecond} | ${row.throughputRatio} | ${row.engine.p99} ÷ ${row.baseline.p99} ms | ${row.p99Ratio} | ${ms(row.engine.cpuMsPerRequest)} ÷ ${ms(row.baseline.cpuMsPerRequest)} | ${row.cpuRatio ?? '?'} | ${byRound} | ${row.single.engine.p50} / ${row.single.engine.p99} ms · ${row.single.baseline ? `${row.single.baseline.p50} / ${row.single.baseline.p99} ms` : '?'} | ${sameAnswerLabel[row.sameAnswer]} | ${verdict} |`;
    }),
  ];
  for (const skip of report.skipped) lines.push('', `${skip.database} skipped: ${skip.reason}`);
  return lines.join('\n');
}

export async function runCatalogueBench(): Promise<{ report: CatalogueBenchReport; ok: boolean }> {
  const settings: Settings = {
    connections: intFromEnv('BENCH_CONNECTIONS', 50),
    durationSeconds: intFromEnv('BENCH_DURATION', 10),
    warmupSeconds: intFromEnv('BENCH_WARMUP', 3),
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
  const pgliteVersion = installedPgliteVersion();
  const report: CatalogueBenchReport = {
    machine: { ...machineFacts(), pglite: pgliteVersion },
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
  const clean = report.results.every((row) => row.errors === 0 && row.non2xx === 0);
  const measuredAll = report.comparisons.length === databases.length - report.skipped.length;
  const sameAnswers = report.comparisons.every((row) => row.sameAnswer !== 'no');
  const ok =
    clean && measuredAll && sameAnswers && report.comparisons.every((row) => !row.judged || row.withinTarget);
  const targets = catalogueTargets;
  process.stdout.write(
    `\n${catalogueMarkdown(report)}\n\nNo errors, same answer; on PostgreSQL (medians) ≥ ${targets.throughputRatio}× the baseline's req/s, p99 ≤ ${targets.p99Ratio}×, CPU per request ≤ ${targets.cpuRatio}×: ${ok ? 'PASS' : 'FAIL'}\nResults: ${path}\n`,
  );
  return { report, ok };
}

if (isEntry(import.meta.url)) {
  runCatalogueBench().then(
    ({ ok }) => process.exit(ok ? 0 : 1),
    (error: unknown) => {
      process.stderr.write(
        `catalogue bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
      process.exit(1);
    },
  );
}
