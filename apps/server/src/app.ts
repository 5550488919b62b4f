import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { Redis } from 'ioredis';
import type { Config } from './config.ts';
import { getOrCreateSecret } from './db/app-meta.ts';
import type { Database } from './db/client.ts';
import { registerAccessRequestRoutes } from './features/access-requests/routes.ts';
import { registerAuthRoutes } from './features/auth/routes.ts';
import { registerCaptchaRoutes } from './features/captcha/routes.ts';
import { registerFileRoutes } from './features/files/routes.ts';
import { registerHealthRoutes } from './features/health/routes.ts';
import { registerInvitationRoutes } from './features/users/invitation-routes.ts';
import { registerWorkspaceUserRoutes } from './features/users/routes.ts';
import { requireDeclaredAccess } from './http/access.ts';
import { registerAccessGuard } from './http/access-guard.ts';
import type { AppContext } from './http/context.ts';
import { handleError } from './http/errors.ts';
import { registerOriginCheck } from './http/origin-check.ts';
import { findWebDist, registerSpa } from './http/spa.ts';
import {
  type CaptchaVerifier,
  createAltchaVerifier,
  createRecaptchaVerifier,
} from './platform/captcha/captcha.ts';
import { createMailer, type Mailer } from './platform/mail/mailer.ts';
import { createRateLimiter, type RateLimitStore } from './platform/rate-limit/rate-limiter.ts';
import { assertResourcesServed, registerResources } from './resource-engine/routes.ts';
import { createAppResources } from './resources.ts';

export interface BuildAppOptions {
  config: Config;
  db: Database;
  /** Replaces the configured mail driver (tests). */
  mailer?: Mailer;
  captcha?: CaptchaVerifier;
  now?: () => Date;
  /** Replaces the whole logger configuration (tests pass `false`). */
  logger?: FastifyServerOptions['logger'];
  /** Where the default logger writes (stdout when absent): lets a test read what is logged. */
  logStream?: NodeJS.WritableStream;
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
      },
    },
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    routerOptions: { ignoreDuplicateSlashes: true, ignoreTrailingSlash: true },
  });

  const redis = config.redisUrl
    ? new Redis(config.redisUrl, { lazyConnect: false, maxRetriesPerRequest: 2 })
    : undefined;
  const store: RateLimitStore = redis ? { kind: 'redis', client: redis } : { kind: 'memory' };
  const limiterPair = (name: string) => ({
    perAddress: createRateLimiter(`${name}:address`, config.rateLimits.perAddress, store),
    perAccount: createRateLimiter(`${name}:account`, config.rateLimits.perAccount, store),
  });

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
      log: app.log,
    });

  const context: AppContext = {
    config,
    db,
    mailer,
    captcha,
    rateLimits: {
      login: limiterPair('login'),
      forgotPassword: limiterPair('forgot-password'),
      requestAccess: limiterPair('request-access'),
    },
    now: options.now ?? (() => new Date()),
  };

  app.setErrorHandler(handleError);
  requireDeclaredAccess(app);
  await app.register(fastifyCookie);
  registerOriginCheck(app, config.publicUrl);
  registerAccessGuard(app, context);

  registerHealthRoutes(app, context);
  registerCaptchaRoutes(app, context);
  registerAuthRoutes(app, context);
  registerAccessRequestRoutes(app, context);
  registerInvitationRoutes(app, context);
  registerWorkspaceUserRoutes(app, context);
  const resources = createAppResources(context.now);
  registerResources(app, db, resources);
  await registerFileRoutes(app, context);
  assertResourcesServed(app, resources);

  await registerSpa(app, findWebDist(config.webDistDir));

  app.addHook('onClose', async () => {
    mailer.close();
    redis?.disconnect();
  });
  return app;
}
