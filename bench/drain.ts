/**
 * Stopping under load: the built server (`apps/server/dist/main.js`) on a fresh embedded database,
 * 50 clients writing brands back to back — half reusing one kept-alive connection each, half
 * opening a new connection for every request — and a SIGTERM mid-stream, with the default
 * settings (no SHUTDOWN_DELAY_SECONDS). Repeated over 5 rounds, a new server and data folder each.
 *
 * What is counted is what a client sees of each request it sent around the stop:
 * - answered (with its status: a write that was sent must come back 201);
 * - reset (ECONNRESET, EPIPE, "socket hang up"): the request was sent and the server dropped it —
 *   the client cannot know whether it was written. The figure that must be 0;
 * - refused (ECONNREFUSED): a new connection after the server stopped listening; nothing was sent,
 *   a client or proxy may safely try elsewhere.
 *
 * Two ways of behaving after the signal (DRAIN_AFTER):
 * - `stop` (default): each client's request in flight at the signal is its last, as when a proxy
 *   sends the next requests elsewhere: 50 requests in flight per round;
 * - `continue`: clients keep sending until a new connection is refused (no proxy at all).
 *
 * Environment: DRAIN_ROUNDS (5), DRAIN_CLIENTS (50), DRAIN_WARMUP (3: answers every client gets
 * before the signal), DRAIN_AFTER (stop | continue), DRAIN_ENTRY (the server's entry, default the
 * build: `npm run build -w @dukkan/server` first), DRAIN_VARIABLES (extra server variables as
 * `A=1,B=2`, e.g. SHUTDOWN_DELAY_SECONDS=2).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { machineFacts } from './support/machine.ts';
import { repoRoot } from './support/paths.ts';
import { writeResult } from './support/results.ts';
import { intFromEnv, runAsScript } from './support/script.ts';
import { type RunningServer, sleep, startServer } from './support/server.ts';
import { signIn } from './support/sessions.ts';

const email = 'drain-admin@dukkan.localhost';
const password = 'Drain-Passw0rd!';

type Outcome = { kind: 'answered'; status: number } | { kind: 'reset' | 'refused' | 'other'; code: string };

interface RoundFigures {
  round: number;
  /** Requests sent before the signal and not answered when it was sent. */
  inFlightAtSignal: number;
  /** Of those: answered 2xx, answered otherwise, reset, refused, other failures. */
  inFlight: Record<'ok' | 'notOk' | 'reset' | 'refused' | 'other', number>;
  /** Requests sent after the signal (DRAIN_AFTER=continue), the same way. */
  afterSignal: Record<'ok' | 'notOk' | 'reset' | 'refused' | 'other', number>;
  /** Answers before the signal. */
  answeredBefore: number;
  exitCode: number | null;
  stopMs: number;
}

function classify(error: NodeJS.ErrnoException): Outcome {
  const code = error.code ?? error.message;
  if (code === 'ECONNREFUSED') return { kind: 'refused', code };
  if (code === 'ECONNRESET' || code === 'EPIPE' || error.message === 'socket hang up')
    return { kind: 'reset', code };
  return { kind: 'other', code };
}

/** One POST on the given agent (a kept-alive connection) or on a new connection (`false`). */
function post(url: URL, cookie: string, body: unknown, agent: Agent | false): Promise<Outcome> {
  return new Promise((resolve) => {
    const payload = JSON.stringify(body);
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), cookie },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ kind: 'answered', status: res.statusCode ?? 0 }));
        res.on('error', (error) => resolve(classify(error)));
      },
    );
    req.on('error', (error) => resolve(classify(error)));
    req.end(payload);
  });
}

const empty = () => ({ ok: 0, notOk: 0, reset: 0, refused: 0, other: 0 });

function tally(into: RoundFigures['inFlight'], outcome: Outcome) {
  if (outcome.kind === 'answered') {
    if (outcome.status >= 200 && outcome.status < 300) into.ok += 1;
    else into.notOk += 1;
  } else into[outcome.kind] += 1;
}

