/**
 * `npm run test:reliability`: is the embedded database (PGlite) durable?
 *
 * ROUNDS times in a row, on one data folder: start the server (durability-server.ts), let CLIENTS
 * concurrent clients write five-row batches (one transaction each), `kill -9` the server at a
 * random moment 300–1500 ms into the writes, restart it and check that every acknowledged batch
 * has its five rows and no batch has one to four (a torn multi-row write). In some rounds a second
 * server (the product entry, main.ts) is started on the same folder while the first writes: it must
 * refuse quickly with the lock message, and the first must keep acknowledging writes.
 *
 * Environment: DURABILITY_ROUNDS (20), DURABILITY_CLIENTS (8), DURABILITY_SEED (random; printed so
 * a run can be repeated), DURABILITY_KEEP_DATA=1 keeps the data folder even when everything passed,
 * DURABILITY_FAULT=autocommit|ack-before-commit breaks the harness on purpose (the run must fail).
 * Ends with the line `N passed, N failed`; exit code 1 on any failure.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../test/helpers/free-port.ts';
import { seededRandom } from '../test/helpers/seeded-random.ts';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '../../..');
const harnessEntry = join(here, 'durability-server.ts');
const productEntry = resolve(here, '../src/main.ts');

const rounds = positiveIntFromEnv('DURABILITY_ROUNDS', 20);
const clientsPerRound = positiveIntFromEnv('DURABILITY_CLIENTS', 8);
const seed = positiveIntFromEnv('DURABILITY_SEED', Math.floor(Math.random() * 2 ** 31) + 1);
const rowsPerBatch = 5;
const killWindowMs = { min: 300, max: 1500 };
/** Rounds in which a second process tries to open the folder while the first one writes. */
const lockCheckRounds = new Set([1, Math.ceil(rounds / 2), rounds]);
const lockRefusalLimitMs = 10_000;
const startLimitMs = 60_000;
/** The whole run stops by itself, whatever happens. */
const watchdogMs = 10 * 60_000;

function positiveIntFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) {
    process.stderr.write(`${name} must be a positive integer (got "${raw}")\n`);
    process.exit(2);
  }
  return value;
}

// Seeded, so a failing run's kill moments can be replayed.
const random = seededRandom(seed);

const sleep = (ms: number) => new Promise<void>((resolveSleep) => setTimeout(resolveSleep, ms));

// ---------------------------------------------------------------------------------------------
// Checks and report

interface CheckResult {
  name: string;
  passed: boolean;
  detail: string;
}
const checks: CheckResult[] = [];

function record(name: string, passed: boolean, detail: string) {
  checks.push({ name, passed, detail });
  process.stdout.write(`${passed ? 'PASS' : 'FAIL'}  ${name}${detail ? ` — ${detail}` : ''}\n`);
}

// ---------------------------------------------------------------------------------------------
// Child processes

interface ServerProcess {
  child: ChildProcess;
  port: number;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  startedAt: number;
}

const liveChildren = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of liveChildren) child.kill('SIGKILL');
});

/** A clean environment: never the caller's DATABASE_URL (CI sets it for its PostgreSQL run). */
function childEnvironment(dataDir: string, port: number): NodeJS.ProcessEnv {
  const environment: NodeJS.ProcessEnv = {
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
  };
  for (const name of ['PATH', 'HOME', 'TMPDIR', 'LANG', 'DURABILITY_FAULT']) {
    if (process.env[name] !== undefined) environment[name] = process.env[name];
  }
  return environment;
}

/**
 * Node with tsx as an import hook, not the `tsx` command: the command runs the script in a
 * grandchild that a `kill -9` of the command would leave running (and holding the lock).
 */
function startProcess(entry: string, dataDir: string, port: number): ServerProcess {
  const startedAt = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: repoRoot,
    env: childEnvironment(dataDir, port),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  liveChildren.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolveExit) => {
    child.once('exit', (code, signal) => {
      liveChildren.delete(child);
      resolveExit({ code, signal });
    });
  });
  return { child, port, stdout: () => stdout, stderr: () => stderr, exited, startedAt };
}

