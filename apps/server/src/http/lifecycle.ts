import { Server as NetServer } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * Where the server is in its life: `serving`; `draining` once a stop was asked for (readiness
 * answers 503 so a load balancer stops sending, everything else is still served); `closing` once
 * the requests already sent are being finished (the listener closes as soon as it can without
 * resetting a connection its kernel accepted).
 */
export type LifecycleState = 'serving' | 'draining' | 'closing';

export interface Lifecycle {
  readonly state: LifecycleState;
  /** Requests received and not yet answered (or abandoned by their client). */
  readonly inFlight: number;
  /**
   * Registers what ends an answer that would otherwise run on (an import's event stream,
   * decision 0052): called once the drain begins, so the drain does not wait for it.
   */
  whenClosing(end: () => void): void;
}

type LifecycleRecord = { -readonly [K in keyof Lifecycle]: Lifecycle[K] } & {
  /** What `whenClosing` registered. */
  readonly closers: Array<() => void>;
};

export interface ShutdownSettings {
  /** How long readiness answers 503, everything served as usual, before the drain begins. */
  delayMs: number;
  /** How long the drain may take before the connections still running are cut. */
  drainMs: number;
}

export interface ShutdownReport {
  /** Requests still running when the drain limit cut their connections (0 on a clean stop). */
  cut: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Stops the server without dropping what it accepted: readiness 503 for the delay, then the
     * drain — new requests held while the running ones finish, the listener closed once nothing
     * runs and its accept queue is empty, the held requests run, every answer telling its client
     * to close the connection, idle connections closed (all within the drain limit) — and only
     * then the `onClose` hooks (the database). A second call skips what is left of the delay (a
     * second Ctrl-C) and resolves with the first.
     */
    shutdown(): Promise<ShutdownReport>;
    readonly lifecycle: Lifecycle;
  }
}

/** Creates the lifecycle the health route reads; `registerShutdown` moves it along. */
export function createLifecycle(): LifecycleRecord {
  const closers: Array<() => void> = [];
  return {
    state: 'serving',
    inFlight: 0,
    closers,
    whenClosing(end) {
      closers.push(end);
    },
  };
}

/**
 * How long the stop waits, once nothing runs, for the connections that arrived meanwhile to be
 * accepted before it closes the listener; and how long the drain waits for no new request on the
 * open connections before it closes the idle ones.
 */
const quietSpellMs = 100;

