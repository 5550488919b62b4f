import fastifyCookie from '@fastify/cookie';
import { getTableConfig } from 'drizzle-orm/pg-core';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { Redis } from 'ioredis';
import type { Config } from './config.ts';
import { getOrCreateSecret } from './db/app-meta.ts';
import { startAuditRetention } from './db/audit-retention.ts';
import { type Database, migrationsFolder, type PoolStats, postgresPoolOf } from './db/client.ts';
import { assertTablesExist, tableNamesOf } from './db/missing-tables.ts';
import * as schema from './db/schema/index.ts';
import { registerAccessRequestRoutes } from './features/access-requests/routes.ts';
import { registerApplicationRoutes } from './features/applications/routes.ts';
import { registerSignInReadingRoutes } from './features/audit/audit-log-reading.ts';
import { registerAuthRoutes } from './features/auth/routes.ts';
import { registerCaptchaRoutes } from './features/captcha/routes.ts';
import { registerFileRoutes } from './features/files/routes.ts';
import {
  databaseProbe,
  newestMigration,
  type ReadinessProbe,
  redisProbe,
} from './features/health/readiness.ts';
import { registerHealthRoutes } from './features/health/routes.ts';
import { isOidcUrl, oauthRefusal, registerOauthRoutes } from './features/oauth/routes.ts';
import { registerSubscriptionRoutes } from './features/subscriptions/routes.ts';
import {
  startSubscriptionClock,
  subscriptionClockBacklog,
} from './features/subscriptions/subscription-clock.ts';
import { registerInvitationRoutes } from './features/users/invitation-routes.ts';
import { registerWorkspaceUserRoutes } from './features/users/routes.ts';
import { registerGetStartedRoutes } from './features/workspaces/get-started.ts';
import { registerWorkspaceSettingsRoutes } from './features/workspaces/routes.ts';
import { requireDeclaredAccess } from './http/access.ts';
import { registerAccessGuard } from './http/access-guard.ts';
import { registerAuditActor } from './http/audit-actor.ts';
import type { AppContext } from './http/context.ts';
import { handleClientError, handleError } from './http/errors.ts';
import { createLifecycle, registerShutdown } from './http/lifecycle.ts';
import { loggedError } from './http/logged-error.ts';
import {
  type AppMetrics,
  createMetrics,
  registerMetricsRoute,
  registerRequestMetrics,
} from './http/metrics.ts';
import { registerOriginCheck } from './http/origin-check.ts';
import { registerRequestIdHeader, requestIdGenerator } from './http/request-id.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import { sessionCookieNameFor } from './http/sessions.ts';
import { findWebDist, registerSpa } from './http/spa.ts';
import {
  type CaptchaVerifier,
  createAltchaVerifier,
  createRecaptchaVerifier,
} from './platform/captcha/captcha.ts';
import { createMailer, type Mailer } from './platform/mail/mailer.ts';
import {
  chooseRateLimitStore,
  createRateLimiter,
  createSlowdown,
  describeRateLimitStore,
  type Sleep,
} from './platform/rate-limit/rate-limiter.ts';
import { fileStorePublicUrl } from './platform/storage/file-store.ts';
import { openFileStore } from './platform/storage/open-file-store.ts';
import { createImportJobEvents } from './resource-engine/import-events.ts';
import { createImportWorker } from './resource-engine/import-jobs.ts';
import { assertResourcesServed, registerResources } from './resource-engine/routes.ts';
import { createAppResources } from './resources.ts';

export interface BuildAppOptions {
  config: Config;
  db: Database;
  /** Replaces the configured mail driver (tests). */
  mailer?: Mailer;
  captcha?: CaptchaVerifier;
  now?: () => Date;
  /** How the login slowdown waits (tests record the delay instead of waiting). */
  sleep?: Sleep;
  /** Replaces the whole logger configuration (tests pass `false`). */
  logger?: FastifyServerOptions['logger'];
  /** Where the default logger writes (stdout when absent): lets a test read what is logged. */
  logStream?: NodeJS.WritableStream;
  /** The PostgreSQL pool's figures, for the metrics (the embedded database has no pool). */
  poolStats?: () => PoolStats;
  /**
   * More readiness probes beside the database, Redis and the file store (a cache's
   * `check()`), each answering within a second for `/readyz` to answer 200.
   */
  probes?: ReadinessProbe[];
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The Prometheus registry, when METRICS_PORT or METRICS_TOKEN is set (main.ts serves the port). */
    readonly metrics: AppMetrics | undefined;
  }
}