/** Waits until `/api/health` answers 200; the time from spawn is the restart time. */
async function waitUntilHealthy(server: ServerProcess): Promise<number> {
  let exitedEarly = false;
  void server.exited.then(() => {
    exitedEarly = true;
  });
  const deadline = server.startedAt + startLimitMs;
  while (performance.now() < deadline) {
    if (exitedEarly) {
      throw new Error(
        `the server exited before it was ready:\n${server.stderr().trim() || server.stdout().trim()}`,
      );
    }
    try {
      const response = await fetch(`http://127.0.0.1:${server.port}/api/health`, {
        signal: AbortSignal.timeout(2000),
      });
      if (response.ok) return Math.round(performance.now() - server.startedAt);
    } catch {
      // not listening yet
    }
    await sleep(50);
  }
  server.child.kill('SIGKILL');
  throw new Error(`the server did not become healthy within ${startLimitMs} ms:\n${server.stderr().trim()}`);
}

function openMsOf(server: ServerProcess): number | undefined {
  const match = /openMs=(\d+)/.exec(server.stdout());
  return match ? Number(match[1]) : undefined;
}

// ---------------------------------------------------------------------------------------------
// Writers

interface Acknowledgements {
  /** client → acknowledged seqs */
  byClient: Map<number, number[]>;
  /** client → highest seq ever sent (acknowledged or not) */
  highestSent: Map<number, number>;
  total: number;
}

const acknowledged: Acknowledgements = { byClient: new Map(), highestSent: new Map(), total: 0 };
/** The round each client wrote in (client ids are round * 1000 + index). */
const roundOfClient = (client: number) => Math.floor(client / 1000);

interface WriteRun {
  stop: () => void;
  done: Promise<void>;
  acknowledgedCount: () => number;
  unexpected: string[];
}

/** Each client posts batch after batch (seq 1, 2, …) until stopped or the connection dies. */
function startWriters(port: number, round: number): WriteRun {
  let stopped = false;
  let acknowledgedCount = 0;
  const unexpected: string[] = [];
  const url = `http://127.0.0.1:${port}/api/__durability/batch`;
  const writers = Array.from({ length: clientsPerRound }, async (_, index) => {
    const client = round * 1000 + index;
    const acks: number[] = [];
    acknowledged.byClient.set(client, acks);
    for (let seq = 1; !stopped; seq++) {
      acknowledged.highestSent.set(client, seq);
      try {
        const response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ client, seq }),
          signal: AbortSignal.timeout(10_000),
        });
        await response.arrayBuffer();
        if (response.status === 200) {
          acks.push(seq);
          acknowledged.total++;
          acknowledgedCount++;
        } else if (!stopped) {
          unexpected.push(`client ${client} seq ${seq}: HTTP ${response.status}`);
        }
      } catch (error) {
        // After the kill every client ends here; before it, a failed request is worth reporting.
        if (!stopped) unexpected.push(`client ${client} seq ${seq}: ${(error as Error).message}`);
        return;
      }
    }
  });
  return {
    stop: () => {
      stopped = true;
    },
    done: Promise.all(writers).then(() => undefined),
    acknowledgedCount: () => acknowledgedCount,
    unexpected,
  };
}

// ---------------------------------------------------------------------------------------------
// Verification

interface Verification {
  rowsChecked: number;
  batchesPresent: number;
  /** acknowledged batches with fewer than five rows (0 = lost entirely) */
  lost: { client: number; seq: number; rows: number }[];
  /** any batch with 1 to 4 rows */
  torn: { client: number; seq: number; rows: number }[];
  /** batches present that were never sent, or with more rows than a batch has */
  phantom: { client: number; seq: number; rows: number }[];
}

