/**
 * Load runs with autocannon: their settings, latencies, the server settled before and after, and
 * the CPU time per request of the server and of PostgreSQL's backends. Loads autocannon: not for
 * the bare baselines (list-baseline.ts), whose process is measured.
 */
import autocannon from 'autocannon';
import type pg from 'pg';
import { cpuMs, median, round1, round2 } from './numbers.ts';
import { intFromEnv } from './script.ts';
import { type RunningServer, sleep } from './server.ts';

/** autocannon's settings: BENCH_CONNECTIONS (50), BENCH_DURATION (10 s), BENCH_WARMUP (3 s). */
export const loadSettings = () => ({
  connections: intFromEnv('BENCH_CONNECTIONS', 50),
  durationSeconds: intFromEnv('BENCH_DURATION', 10),
  warmupSeconds: intFromEnv('BENCH_WARMUP', 3),
});

export interface LatencyMs {
  p50: number;
  p90: number;
  /** Of the 2xx answers' latencies, to 0.1 ms: autocannon reports p90 and p97.5, not p95. */
  p95: number;
  p99: number;
  average: number;
  max: number;
}

/** autocannon's latencies and the run's p95, the mean to 0.1 ms. */
const latencyOf = (result: autocannon.Result, p95: number): LatencyMs => ({
  p50: result.latency.p50,
  p90: result.latency.p90,
  p95,
  p99: result.latency.p99,
  average: round1(result.latency.average),
  max: result.latency.max,
});

/**
 * One autocannon run: its result, the p95 of its answers' latencies and its failed requests by
 * kind. autocannon's histogram has no p95, so every answer's latency is kept here: of the 2xx
 * answers only, as autocannon records them, nearest rank.
 */
async function measuredRun(options: autocannon.Options) {
  const latencies: number[] = [];
  const errorKinds: Record<string, number> = {};
  const result = await new Promise<autocannon.Result>((resolveRun, reject) => {
    const instance = autocannon(options, (error, finished) => (error ? reject(error) : resolveRun(finished)));
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
    });
    instance.on('reqError', (error: { code?: string; message?: string }) => {
      const kind = error.code ?? error.message ?? 'unknown';
      errorKinds[kind] = (errorKinds[kind] ?? 0) + 1;
    });
  });
  latencies.sort((a, b) => a - b);
  const p95 = latencies.length
    ? round1(latencies[Math.min(latencies.length - 1, Math.ceil(0.95 * latencies.length) - 1)]!)
    : 0;
  return { result, p95, errorKinds };
}

/** An endpoint's figures under load: whole requests per second, latencies, and the failures. */
export interface EndpointFigures {
  requestsPerSecond: number;
  requestsTotal: number;
  latencyMs: LatencyMs;
  errors: number;
  timeouts: number;
  non2xx: number;
}

/**
 * A warm-up run of `warmupSeconds` (JIT, connection pool, PGlite buffers), then the measured run
 * of `durationSeconds`: autocannon's result, and its figures.
 */
export async function warmedLoad(
  options: autocannon.Options,
  settings: { warmupSeconds: number; durationSeconds: number },
) {
  await autocannon({ ...options, duration: settings.warmupSeconds });
  const { result, p95 } = await measuredRun({ ...options, duration: settings.durationSeconds });
  const figures: EndpointFigures = {
    requestsPerSecond: Math.round(result.requests.average),
    requestsTotal: result.requests.total,
    latencyMs: latencyOf(result, p95),
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
  };
  return { result, figures };
}

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
  const { result, p95, errorKinds } = await measuredRun({ ...options, duration: load.durationSeconds });
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
    latencyMs: latencyOf(result, p95),
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
