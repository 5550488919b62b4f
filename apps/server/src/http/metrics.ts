import { timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { PoolStats } from '../db/client.ts';
import { access } from './access.ts';

/**
 * Prometheus metrics (prom-client), never public: served on a port of their own (METRICS_PORT)
 * and/or at `/metrics` on the main port to a bearer of METRICS_TOKEN. Names and labels follow
 * OpenTelemetry's HTTP and database-client semantic conventions as Prometheus spells them (dots
 * become underscores, the unit a suffix).
 */

/** OpenTelemetry's advice for `http.server.request.duration`, in seconds. */
export const httpDurationBuckets = [
  0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10,
];

/** The methods OpenTelemetry names as themselves; any other is `_OTHER` (no unbounded label values). */
const knownMethods = new Set([
  'CONNECT',
  'DELETE',
  'GET',
  'HEAD',
  'OPTIONS',
  'PATCH',
  'POST',
  'PUT',
  'TRACE',
]);
export const methodLabel = (method: string) => (knownMethods.has(method) ? method : '_OTHER');

/** What the subscription clock reports of each run (features/subscriptions/subscription-clock.ts). */
export interface ClockObserver {
  /** A run ended: how many events failed in it (each logged). */
  ran(failedEvents: number): void;
  /** A whole run failed (logged). */
  runFailed(): void;
}

export interface MetricsSources {
  /** Requests received and not yet answered (the lifecycle's count). */
  inFlight: () => number;
  pool?: () => PoolStats;
  /** The subscription events due now and not yet applied (a query, at each scrape). */
  clockBacklog?: () => Promise<number>;
}

export interface AppMetrics {
  registry: Registry;
  clock: ClockObserver;
}

export function createMetrics(sources: MetricsSources): AppMetrics {
  const registry = new Registry();
  // Process, heap, garbage collection and event loop delay (`nodejs_eventloop_lag_*` from
  // `monitorEventLoopDelay`).
  collectDefaultMetrics({ register: registry });

  new Histogram({
    name: 'http_server_request_duration_seconds',
    help: 'Duration of HTTP server requests (from the request received to the answer sent).',
    labelNames: ['http_request_method', 'http_route', 'http_response_status_code'] as const,
    buckets: httpDurationBuckets,
    registers: [registry],
  });
  new Gauge({
    name: 'http_server_active_requests',
    help: 'Requests received and not yet answered.',
    registers: [registry],
    collect() {
      this.set(sources.inFlight());
    },
  });

  if (sources.pool) {
    const pool = sources.pool;
    new Gauge({
      name: 'db_client_connection_count',
      help: 'Database connections open, by state (idle or used).',
      labelNames: ['db_client_connection_state'] as const,
      registers: [registry],
      collect() {
        const stats = pool();
        this.set({ db_client_connection_state: 'idle' }, stats.idle);
        this.set({ db_client_connection_state: 'used' }, stats.total - stats.idle);
      },
    });
    new Gauge({
      name: 'db_client_connection_pending_requests',
      help: 'Queries waiting for a database connection.',
      registers: [registry],
      collect() {
        this.set(pool().waiting);
      },
    });
    new Gauge({
      name: 'db_client_connection_max',
      help: 'Most database connections the pool opens (DATABASE_POOL_SIZE).',
      registers: [registry],
      collect() {
        this.set(pool().max);
      },
    });
  }

  if (sources.clockBacklog) {
    const backlog = sources.clockBacklog;
    new Gauge({
      name: 'dukkan_subscription_clock_backlog',
      help: 'Subscription events (trial, period and grace ends, warnings) due and not yet applied.',
      registers: [registry],
      async collect() {
        this.set(await backlog());
      },
    });
  }
  const runs = new Counter({
    name: 'dukkan_subscription_clock_runs_total',
    help: 'Runs of the subscription clock in this process, by outcome (ok or failed).',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const eventErrors = new Counter({
    name: 'dukkan_subscription_clock_event_errors_total',
    help: 'Subscription events the clock failed to apply (each tried again on the next run).',
    registers: [registry],
  });
  runs.inc({ outcome: 'ok' }, 0);
  runs.inc({ outcome: 'failed' }, 0);

  return {
    registry,
    clock: {
      ran(failedEvents) {
        runs.inc({ outcome: 'ok' });
        if (failedEvents > 0) eventErrors.inc(failedEvents);
      },
      runFailed() {
        runs.inc({ outcome: 'failed' });
      },
    },
  };
}

/**
 * Times every request: its method, its route's template (`/api/brands/:id`, never the path a
 * client typed; none when no route matched) and its status.
 */
export function registerRequestMetrics(app: FastifyInstance, metrics: AppMetrics) {
  const duration = metrics.registry.getSingleMetric('http_server_request_duration_seconds') as Histogram<
    'http_request_method' | 'http_route' | 'http_response_status_code'
  >;
  app.addHook('onResponse', async (request, reply) => {
    duration.observe(
      {
        http_request_method: methodLabel(request.method),
        http_route: request.routeOptions.url ?? '',
        http_response_status_code: reply.statusCode,
      },
      reply.elapsedTime / 1000,
    );
  });
}

/** Whether an `Authorization` header carries the token (compared in constant time). */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(/^Bearer (.+)$/i.exec(header ?? '')?.[1] ?? '');
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * `GET /metrics` on the main port for a bearer of the token; anyone else gets the same 404 as an
 * unknown path, so the route does not advertise itself.
 */
export function registerMetricsRoute(app: FastifyInstance, metrics: AppMetrics, token: string) {
  app.get('/metrics', { config: { access: access.public } }, async (request, reply) => {
    if (!bearerMatches(request.headers.authorization, token)) return reply.callNotFound();
    const text = await metrics.registry.metrics();
    return reply.type(metrics.registry.contentType).send(text);
  });
}

/** The metrics on a listener of their own (METRICS_PORT): any path answers them, only GET. */
export async function startMetricsServer(metrics: AppMetrics, host: string, port: number): Promise<Server> {
  const server = createServer((request, response) => {
    if (request.method !== 'GET') {
      response.writeHead(405, { allow: 'GET' }).end();
      return;
    }
    metrics.registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
      (error: unknown) => response.writeHead(500).end(String(error)),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}