async function verify(port: number): Promise<Verification> {
  const response = await fetch(`http://127.0.0.1:${port}/api/__durability/batches`, {
    signal: AbortSignal.timeout(30_000),
  });
  if (!response.ok) throw new Error(`GET /api/__durability/batches answered ${response.status}`);
  const body = (await response.json()) as {
    data: { batches: [number, number, number][]; totalRows: number };
  };
  const present = new Map<string, number>();
  const torn: Verification['torn'] = [];
  const phantom: Verification['phantom'] = [];
  for (const [client, seq, rows] of body.data.batches) {
    present.set(`${client}:${seq}`, rows);
    if (rows > 0 && rows < rowsPerBatch) torn.push({ client, seq, rows });
    if (rows > rowsPerBatch || seq > (acknowledged.highestSent.get(client) ?? 0))
      phantom.push({ client, seq, rows });
  }
  const lost: Verification['lost'] = [];
  for (const [client, seqs] of acknowledged.byClient) {
    for (const seq of seqs) {
      const rows = present.get(`${client}:${seq}`) ?? 0;
      if (rows !== rowsPerBatch) lost.push({ client, seq, rows });
    }
  }
  return { rowsChecked: body.data.totalRows, batchesPresent: present.size, lost, torn, phantom };
}

const describeBatch = (batch: { client: number; seq: number; rows: number }) =>
  `round ${roundOfClient(batch.client)} client ${batch.client % 1000} seq ${batch.seq} (${batch.rows}/${rowsPerBatch} rows)`;

/** Problems already reported, so one loss fails one round, not every round after it. */
const reported = new Set<string>();

function verificationCheck(
  round: number,
  result: Verification,
  acknowledgedInRound: number,
  unexpected: string[],
) {
  const fresh = (list: { client: number; seq: number; rows: number }[], kind: string) =>
    list.filter((batch) => {
      const key = `${kind}:${batch.client}:${batch.seq}:${batch.rows}`;
      if (reported.has(key)) return false;
      reported.add(key);
      return true;
    });
  const lost = fresh(result.lost, 'lost');
  const torn = fresh(result.torn, 'torn');
  const phantom = fresh(result.phantom, 'phantom');
  const problems: string[] = [];
  if (acknowledgedInRound === 0)
    problems.push('no batch was acknowledged before the kill (nothing was tested)');
  if (lost.length) {
    problems.push(
      `${lost.length} acknowledged batch(es) LOST or incomplete after restart: ${lost.slice(0, 10).map(describeBatch).join('; ')}${lost.length > 10 ? '; …' : ''}`,
    );
  }
  if (torn.length) {
    problems.push(
      `${torn.length} half-written batch(es): ${torn.slice(0, 10).map(describeBatch).join('; ')}${torn.length > 10 ? '; …' : ''}`,
    );
  }
  if (phantom.length)
    problems.push(
      `${phantom.length} unexpected batch(es): ${phantom.slice(0, 5).map(describeBatch).join('; ')}`,
    );
  if (unexpected.length) {
    problems.push(
      `${unexpected.length} write(s) failed before the kill: ${unexpected.slice(0, 3).join('; ')}`,
    );
  }
  record(
    `round ${round}: kill -9, restart, every acknowledged batch complete, no half-written batch`,
    problems.length === 0,
    problems.length
      ? problems.join(' | ')
      : `${acknowledgedInRound} acknowledged this round, ${acknowledged.total} in all intact; ${result.batchesPresent} batches / ${result.rowsChecked} rows checked`,
  );
}

// ---------------------------------------------------------------------------------------------
// Lock

interface LockOutcome {
  refusedMs: number;
  passed: boolean;
  detail: string;
}

