/**
 * What the benchmarks share: the server as a child process, ports, machine facts, result files,
 * fresh databases, load runs and their figures, the list benchmarks' capture, plans and answers.
 * Not for the bare baselines (list-baseline.ts): their process is measured, so it loads only its
 * driver, not autocannon or the server's modules.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, tmpdir, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import autocannon from 'autocannon';
import pg from 'pg';
import { type Database, openDatabase } from '../apps/server/src/db/client.ts';
import { appMeta, memberships, sessions, users, workspaces } from '../apps/server/src/db/schema/index.ts';
import { createToken } from '../apps/server/src/features/auth/tokens.ts';
import type { BaselinePlan } from './list-baseline.ts';
import type { CapturedStatement } from './sql-capture.ts';

export const benchDir = dirname(fileURLToPath(import.meta.url));
export const repoRoot = resolve(benchDir, '..');
export const resultsDir = join(benchDir, 'results');
/** The product entry, run from source with tsx: no build needed, same code as `dist/main.js`. */
export const serverEntry = join(repoRoot, 'apps/server/src/main.ts');

export const sleep = (ms: number) => new Promise<void>((resolveSleep) => setTimeout(resolveSleep, ms));

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolvePort(port));
    });
  });
}

export interface RunningServer {
  url: string;
  pid: number;
  /** Resident memory of the server process in MiB (Linux), or undefined. */
  rssMiB(): number | undefined;
  stop(): Promise<void>;
}

const children = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

/**
 * Starts `apps/server/src/main.ts` (or another entry answering `/api/health`, such as a bare
 * baseline) on loopback with the given variables (and only those, plus PATH/HOME), waits for
 * `/api/health`, and returns a handle that stops it with SIGTERM.
 */
export async function startServer(
  variables: Record<string, string>,
  label: string,
  entry = serverEntry,
): Promise<RunningServer> {
  const port = await freePort();
  const environment: NodeJS.ProcessEnv = {
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: 'warn',
    ...variables,
  };
  for (const name of ['PATH', 'HOME', 'TMPDIR', 'LANG']) {
    if (process.env[name] !== undefined) environment[name] = process.env[name];
  }
  // Node with tsx as an import hook, so that the pid we signal is the server itself.
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: repoRoot,
    env: environment,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolveExit) => {
    child.once('exit', (code) => {
      children.delete(child);
      resolveExit(code);
    });
  });
  let hasExited = false;
  void exited.then(() => {
    hasExited = true;
  });

  const url = `http://127.0.0.1:${port}`;
  // BENCH_START_TIMEOUT_S: a shared, loaded machine may need longer than a minute for a first start.
  const startSeconds = Number(process.env.BENCH_START_TIMEOUT_S ?? 60);
  const deadline = Date.now() + startSeconds * 1000;
  for (;;) {
    if (hasExited) throw new Error(`${label}: the server exited during start:\n${output.trim()}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${label}: the server was not healthy within ${startSeconds} s:\n${output.trim()}`);
    }
    try {
      const response = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2000) });
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }

  const pid = child.pid ?? 0;
  return {
    url,
    pid,
    rssMiB() {
      try {
        const status = readFileSync(`/proc/${pid}/status`, 'utf8');
        const kib = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
        return Number.isFinite(kib) ? Math.round(kib / 1024) : undefined;
      } catch {
        return undefined;
      }
    },
    async stop() {
      if (hasExited) return;
      child.kill('SIGTERM');
      const stopped = await Promise.race([exited.then(() => true), sleep(15_000).then(() => false)]);
      if (!stopped) {
        child.kill('SIGKILL');
        await exited;
      }
    },
  };
}

export interface MachineFacts {
  cpus: number;
  cpuModel: string;
  memoryGiB: number;
  node: string;
  date: string;
}