async function round(
  index: number,
  settings: {
    clients: number;
    warmup: number;
    after: 'stop' | 'continue';
    entry: string;
    extra: Record<string, string>;
  },
): Promise<RoundFigures> {
  const dataDir = mkdtempSync(join(tmpdir(), 'dukkan-drain-'));
  let server: RunningServer | undefined;
  try {
    server = await startServer(
      {
        DATA_DIR: dataDir,
        BOOTSTRAP_ADMIN_EMAIL: email,
        BOOTSTRAP_ADMIN_PASSWORD: password,
        SUBSCRIPTION_CLOCK_SECONDS: '0',
        ...settings.extra,
      },
      `drain round ${index}`,
      settings.entry,
    );
    const { cookie, body } = await signIn(server.url, email, password);
    const workspaceId = (JSON.parse(body) as { data: { adminWorkspaces: { id: string }[] } }).data
      .adminWorkspaces[0]?.id;
    if (!workspaceId) throw new Error('the admin has no workspace');
    const url = new URL(`${server.url}/api/brands?workspaceId=${workspaceId}`);

    const figures: RoundFigures = {
      round: index,
      inFlightAtSignal: 0,
      inFlight: empty(),
      afterSignal: empty(),
      answeredBefore: 0,
      exitCode: null,
      stopMs: 0,
    };
    let signalled = false;
    const answered = Array<number>(settings.clients).fill(0);
    let warmedUp!: () => void;
    const warm = new Promise<void>((resolve) => {
      warmedUp = resolve;
    });

    const client = async (id: number) => {
      // Even clients keep one connection alive; odd ones open a new connection for every request.
      const agent = id % 2 === 0 ? new Agent({ keepAlive: true, maxSockets: 1 }) : false;
      try {
        for (let n = 0; ; n++) {
          if (signalled && settings.after === 'stop') return;
          const sentAfterSignal = signalled;
          const outcome = await post(
            url,
            cookie,
            { code: `d${index}-${id}-${n}`, name: [{ locale: 'en', value: `Drain ${id} ${n}` }] },
            agent,
          );
          if (sentAfterSignal) tally(figures.afterSignal, outcome);
          else if (signalled) {
            figures.inFlightAtSignal += 1;
            tally(figures.inFlight, outcome);
          } else {
            figures.answeredBefore += 1;
            answered[id] = (answered[id] ?? 0) + 1;
            if (Math.min(...answered) >= settings.warmup) warmedUp();
          }
          if (outcome.kind !== 'answered') return;
        }
      } finally {
        if (agent) agent.destroy();
      }
    };
    const running = Array.from({ length: settings.clients }, (_, id) => client(id));
    await warm;
    signalled = true;
    const signalledAt = Date.now();
    process.kill(server.pid, 'SIGTERM');
    await Promise.all(running);
    figures.exitCode = await server.exitCode();
    figures.stopMs = Date.now() - signalledAt;
    return figures;
  } finally {
    if (server) await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const parseVariables = (text: string | undefined): Record<string, string> =>
  Object.fromEntries(
    (text ?? '')
      .split(',')
      .filter((pair) => pair.includes('='))
      .map((pair) => [pair.slice(0, pair.indexOf('=')).trim(), pair.slice(pair.indexOf('=') + 1).trim()]),
  );

export async function runDrainBench() {
  const entry = process.env.DRAIN_ENTRY ?? join(repoRoot, 'apps/server/dist/main.js');
  if (!existsSync(entry)) throw new Error(`${entry} is missing: npm run build -w @dukkan/server first`);
  const after = process.env.DRAIN_AFTER === 'continue' ? 'continue' : 'stop';
  const settings = {
    rounds: intFromEnv('DRAIN_ROUNDS', 5),
    clients: intFromEnv('DRAIN_CLIENTS', 50),
    warmup: intFromEnv('DRAIN_WARMUP', 3),
    after: after as 'stop' | 'continue',
    entry,
    extra: parseVariables(process.env.DRAIN_VARIABLES),
  };
  const rounds: RoundFigures[] = [];
  const machine = machineFacts();
  process.stdout.write(
    `drain: ${settings.rounds} rounds × ${settings.clients} clients, after the signal: ${settings.after} (${machine.cpus} × ${machine.cpuModel}, Node ${machine.node})\n`,
  );
  for (let index = 1; index <= settings.rounds; index++) {
    const figures = await round(index, settings);
    rounds.push(figures);
    process.stdout.write(
      `  round ${index}: in flight ${figures.inFlightAtSignal} → ok ${figures.inFlight.ok}, reset ${figures.inFlight.reset}, refused ${figures.inFlight.refused}, not ok ${figures.inFlight.notOk}, other ${figures.inFlight.other}; after the signal: ok ${figures.afterSignal.ok}, reset ${figures.afterSignal.reset}, refused ${figures.afterSignal.refused}; exit ${figures.exitCode} in ${figures.stopMs} ms\n`,
    );
    await sleep(500);
  }
  const sum = (pick: (figures: RoundFigures) => number) => rounds.reduce((total, r) => total + pick(r), 0);
  const totals = {
    inFlight: sum((r) => r.inFlightAtSignal),
    resets: sum((r) => r.inFlight.reset + r.afterSignal.reset),
    failed: sum((r) => r.inFlight.notOk + r.inFlight.other + r.afterSignal.notOk + r.afterSignal.other),
    refused: sum((r) => r.inFlight.refused + r.afterSignal.refused),
  };
  process.stdout.write(
    `total: ${totals.inFlight} in flight, ${totals.resets} reset, ${totals.failed} failed otherwise, ${totals.refused} refused (new connections after the listener closed)\n`,
  );
  writeResult(`drain-${settings.after}`, {
    machine,
    settings: { ...settings, entry: undefined },
    rounds,
    totals,
  });
  return { ok: totals.resets === 0 && totals.failed === 0 };
}

runAsScript(import.meta.url, runDrainBench);
