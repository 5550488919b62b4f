import { Server as NetServer } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * Where the server is in its life: `serving`; `draining` once a stop was asked for (health
 * answers 503 so a load balancer stops sending, everything else is still served); `closing` once
 * the listener is closed and the requests already received are being finished.
 */
export type LifecycleState = 'serving' | 'draining' | 'closing';

export interface Lifecycle {
  readonly state: LifecycleState;
  /** Requests received and not yet answered (or abandoned by their client). */
  readonly inFlight: number;
}

type LifecycleRecord = { -readonly [K in keyof Lifecycle]: Lifecycle[K] };

export interface ShutdownSettings {
  /** How long health answers 503 before the listener closes. */
  delayMs: number;
  /** How long the requests already received get to finish before their connections are cut. */
  drainMs: number;
}

export interface ShutdownReport {
  /** Requests still running when the drain limit cut their connections (0 on a clean stop). */
  cut: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Stops the server without dropping what it accepted: health 503 for the delay, then no new
     * connections, in-flight requests finished (within the drain limit), idle connections closed,
     * and only then the `onClose` hooks (the database). A second call skips what is left of the
     * delay (a second Ctrl-C) and resolves with the first.
     */
    shutdown(): Promise<ShutdownReport>;
    readonly lifecycle: Lifecycle;
  }
}

/** Creates the lifecycle the health route reads; `registerShutdown` moves it along. */
export function createLifecycle(): LifecycleRecord {
  return { state: 'serving', inFlight: 0 };
}

/** How long the drain waits for no new request before it closes the idle connections. */
const quietSpellMs = 100;

export function registerShutdown(
  app: FastifyInstance,
  lifecycle: LifecycleRecord,
  settings: ShutdownSettings,
) {
  const settled: Array<() => void> = [];
  // Every request received, for the quiet spell the drain waits for.
  let received = 0;
  app.addHook('onRequest', async (_request, reply) => {
    received += 1;
    lifecycle.inFlight += 1;
    // The answer's 'close' comes once it is sent, or when the client gave up first.
    reply.raw.once('close', () => {
      lifecycle.inFlight -= 1;
      if (lifecycle.inFlight === 0) for (const resolve of settled.splice(0)) resolve();
    });
  });
  // While closing, every answer tells its client to open a new connection next time (to a server
  // that is still up) instead of reusing this one.
  app.addHook('onSend', async (_request, reply) => {
    if (lifecycle.state === 'closing') void reply.header('connection', 'close');
  });

  let skipDelay: (() => void) | undefined;
  let stopping: Promise<ShutdownReport> | undefined;

  const waitForInFlight = () =>
    new Promise<void>((resolve) => {
      if (lifecycle.inFlight === 0) resolve();
      else settled.push(resolve);
    });
  const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

  async function stop(): Promise<ShutdownReport> {
    lifecycle.state = 'draining';
    app.log.info({ delayMs: settings.delayMs }, 'stopping: health answers 503');
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
    app.log.info(
      { inFlight: lifecycle.inFlight },
      'stopping: no new connections, finishing the requests received',
    );
    const server = app.server;
    // The listener only (its 'close' comes once the last connection ends, awaited by app.close):
    // `http.Server#close` would also drop the connections it deems idle, including those whose
    // request is already in the socket buffer, unread — a reset for a request that was sent.
    if (server.listening) NetServer.prototype.close.call(server);

    let cut = 0;
    const limit = new Promise<'limit'>((resolve) => setTimeout(resolve, settings.drainMs, 'limit').unref());
    // Drained once nothing is running and a quiet spell passed with no new request: a client of a
    // kept-alive connection may be writing its next request as its last answer arrives; it is
    // served (told to close), and only connections quiet for the whole spell are closed. (A request
    // sent at the very moment such a connection closes is the one race HTTP/1.1 leaves.)
    const drained = (async () => {
      let seen: number;
      do {
        await waitForInFlight();
        seen = received;
        await pause(quietSpellMs);
      } while (received !== seen || lifecycle.inFlight > 0);
      return 'drained' as const;
    })();
    if ((await Promise.race([drained, limit])) === 'limit') {
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