/** Never logged: credentials, cookies, tokens. */
const redactedPaths = [
  'req.headers.cookie',
  'req.headers.authorization',
  'res.headers["set-cookie"]',
  '*.password',
  '*.currentPassword',
  '*.newPassword',
  '*.token',
];

/** Query parameters that carry secrets are masked in logged URLs. */
function maskUrl(url: string): string {
  return url.replace(/([?&](?:token|code|password|access_token|refresh_token)=)[^&]*/gi, '$1[redacted]');
}

/**
 * A hop count as proxy-addr counts it: the nearest `hops` addresses are proxies, the one before
 * them is the client. Fastify no longer maps a number itself (it trusts nothing then).
 */
const trustHops = (hops: number) => (_address: string, hop: number) => hop < hops;

/** Builds the Fastify app (routes, plugins, drivers) without listening. */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, db } = options;
  const app = Fastify({
    logger: options.logger ?? {
      level: config.logLevel,
      redact: { paths: redactedPaths, censor: '[redacted]' },
      ...(options.logStream ? { stream: options.logStream } : {}),
      serializers: {
        req: (request) => ({ method: request.method, url: maskUrl(request.url), remoteAddress: request.ip }),
        err: loggedError,
      },
    },
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    // A UUID, or the X-Request-Id of a proxy TRUST_PROXY trusts (http/request-id.ts).
    genReqId: requestIdGenerator(config.trustProxy),
    bodyLimit: 1024 * 1024,
    // What the router and Node's HTTP parser refuse also answers in the contract's error shape
    // (OAuth's under the authorization server's `/oidc`).
    frameworkErrors: (error, request, reply) =>
      isOidcUrl(request.url) ? oauthRefusal(error, request, reply) : handleError(error, request, reply),
    clientErrorHandler: handleClientError,
    routerOptions: { ignoreDuplicateSlashes: true, ignoreTrailingSlash: true },
  });

  // First: a bucket that anyone may list stops the start before anything else is opened.
  const fileStore = await openFileStore(config.fileStore);
  app.decorate('fileStore', fileStore);
  const redis = config.redisUrl
    ? new Redis(config.redisUrl, { lazyConnect: false, maxRetriesPerRequest: 2 })
    : undefined;
  // Counted where every instance sees the same counts: one limit, however many instances.
  const store = chooseRateLimitStore(redis, postgresPoolOf(db));
  app.log.info({ rateLimitStore: store.kind }, describeRateLimitStore(store));
  const limiterPair = (name: string) => ({
    perAddress: createRateLimiter(`${name}:address`, config.rateLimits.perAddress, store),
    perAccount: createRateLimiter(`${name}:account`, config.rateLimits.perAccount, store),
  });

  const now = options.now ?? (() => new Date());
  const resources = createAppResources(now);
  // One catalog query: a table of db/schema or of a served resource that no migration made stops
  // the start here, by name, instead of a 500 on the first request that reads it.
  await assertTablesExist(db, [
    ...new Set([
      ...tableNamesOf(schema),
      ...resources.served.map((data) => getTableConfig(data.storage.table).name),
    ]),
  ]);

  const captcha =
    options.captcha ??
    (config.captcha.recaptcha
      ? createRecaptchaVerifier(db, config.captcha.recaptcha)
      : createAltchaVerifier(db, await getOrCreateSecret(db, 'captcha_hmac_key'), config.captcha.difficulty));

  const mailer =
    options.mailer ??
    createMailer({
      from: config.mailFrom,
      smtpUrl: config.smtpUrl,
      outboxDir: config.outboxDir,
      production: config.env === 'production',
      log: app.log,
    });

  const lifecycle = createLifecycle();
  const context: AppContext = {
    config,
    db,
    lifecycle,
    mailer,
    captcha,
    fileStore,
    rateLimits: {
      login: {
        perAddress: createRateLimiter('login:address', config.rateLimits.perAddress, store),
        perAccountAddress: createRateLimiter('login:account-address', config.rateLimits.perAccount, store),
        perAccount: createSlowdown('login:account', config.rateLimits.accountSlowdown, store, options.sleep),
      },
      forgotPassword: limiterPair('forgot-password'),
      requestAccess: limiterPair('request-access'),
      changePassword: createRateLimiter('change-password', config.rateLimits.changePassword, store),
      secondFactor: limiterPair('second-factor'),
    },
    now,
  };

  app.setErrorHandler(handleError);
  registerRequestIdHeader(app);
  registerShutdown(app, lifecycle, config.shutdown);
  const metrics =
    config.metrics.port !== undefined || config.metrics.token !== undefined
      ? createMetrics({
          inFlight: () => lifecycle.inFlight,
          pool: options.poolStats,
          clockBacklog:
            config.subscriptions.clockIntervalMs > 0 ? () => subscriptionClockBacklog(db, now()) : undefined,
        })
      : undefined;
  app.decorate('metrics', { getter: () => metrics });
  if (metrics) registerRequestMetrics(app, metrics);
  if (metrics && config.metrics.token) registerMetricsRoute(app, metrics, config.metrics.token);
  requireDeclaredAccess(app);
  const webDist = findWebDist(config.webDistDir);
  await registerSecurityHeaders(app, {
    publicUrl: config.publicUrl,
    captchaProvider: config.captcha.recaptcha ? 'recaptcha' : 'altcha',
    fileStoreUrl: fileStorePublicUrl(config),
    webDist,
  });
  await app.register(fastifyCookie);
  registerOriginCheck(app, config.publicUrl);
  registerAccessGuard(app, context);
  registerAuditActor(app);

  // What /readyz checks on each request; a driver with a `check()` of its own joins through `probes`.
  const probes: ReadinessProbe[] = [
    databaseProbe(db, await newestMigration(migrationsFolder())),
    ...(redis ? [redisProbe(redis)] : []),
    // The uploads folder or the bucket (a HeadBucket), whichever holds the files.
    { name: 'storage', check: () => fileStore.check() },
    ...(options.probes ?? []),
  ];
  registerHealthRoutes(app, context, probes);
  registerCaptchaRoutes(app, context);
  registerAuthRoutes(app, context);
  registerAccessRequestRoutes(app, context);
  registerInvitationRoutes(app, context);
  registerWorkspaceUserRoutes(app, context, resources.data('workspaceUsers'));
  registerWorkspaceSettingsRoutes(app, context);
  registerGetStartedRoutes(app, context);
  registerApplicationRoutes(app, context);
  registerSubscriptionRoutes(app, context);
  registerSignInReadingRoutes(app, context);
  await registerOauthRoutes(app, context, { webDist });
  // Imports run as jobs that any process's worker claims (decision 0042); the worker pushes its
  // jobs' progress to the streams of their lists (decision 0052), ended when the drain begins.
  const importEvents = createImportJobEvents();
  lifecycle.whenClosing(() => importEvents.close());
  app.addHook('preClose', async () => importEvents.close());
  const importWorker = createImportWorker({
    db,
    store: fileStore,
    dataOf: (key) => resources.served.find((data) => data.storage.definition.key === key),
    now: context.now,
    log: app.log,
    embedded: postgresPoolOf(db) === undefined,
    events: importEvents,
  });
  app.decorate('importWorker', importWorker);
  app.decorate('importEvents', importEvents);
  registerResources(app, db, resources, {
    store: fileStore,
    worker: importWorker,
    now: context.now,
    events: importEvents,
    eventsMaxMs: config.importEventsMaxMs,
  });
  await registerFileRoutes(app, context, resources, importWorker);
  assertResourcesServed(app, resources);

  await registerSpa(app, webDist, sessionCookieNameFor(config.publicUrl));

  // Trials, periods and graces end on time, and warnings go out, whatever the traffic; several
  // instances may run it at once (each event applies once).
  const subscriptionClock =
    config.subscriptions.clockIntervalMs > 0
      ? startSubscriptionClock(
          {
            db,
            mailer,
            publicUrl: config.publicUrl,
            graceDays: config.subscriptions.graceDays,
            log: app.log,
          },
          config.subscriptions.clockIntervalMs,
          context.now,
          metrics?.clock,
        )
      : undefined;

  // Each workspace's changes are kept as long as its settings say, then purged in batches.
  const stopAuditRetention = startAuditRetention(db, context.now, app.log);

  // A job a process left running when it died is failed (nothing changed), then queued ones run.
  await importWorker.start();

  app.addHook('onClose', async () => {
    stopAuditRetention();
    await importWorker.stop();
    await subscriptionClock?.stop();
    mailer.close();
    redis?.disconnect();
    fileStore.close();
  });
  return app;
}
