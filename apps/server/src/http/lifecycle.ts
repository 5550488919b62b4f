import { Server as NetServer } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * Where the server is in its life: `serving`; `draining` once a stop was asked for (readiness
 * answers 503 so a load balancer stops sending, everything else is still served); `closing` once
 * the requests already sent are being finished (the listener still accepts until the traffic
 * stops, then closes).
 */
export type LifecycleState = 'serving' | 'draining' | 'closing';

export interface Lifecycle {
  readonly state: LifecycleState;
  /** Requests received and not yet answered (or abandoned by their client). */
  readonly inFlight: number;
}

type LifecycleRecord = { -readonly [K in keyof Lifecycle]: Lifecycle[K] };

export interface ShutdownSettings {
  /** How long readiness answers 503, everything served as usual, before the drain begins. */
  delayMs: number;
  /** How long the drain may take before the connections still running are cut. */
  drainMs: number;
  /**
   * How long, at most, the listener stays open during the drain while connections keep arriving
   * (it closes as soon as a quiet spell passes with none): the time a load balancer checking
   * readiness has to take the instance out.
   */
  listenMs: number;
}

export interface ShutdownReport {
  /** Requests still running when the drain limit cut their connections (0 on a clean stop). */
  cut: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Stops the server without dropping what it accepted: readiness 503 for the delay, then the
     * drain — every request served and told to close its connection, the listener open until no
     * connection or request arrived for a quiet spell (or `listenMs`), in-flight requests finished
     * (within the drain limit), idle connections closed — and only then the `onClose` hooks (the
     * database). A second call skips what is left of the delay (a second Ctrl-C) and resolves
     * with the first.
     */
    shutdown(): Promise<ShutdownReport>;
    readonly lifecycle: Lifecycle;
  }
}

/** Creates the lifecycle the health route reads; `registerShutdown` moves it along. */
export function createLifecycle(): LifecycleRecord {
  return { state: 'serving', inFlight: 0 };
}

/** How long the drain waits for no new connection and no new request before it stops listening. */
const quietSpellMs = 100;

export function registerShutdown(
  app: FastifyInstance,
  lifecycle: LifecycleRecord,
  settings: ShutdownSettings,
) {
  const settled: Array<() => void> = [];
  // Every connection accepted and every request received, for the quiet spell the drain waits for.
  let arrivals = 0;
  app.server.on('connection', () => {
    arrivals += 1;
  });
  app.addHook('onRequest', async (_request, reply) => {
    arrivals += 1;
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
  const timer = <T>(ms: number, value: T) =>
    new Promise<T>((resolve) => setTimeout(resolve, ms, value).unref());
  /**
   * Resolves once nothing is running and a quiet spell passed with no new connection and no new
   * request (or once `giveUp` is set): a client of a kept-alive connection may be writing its next
   * request as its last answer arrives, and a connection may be in the kernel's accept queue; both
   * are served (and told to close) before the drain counts as done.
   */
  async function quiet(giveUp: { now: boolean }): Promise<'quiet'> {
    let seen: number;
    do {
      await waitForInFlight();
      seen = arrivals;
      await pause(quietSpellMs);
    } while (!giveUp.now && (arrivals !== seen || lifecycle.inFlight > 0));
    return 'quiet';
  }

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
    app.log.info({ inFlight: lifecycle.inFlight }, 'stopping: finishing the requests sent');
    const server = app.server;
    const limit = timer(settings.drainMs, 'limit' as const);
    const giveUp = { now: false };

    // The listener stays open while connections keep arriving: closing a listening socket resets
    // every connection still in the kernel's accept queue — requests a client has already sent.
    // It closes once the traffic stopped (a quiet spell), or after `listenMs` under traffic that
    // never stops (a load balancer checking readiness has stopped sending by then).
    const listening = await Promise.race([
      quiet(giveUp),
      timer(Math.min(settings.listenMs, settings.drainMs), 'listen-limit' as const),
      limit,
    ]);
    // The listener only (its 'close' comes once the last connection ends, awaited by app.close):
    // `http.Server#close` would also drop the connections it deems idle, including those whose
    // request is already in the socket buffer, unread — a reset for a request that was sent.
    if (server.listening) NetServer.prototype.close.call(server);
    app.log.info({ inFlight: lifecycle.inFlight, after: listening }, 'stopping: no new connections');

    let cut = 0;
    const drained = listening === 'quiet' ? 'quiet' : await Promise.race([quiet(giveUp), limit]);
    giveUp.now = true;
    if (drained === 'limit') {
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