/** Starts the product server on the same folder while `first` writes; it must refuse, and fast. */
async function checkLock(dataDir: string, first: ServerProcess, writes: WriteRun): Promise<LockOutcome> {
  const second = startProcess(productEntry, dataDir, await freePort());
  const outcome = await Promise.race([second.exited, sleep(lockRefusalLimitMs * 2).then(() => undefined)]);
  const refusedMs = Math.round(performance.now() - second.startedAt);
  const problems: string[] = [];
  if (!outcome) {
    second.child.kill('SIGKILL');
    await second.exited;
    problems.push(
      `the second process was still running after ${lockRefusalLimitMs * 2} ms (it was not refused)`,
    );
  } else {
    if (outcome.code === 0 || outcome.code === null)
      problems.push(`the second process exited with ${outcome.code ?? outcome.signal}`);
    if (!second.stderr().includes('in use by another Dukkan process')) {
      problems.push(
        `its stderr lacks the lock message: ${JSON.stringify(second.stderr().trim().slice(0, 300))}`,
      );
    }
    if (refusedMs > lockRefusalLimitMs)
      problems.push(`it took ${refusedMs} ms to refuse (limit ${lockRefusalLimitMs} ms)`);
  }
  const lockPath = join(dataDir, 'dukkan.lock');
  const holder = existsSync(lockPath) ? readFileSync(lockPath, 'utf8').trim() : '(no lock file)';
  if (holder !== String(first.child.pid))
    problems.push(`the lock file names ${holder}, not the first server (${first.child.pid})`);

  // The first server keeps acknowledging writes after the refusal.
  const before = writes.acknowledgedCount();
  const keptWorkingDeadline = performance.now() + 5000;
  while (writes.acknowledgedCount() <= before + clientsPerRound && performance.now() < keptWorkingDeadline)
    await sleep(20);
  const afterwards = writes.acknowledgedCount() - before;
  if (afterwards <= clientsPerRound)
    problems.push(`the first server acknowledged only ${afterwards} batches afterwards`);
  const health = await fetch(`http://127.0.0.1:${first.port}/api/health`).then(
    (response) => response.status,
    () => 0,
  );
  if (health !== 200) problems.push(`the first server's health answered ${health}`);

  const firstLine = second.stderr().trim().split('\n')[0] ?? '';
  return {
    refusedMs,
    passed: problems.length === 0,
    detail: problems.length
      ? problems.join(' | ')
      : `refused in ${refusedMs} ms, exit ${outcome?.code}, "${firstLine}"; first server acknowledged ${afterwards} more batches`,
  };
}

// ---------------------------------------------------------------------------------------------

function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? 0;
}