export function machineFacts(): MachineFacts {
  const list = cpus();
  return {
    cpus: list.length,
    cpuModel: list[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    date: new Date().toISOString(),
  };
}

/** The machine of a benchmark on the databases: with the PGlite installed and PostgreSQL's version. */
export type DatabaseMachine = MachineFacts & { postgres?: string; pglite: string };

export function databaseMachine(): DatabaseMachine {
  return { ...machineFacts(), pglite: installedPgliteVersion() };
}

/** The machine as the reports' first lines describe it: cores, Node and the database versions. */
export const machineLine = (machine: DatabaseMachine) =>
  `${machine.cpus} cores (${machine.cpuModel}), Node ${machine.node}, PGlite ${machine.pglite}${machine.postgres ? `, PostgreSQL ${machine.postgres}` : ''}`;

/**
 * Writes `bench/results/<name>.json` (the latest run) and a timestamped copy beside it, so that
 * earlier runs stay comparable; the folder is gitignored. Returns the latest run's path.
 */
export function writeResult(name: string, result: unknown): string {
  mkdirSync(resultsDir, { recursive: true });
  const text = `${JSON.stringify(result, null, 2)}\n`;
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  writeFileSync(join(resultsDir, `${name}-${stamp}.json`), text);
  const path = join(resultsDir, `${name}.json`);
  writeFileSync(path, text);
  return path;
}

/** True when this module is the script node was asked to run (not imported by run-all). */
export function isEntry(moduleUrl: string): boolean {
  const entry = process.argv[1];
  return entry !== undefined && fileURLToPath(moduleUrl) === resolve(entry);
}

/** An error as stderr shows it: its stack where it has one. */
const errorText = (error: unknown) =>
  error instanceof Error ? (error.stack ?? error.message) : String(error);

/**
 * Runs a benchmark when `moduleUrl` is the script node was asked to run: exit code 0 when it
 * passed, 1 when it did not or failed (the error on stderr after `failedPrefix`).
 */
export function runAsScript(moduleUrl: string, run: () => Promise<{ ok: boolean }>, failedPrefix = '') {
  if (!isEntry(moduleUrl)) return;
  run().then(
    ({ ok }) => process.exit(ok ? 0 : 1),
    (error: unknown) => {
      process.stderr.write(`${failedPrefix}${errorText(error)}\n`);
      process.exit(1);
    },
  );
}

/** A positive whole number from the environment (benchmark settings), or the fallback. */
export function intFromEnv(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer`);
  return value;
}

export type DatabaseKind = 'pglite' | 'postgres';

/** The databases to measure: `BENCH_DATABASES` (default `pglite,postgres`). */
export function benchDatabases(): DatabaseKind[] {
  return (process.env.BENCH_DATABASES ?? 'pglite,postgres')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry): entry is DatabaseKind => entry === 'pglite' || entry === 'postgres');
}

/** The PGlite version installed, for the report's machine facts. */
export function installedPgliteVersion(): string {
  const manifest = join(repoRoot, 'node_modules/@electric-sql/pglite/package.json');
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
}

/** The Chromium of the browser benchmarks (BENCH_CHROMIUM, default Debian's), headless. */
export const chromiumPath = process.env.BENCH_CHROMIUM ?? '/usr/bin/chromium';
export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];

// ---------------------------------------------------------------------------------------------
// Numbers.

export const round1 = (value: number) => Math.round(value * 10) / 10;
export const round2 = (value: number) => Math.round(value * 100) / 100;

/** The median (the mean of the middle two for an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The median of values some runs could not measure: undefined unless every one is known. */
export function knownMedian(values: (number | undefined)[]): number | undefined {
  const known = values.filter((value): value is number => value !== undefined);
  return known.length === 0 || known.length < values.length ? undefined : median(known);
}

/**
 * User + system CPU time of a process in ms, from `/proc/<pid>/stat` (clock ticks of 10 ms);
 * undefined if there is none, or (with `command`) if it runs something else.
 */
export function cpuMs(pid: number, command?: string): number | undefined {
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

// ---------------------------------------------------------------------------------------------
// Databases.

/** Where a benchmark's database is, as `openDatabase` takes it. */
export type BenchDatabaseOptions = { kind: 'pglite'; dataDir: string } | { kind: 'postgres'; url: string };

/** autocannon's settings: BENCH_CONNECTIONS (50), BENCH_DURATION (10 s), BENCH_WARMUP (3 s). */
export const loadSettings = () => ({
  connections: intFromEnv('BENCH_CONNECTIONS', 50),
  durationSeconds: intFromEnv('BENCH_DURATION', 10),
  warmupSeconds: intFromEnv('BENCH_WARMUP', 3),
});

/** A database the benchmark could not measure, and why. */
export interface Skipped {
  database: DatabaseKind;
  reason: string;
}

export interface FreshDatabase {
  options: BenchDatabaseOptions;
  /** The server's variables for it: DATA_DIR or DATABASE_URL. */
  variables: Record<string, string>;
  /** A temporary folder of the run: on PGlite, the data folder. */
  workDir: string;
  /** On PostgreSQL: a client of the server's default database, and the benchmark's database. */
  postgres?: { admin: pg.Client; name: string };
  /** Removes the folder, and drops the database. */
  cleanup(): Promise<void>;
}

/**
 * A temporary folder (`dukkan-bench-<slug>-…`) and, on PostgreSQL, a fresh database
 * (`dukkan_bench_<slug>_…`) on BENCH_POSTGRES_URL's server (default
 * postgres://postgres@127.0.0.1:5432/postgres), dropped by `cleanup`. Undefined if PostgreSQL is
 * unreachable: the report's `skipped` says why, and so does stdout. Sets the report's PostgreSQL
 * version.
 */
export async function freshDatabase(
  database: DatabaseKind,
  slug: string,
  report: { machine: { postgres?: string }; skipped: Skipped[] },
): Promise<FreshDatabase | undefined> {
  const workDir = mkdtempSync(join(tmpdir(), `dukkan-bench-${slug ? `${slug}-` : ''}`));
  const removeWorkDir = async () => rmSync(workDir, { recursive: true, force: true });
  if (database === 'pglite')
    return {
      options: { kind: 'pglite', dataDir: workDir },
      variables: { DATA_DIR: workDir },
      workDir,
      cleanup: removeWorkDir,
    };
  const adminUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `dukkan_bench_${slug ? `${slug.replaceAll('-', '_')}_` : ''}${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  try {
    await admin.connect();
  } catch (error) {
    report.skipped.push({
      database,
      reason: `PostgreSQL at ${adminUrl} unreachable: ${(error as Error).message}`,
    });
    process.stdout.write(`  postgres skipped: ${adminUrl} unreachable (${(error as Error).message})\n`);
    await removeWorkDir();
    return undefined;
  }
  report.machine.postgres = String((await admin.query('SHOW server_version')).rows[0]?.server_version);
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    options: { kind: 'postgres', url: url.toString() },
    variables: { DATABASE_URL: url.toString() },
    workDir,
    postgres: { admin, name },
    async cleanup() {
      await removeWorkDir();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

/**
 * Opens the database from this process, migrates it and runs `work` on it, then closes it: before
 * the server starts (PGlite: one process per folder).
 */
export async function migrated<T>(
  options: BenchDatabaseOptions,
  work: (db: Database) => Promise<T>,
): Promise<T> {
  const handle = await openDatabase(options);
  try {
    await handle.migrate();
    return await work(handle.db);
  } finally {
    await handle.close();
  }
}

/**
 * The bootstrap marker (so the server adds no demo workspace), then `count` workspaces named
 * `<label> 001`…; their ids, in order.
 */
export async function benchWorkspaces(db: Database, count: number, label: string): Promise<string[]> {
  await db.insert(appMeta).values({ key: 'bootstrap', value: new Date().toISOString() });
  const created = await db
    .insert(workspaces)
    .values(
      Array.from({ length: count }, (_, index) => ({
        name: `${label} ${String(index + 1).padStart(3, '0')}`,
      })),
    )
    .returning({ id: workspaces.id });
  return created.map((row) => row.id);
}

/**
 * An admin of the workspace, signed in as login does it (features/auth/sessions.ts: only the
 * token's hash is stored, for 30 days): the token and the `dukkan_session=…` cookie.
 */
export async function adminSession(db: Database, workspaceId: string, user: { email: string; name: string }) {
  const [admin] = await db.insert(users).values(user).returning({ id: users.id });
  await db.insert(memberships).values({ workspaceId, userId: admin!.id, isAdmin: true });
  const { token, tokenHash } = createToken();
  await db
    .insert(sessions)
    .values({ tokenHash, userId: admin!.id, expiresAt: new Date(Date.now() + 30 * 24 * 60 * 60 * 1000) });
  return { token, cookie: `dukkan_session=${token}` };
}

/** The `dukkan_session=…` pair a sign-in answer sets; an error if it sets none. */
export function sessionCookie(response: Response): string {
  const cookie = response.headers
    .getSetCookie()
    .map((header) => header.split(';')[0] ?? '')
    .find((pair) => pair.startsWith('dukkan_session='));
  if (!cookie) throw new Error('sign-in set no session cookie');
  return cookie;
}

/** The CPU time so far of each PostgreSQL backend connected to one database (a local server). */
export type BackendCpu = () => Promise<Map<number, number>>;

/**
 * A sampler of the CPU time of the PostgreSQL backends connected to `database` (pids from
 * `pg_stat_activity`, times from `/proc`): undefined unless PostgreSQL runs on this machine.
 */
export function backendSampler(admin: pg.Client, database: string): BackendCpu {
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

// ---------------------------------------------------------------------------------------------
// Load runs.

export interface LatencyMs {
  p50: number;
  p90: number;
  p99: number;
  average: number;
  max: number;
}

/** autocannon's latencies, the mean to 0.1 ms. */
export const latencyOf = (result: autocannon.Result): LatencyMs => ({
  p50: result.latency.p50,
  p90: result.latency.p90,
  p99: result.latency.p99,
  average: round1(result.latency.average),
  max: result.latency.max,
});

/** What every request of a list benchmark sends: the session cookie and the reader's language. */
export type RequestHeaders = Record<string, string>;

/** Sequential requests: the median time of `count` on an idle server. */
export async function idleLatency(url: string, headers: RequestHeaders, count = 5): Promise<number> {
  const times: number[] = [];
  for (let index = 0; index < count; index++) {
    const started = performance.now();
    await fetch(url, { headers }).then((response) => response.arrayBuffer());
    times.push(performance.now() - started);
  }
  return median(times);
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

/** One measured load run of a list: autocannon's figures, and the process's memory and CPU. */
export interface LoadRun {
  connections: number;
  durationSeconds: number;
  requestsPerSecond: number;
  requestsTotal: number;
  latencyMs: LatencyMs;
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

/**
 * autocannon against `url`: a warm-up (none for 0 s), the server settled, the measured run, the
 * server settled again; CPU time per answered request of the process and, with `backendCpu`, of
 * PostgreSQL's backends.
 */
export async function loadRun(
  server: RunningServer,
  url: string,
  headers: RequestHeaders,
  load: { connections: number; warmupSeconds: number; durationSeconds: number; idleMs: number },
  backendCpu?: BackendCpu,
): Promise<LoadRun> {
  const { connections, idleMs } = load;
  const options = { url, headers, connections, timeout: 30 };
  if (load.warmupSeconds > 0) await autocannon({ ...options, duration: load.warmupSeconds });
  await settle(server, url, headers, idleMs);
  const backendsBefore = await backendCpu?.();
  const cpuBefore = cpuMs(server.pid);
  const errorKinds: Record<string, number> = {};
  const result = await new Promise<autocannon.Result>((resolveRun, reject) => {
    const instance = autocannon({ ...options, duration: load.durationSeconds }, (error, finished) =>
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
  const measured: LoadRun = {
    connections,
    durationSeconds: result.duration,
    requestsPerSecond: round1(result.requests.average),
    requestsTotal: result.requests.total,
    latencyMs: latencyOf(result),
    errors: result.errors,
    timeouts: result.timeouts,
    errorKinds,
    non2xx: result.non2xx,
    rssMiB: server.rssMiB(),
    ...(cpuBefore === undefined || cpuAfter === undefined
      ? {}
      : { cpuMsPerRequest: round2((cpuAfter - cpuBefore) / answered) }),
  };
  if (backendsBefore && backendsAfter && backendsAfter.size > 0) {
    let used = 0;
    for (const [pid, after] of backendsAfter) used += after - (backendsBefore.get(pid) ?? 0);
    measured.databaseCpuMsPerRequest = round2(used / answered);
  }
  return measured;
}

/** What serves a list benchmark's request: the server, or the bare baseline replaying its SQL. */
export type Handler = 'engine' | 'baseline';

/** A list page's answer: its bytes and the total of matching records. */
export interface ListAnswer {
  body: string;
  total: number;
}

/**
 * The server and the baseline take turns for `rounds` rounds (server, baseline, server, …), so
 * that a slower spell of a shared machine does not fall on one of them only; each starts afresh
 * (on PGlite, one process per folder). After each start, one request is checked (`fetch`) and its
 * answer compared with the server's first (which goes to `first`); then `measure` runs, knowing
 * the request's idle latency. Returns the verdict on the answers.
 */
export async function takeTurns(turns: {
  database: DatabaseKind;
  rounds: number;
  /** The server's variables (its database), and its name in errors. */
  engine: { variables: Record<string, string>; label: string };
  /** The baseline's entry and what it replays (written to `workDir`). */
  baseline: { entry: string; plan: BaselinePlan };
  workDir: string;
  path: string;
  headers: RequestHeaders;
  fetch: (url: string, label: string) => Promise<ListAnswer>;
  first: (answer: ListAnswer) => void;
  measure: (
    server: RunningServer,
    url: string,
    run: { handler: Handler; round: number; idleMs: number },
  ) => Promise<void>;
}): Promise<SameAnswer> {
  const { database, engine } = turns;
  const planFile = join(turns.workDir, 'baseline-plan.json');
  writeFileSync(planFile, JSON.stringify(turns.baseline.plan));
  let engineBody: string | undefined;
  let sameAnswer: SameAnswer = 'bytes';
  let server: RunningServer | undefined;
  try {
    for (let round = 1; round <= turns.rounds; round++) {
      for (const handler of ['engine', 'baseline'] as const) {
        server =
          handler === 'engine'
            ? await startServer(engine.variables, engine.label)
            : await startServer(
                { ...engine.variables, BASELINE_PLAN: planFile },
                `baseline on ${database}`,
                turns.baseline.entry,
              );
        const url = `${server.url}${turns.path}`;
        const answer = await turns.fetch(url, `the ${handler}`);
        if (handler === 'engine' && engineBody === undefined) {
          engineBody = answer.body;
          turns.first(answer);
        } else {
          sameAnswer = worse(sameAnswer, answerAgainst(database, handler, engineBody, answer.body));
        }
        const idleMs = await idleLatency(url, turns.headers);
        await turns.measure(server, url, { handler, round, idleMs });
        await server.stop();
        server = undefined;
      }
    }
  } finally {
    await server?.stop();
  }
  return sameAnswer;
}

/** A load run's figures as the list benchmarks print them after the run's name. */
export function loadRunSummary(run: LoadRun): string {
  const kinds = Object.entries(run.errorKinds).map(([kind, count]) => `${kind} ×${count}`);
  return `${String(run.requestsPerSecond).padStart(7)} req/s  p50 ${run.latencyMs.p50} ms  p99 ${run.latencyMs.p99} ms  CPU ${run.cpuMsPerRequest ?? '?'} ms/req${run.databaseCpuMsPerRequest === undefined ? '' : ` (PostgreSQL ${run.databaseCpuMsPerRequest})`}  errors ${run.errors}${kinds.length ? ` (${kinds.join(', ')})` : ''}  non-2xx ${run.non2xx}`;
}

/** One handler's figures: a round's, or the medians over the rounds. */
export interface ListFigures {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  cpuMsPerRequest?: number;
  databaseCpuMsPerRequest?: number;
}

/** The medians over the rounds, to 0.01; a CPU time only when every round has it. */
export function medianFigures(rows: LoadRun[]): ListFigures {
  const cpu = knownMedian(rows.map((row) => row.cpuMsPerRequest));
  const databaseCpu = knownMedian(rows.map((row) => row.databaseCpuMsPerRequest));
  return {
    requestsPerSecond: round2(median(rows.map((row) => row.requestsPerSecond))),
    p50: round2(median(rows.map((row) => row.latencyMs.p50))),
    p99: round2(median(rows.map((row) => row.latencyMs.p99))),
    ...(cpu === undefined ? {} : { cpuMsPerRequest: round2(cpu) }),
    ...(databaseCpu === undefined ? {} : { databaseCpuMsPerRequest: round2(databaseCpu) }),
  };
}

/** Engine ÷ baseline: req/s, p99 (a baseline p99 under 1 ms counts as 1 ms) and CPU per request. */
export function ratios(engine: ListFigures, baseline: ListFigures) {
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

// ---------------------------------------------------------------------------------------------
// The list benchmarks: the request, its statements and plans, the answers compared.

export const databaseName = (database: DatabaseKind) =>
  database === 'pglite' ? 'PGlite (embedded)' : 'PostgreSQL';

export const ms = (value: number | undefined) => (value === undefined ? '?' : `${value} ms`);

/**
 * One request of a list page: 200 with a full page of data, else an error naming what came back
 * (and `lower`, the setting that would fit the data).
 */
export async function fetchListPage(
  url: string,
  headers: RequestHeaders,
  settings: { page: number; pageSize: number },
  label: string,
  lower: string,
): Promise<ListAnswer> {
  const response = await fetch(url, { headers });
  const body = await response.text();
  if (response.status !== 200) throw new Error(`${label} answered ${response.status}: ${body.slice(0, 300)}`);
  const answer = JSON.parse(body) as { data: unknown[]; meta: { total: number } };
  if (answer.data.length !== settings.pageSize || answer.meta.total < settings.page * settings.pageSize)
    throw new Error(
      `${label}: page ${settings.page} holds ${answer.data.length} records of ${answer.meta.total} matching; seed more or lower ${lower}`,
    );
  return { body, total: answer.meta.total };
}

const captureHook = join(benchDir, 'sql-capture.ts');

/**
 * Starts the server with sql-capture.ts preloaded and has `request` sent three times (the pool has
 * its connections by the last); returns the statements of the last, in the order sent.
 */
export async function captureStatements(
  variables: Record<string, string>,
  path: string,
  request: (url: string) => Promise<unknown>,
  label: string,
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
    label,
  );
  try {
    const url = `${server.url}${path}`;
    await request(url);
    await request(url);
    const before = statSync(file).size;
    await request(url);
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

/**
 * `EXPLAIN ANALYZE` of the captured statements that read `table` (the page, and the total if it
 * is a statement of its own) with their parameters, from this process while no server runs
 * (PGlite: one process per folder), three times each (the last is reported, warm). The planner
 * picks between plans from the statistics ANALYZE sampled, so runs can differ.
 */
export async function explainList(
  options: BenchDatabaseOptions,
  statements: CapturedStatement[],
  table: string,
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
    for (const statement of statements.filter((entry) => entry.text.includes(`from "${table}"`))) {
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

export const planLabel = (plans: ListPlan[]) =>
  plans
    .map(
      (plan) =>
        `${plan.statement}: ${plan.bitmapAnd ? 'BitmapAnd of ' : ''}${plan.indexes.join(' + ') || 'sequential scan'}, ${plan.executionMs} ms`,
    )
    .join('; ');

/** `bytes`: the same bytes; `json`: the same JSON with another key order or spacing; `no`: different. */
export type SameAnswer = 'bytes' | 'json' | 'no';

export const sameAnswerLabel: Record<SameAnswer, string> = {
  bytes: 'yes (bytes)',
  json: 'yes (same JSON, other bytes)',
  no: 'NO',
};

/** The server's answer and another's: the same bytes, the same JSON (key order, spacing) or not. */
function sameAnswerAs(expected: string, actual: string): SameAnswer {
  if (expected === actual) return 'bytes';
  try {
    return isDeepStrictEqual(JSON.parse(expected), JSON.parse(actual)) ? 'json' : 'no';
  } catch {
    return 'no';
  }
}

/** A handler's answer against the server's first, both shown when their bytes differ. */
function answerAgainst(
  database: DatabaseKind,
  handler: string,
  engineBody: string | undefined,
  body: string,
): SameAnswer {
  const same = sameAnswerAs(engineBody ?? '', body);
  if (same !== 'bytes')
    process.stdout.write(
      `  ${database}: the ${handler}'s answer ${same === 'json' ? 'is the same JSON in other bytes' : 'differs'} from the server's first:\n    server:   ${engineBody?.slice(0, 400)}\n    ${handler}: ${body.slice(0, 400)}\n`,
    );
  return same;
}

/** The worse of two verdicts on the answers. */
const worse = (a: SameAnswer, b: SameAnswer): SameAnswer =>
  a === 'no' || b === 'no' ? 'no' : a === 'json' || b === 'json' ? 'json' : 'bytes';

/** A comparison's verdict: on its targets where judged, else what it would be. */
export const verdictLabel = (row: { judged: boolean; withinTarget: boolean }) =>
  row.judged
    ? row.withinTarget
      ? 'within'
      : 'OVER'
    : `not judged (${row.withinTarget ? 'would be within' : 'would be over'})`;

/**
 * A list benchmark passed: no errors or non-2xx answers, every database measured that was not
 * skipped, the same answers, and the judged comparisons within their targets.
 */
export function listPassed(
  report: {
    results: { errors: number; non2xx: number }[];
    comparisons: { sameAnswer: SameAnswer; judged: boolean; withinTarget: boolean }[];
    skipped: Skipped[];
  },
  databases: DatabaseKind[],
): boolean {
  const clean = report.results.every((row) => row.errors === 0 && row.non2xx === 0);
  const measuredAll = report.comparisons.length === databases.length - report.skipped.length;
  const sameAnswers = report.comparisons.every((row) => row.sameAnswer !== 'no');
  return (
    clean && measuredAll && sameAnswers && report.comparisons.every((row) => !row.judged || row.withinTarget)
  );
}