export function registerShutdown(
  app: FastifyInstance,
  lifecycle: LifecycleRecord,
  settings: ShutdownSettings,
) {
  const settled: Array<() => void> = [];
  const idle: Array<() => void> = [];
  // Every request received, for the quiet spell the drain waits for.
  let received = 0;
  // Requests past the gate and not yet answered.
  let running = 0;
  // While the listener closes, requests wait here before they run (see stop()).
  let gate: { passed: Promise<void>; open(): void } | undefined;

  app.addHook('onRequest', async (_request, reply) => {
    received += 1;
    lifecycle.inFlight += 1;
    let closed = false;
    let runs = false;
    // The answer's 'close' comes once it is sent, or when the client gave up first.
    reply.raw.once('close', () => {
      closed = true;
      lifecycle.inFlight -= 1;
      if (runs) running -= 1;
      if (running === 0) for (const resolve of idle.splice(0)) resolve();
      if (lifecycle.inFlight === 0) for (const resolve of settled.splice(0)) resolve();
    });
    if (gate) await gate.passed;
    if (!closed) {
      runs = true;
      running += 1;
    }
  });
  // While closing, every answer tells its client to open a new connection next time (to a server
  // that is still up) instead of reusing this one.
  app.addHook('onSend', async (_request, reply) => {
    if (lifecycle.state === 'closing') void reply.header('connection', 'close');
  });

  let skipDelay: (() => void) | undefined;
  let stopping: Promise<ShutdownReport> | undefined;

  const waitFor = (queue: Array<() => void>, done: () => boolean) =>
    new Promise<void>((resolve) => {
      if (done()) resolve();
      else queue.push(resolve);
    });
  const waitForInFlight = () => waitFor(settled, () => lifecycle.inFlight === 0);
  const waitForIdle = () => waitFor(idle, () => running === 0);
  const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

  async function stop(): Promise<ShutdownReport> {
    lifecycle.state = 'draining';
    app.log.info({ delayMs: settings.delayMs }, 'stopping: readiness answers 503');
    if (settings.delayMs > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, settings.delayMs);
        skipDelay = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }

    lifecycle.state = 'closing';
    // Answers that run until told to end (event streams) end now: their readers open them again
    // on an instance that is up, and the drain below waits only for requests that finish.
    for (const end of lifecycle.closers) end();
    app.log.info({ inFlight: lifecycle.inFlight }, 'stopping: finishing the requests sent');
    const server = app.server;
    const limit = new Promise<'limit'>((resolve) => setTimeout(resolve, settings.drainMs, 'limit').unref());

    // Closing a listening socket resets every connection still in the kernel's accept queue:
    // requests their clients have sent. The queue fills while the event loop is busy (a query of
    // the embedded database runs on it), and clients answered a moment ago come back on new
    // connections. So the listener stays open, and the requests that arrive wait at a gate, until
    // those already running are answered; then, with nothing running and so nothing answered,
    // clients stop coming back and the idle event loop accepts at once whatever arrives: after a
    // quiet spell the queue is empty when the listener closes. The requests held are then run
    // (the listener closed: a client told to close its connection finds no new one accepted here
    // and goes elsewhere, nothing sent).
    let gateOpen!: () => void;
    gate = {
      passed: new Promise<void>((resolve) => {
        gateOpen = resolve;
      }),
      open: () => gateOpen(),
    };
    let outcome = await Promise.race([waitForIdle().then(() => 'idle' as const), limit]);
    if (outcome === 'idle')
      outcome = await Promise.race([pause(quietSpellMs).then(() => 'idle' as const), limit]);
    // The listener only (its 'close' comes once the last connection ends, awaited by app.close):
    // `http.Server#close` would also drop the connections it deems idle, including those whose
    // request is already in the socket buffer, unread — a reset for a request that was sent.
    if (server.listening) NetServer.prototype.close.call(server);
    gate.open();
    gate = undefined;
    app.log.info({ inFlight: lifecycle.inFlight }, 'stopping: no new connections');

    let cut = 0;
    // Drained once nothing is running and a quiet spell passed with no new request: a client of a
    // kept-alive connection may be writing its next request as its last answer arrives; it is
    // served (told to close), and only connections quiet for the whole spell are closed. (A request
    // sent at the very moment such a connection closes is the one race HTTP/1.1 leaves.)
    if (outcome !== 'limit') {
      const drained = (async () => {
        let seen: number;
        do {
          await waitForInFlight();
          seen = received;
          await pause(quietSpellMs);
        } while (received !== seen || lifecycle.inFlight > 0);
        return 'drained' as const;
      })();
      outcome = (await Promise.race([drained, limit])) === 'limit' ? 'limit' : 'idle';
    }
    if (outcome === 'limit') {
      cut = lifecycle.inFlight;
      app.log.warn({ cut, drainMs: settings.drainMs }, 'stopping: drain limit reached, cutting connections');
      server.closeAllConnections();
    }
    server.closeIdleConnections();
    // Fastify closes what is left (the listener is already closed) and runs the onClose hooks.
    await app.close();
    app.log.info({ cut }, 'stopped');
    return { cut };
  }

  app.decorate('lifecycle', {
    getter: () => lifecycle as Lifecycle,
  });
  app.decorate('shutdown', () => {
    if (stopping) {
      skipDelay?.();
      return stopping;
    }
    stopping = stop();
    return stopping;
  });
}