async function run() {
  const runStarted = performance.now();
  const dataDir = mkdtempSync(join(tmpdir(), 'dukkan-durability-'));
  process.stdout.write(
    `Embedded database durability: ${rounds} rounds, ${clientsPerRound} clients, ${rowsPerBatch} rows per batch, kill -9 at ${killWindowMs.min}–${killWindowMs.max} ms, seed ${seed}\nDATA_DIR ${dataDir}\n\n`,
  );

  const restartTimes: number[] = [];
  const openTimes: number[] = [];
  const killMoments: number[] = [];
  const lockTimes: number[] = [];
  let lastVerification: Verification | undefined;
  let aborted = false;

  let previous: { round: number; acknowledgedInRound: number; unexpected: string[] } | undefined;
  for (let round = 1; round <= rounds + 1; round++) {
    // Start (round 1) or restart after the previous round's kill.
    const server = startProcess(harnessEntry, dataDir, await freePort());
    let startMs: number;
    try {
      startMs = await waitUntilHealthy(server);
    } catch (error) {
      record(
        previous ? `round ${previous.round}: restart after kill -9` : 'first start',
        false,
        (error as Error).message,
      );
      aborted = true;
      break;
    }
    const openMs = openMsOf(server);
    if (previous) {
      restartTimes.push(startMs);
      if (openMs !== undefined) openTimes.push(openMs);
    }

    if (previous) {
      const result = await verify(server.port);
      lastVerification = result;
      verificationCheck(previous.round, result, previous.acknowledgedInRound, previous.unexpected);
    }

    if (round > rounds) {
      // Final restart: verified above; now a graceful stop must release the lock.
      server.child.kill('SIGTERM');
      const exit = await Promise.race([server.exited, sleep(15_000).then(() => undefined)]);
      const lockLeft = existsSync(join(dataDir, 'dukkan.lock'));
      if (!exit) server.child.kill('SIGKILL');
      record(
        'graceful stop (SIGTERM) after the last restart releases the lock',
        exit?.code === 0 && !lockLeft,
        exit
          ? `exit ${exit.code ?? exit.signal}, lock file ${lockLeft ? 'left behind' : 'removed'}`
          : 'did not stop in 15 s',
      );
      break;
    }

    const writes = startWriters(server.port, round);
    const killDelay = Math.round(killWindowMs.min + random() * (killWindowMs.max - killWindowMs.min));
    let killMoment = `${killDelay} ms into the writes`;
    if (lockCheckRounds.has(round)) {
      // The second process is started while the first writes; the kill comes after the check.
      const lock = await checkLock(dataDir, server, writes);
      lockTimes.push(lock.refusedMs);
      record(
        `round ${round}: a second process on the same DATA_DIR is refused, the first keeps working`,
        lock.passed,
        lock.detail,
      );
      killMoment = `${killDelay} ms after the lock check`;
    }
    await sleep(killDelay);
    writes.stop();
    server.child.kill('SIGKILL');
    await server.exited;
    await writes.done;
    killMoments.push(killDelay);
    process.stdout.write(
      `      round ${round}: started in ${startMs} ms${openMs === undefined ? '' : ` (database open + migrate ${openMs} ms)`}, killed ${killMoment} after ${writes.acknowledgedCount()} acknowledged batches\n`,
    );
    previous = { round, acknowledgedInRound: writes.acknowledgedCount(), unexpected: writes.unexpected };
  }

  const passed = checks.filter((check) => check.passed).length;
  const failed = checks.length - passed;
  const expectedChecks = rounds + lockCheckRounds.size + 1;
  const missing = aborted ? Math.max(0, expectedChecks - checks.length) : 0;

  process.stdout.write('\nSummary\n');
  process.stdout.write(`  rounds completed:        ${killMoments.length} of ${rounds} (seed ${seed})\n`);
  process.stdout.write(
    `  acknowledged batches:    ${acknowledged.total} (${acknowledged.total * rowsPerBatch} rows)\n`,
  );
  if (lastVerification) {
    process.stdout.write(
      `  last verification:       ${lastVerification.batchesPresent} batches, ${lastVerification.rowsChecked} rows; lost ${lastVerification.lost.length}, half-written ${lastVerification.torn.length}\n`,
    );
  }
  if (restartTimes.length) {
    process.stdout.write(
      `  restart to healthy:      median ${percentile(restartTimes, 0.5)} ms, max ${Math.max(...restartTimes)} ms (node + tsx + PGlite recovery + migrations)\n`,
    );
  }
  if (openTimes.length) {
    process.stdout.write(
      `  database open + migrate: median ${percentile(openTimes, 0.5)} ms, max ${Math.max(...openTimes)} ms\n`,
    );
  }
  if (killMoments.length) {
    process.stdout.write(
      `  kill moments:            ${Math.min(...killMoments)}–${Math.max(...killMoments)} ms into the writes\n`,
    );
  }
  process.stdout.write(
    `  lock check:              ${lockTimes.length} time(s), refused in ${lockTimes.join(', ')} ms (limit ${lockRefusalLimitMs} ms)\n`,
  );
  if (missing) process.stdout.write(`  ${missing} check(s) did not run because the run stopped early\n`);
  process.stdout.write(
    `  duration:                ${((performance.now() - runStarted) / 1000).toFixed(1)} s\n`,
  );

  const totalFailed = failed + missing;
  if (totalFailed === 0 && process.env.DURABILITY_KEEP_DATA !== '1') {
    rmSync(dataDir, { recursive: true, force: true });
  } else {
    process.stdout.write(`  data folder kept for inspection: ${dataDir}\n`);
  }
  if (totalFailed) {
    process.stdout.write('\nFailed:\n');
    for (const check of checks.filter((entry) => !entry.passed))
      process.stdout.write(`  - ${check.name}: ${check.detail}\n`);
  }
  process.stdout.write(`\n${passed} passed, ${totalFailed} failed\n`);
  process.exitCode = totalFailed ? 1 : 0;
}

const watchdog = setTimeout(() => {
  process.stderr.write(
    `The durability test did not finish within ${watchdogMs / 60_000} minutes; stopping.\n`,
  );
  process.stdout.write(
    `\n${checks.filter((check) => check.passed).length} passed, ${checks.filter((check) => !check.passed).length + 1} failed\n`,
  );
  process.exit(1);
}, watchdogMs);
watchdog.unref();

run().then(
  () => {
    clearTimeout(watchdog);
    process.exit(process.exitCode ?? 0);
  },
  (error: unknown) => {
    process.stderr.write(
      `The durability test crashed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.stdout.write(
      `\n${checks.filter((check) => check.passed).length} passed, ${checks.filter((check) => !check.passed).length + 1} failed\n`,
    );
    process.exit(1);
  },
);
