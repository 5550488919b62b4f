import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { z } from 'zod';
import { ConfigError } from './config-error.ts';
import type { FileStoreConfig } from './platform/storage/open-file-store.ts';

const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

const integer = (min: number, max: number, fallback: number) =>
  z.coerce
    .number({ error: `must be a whole number from ${min} to ${max}` })
    .int(`must be a whole number from ${min} to ${max}`)
    .min(min, `must be a whole number from ${min} to ${max}`)
    .max(max, `must be a whole number from ${min} to ${max}`)
    .default(fallback);
const positiveInt = (fallback: number) => integer(1, 1_000_000, fallback);
const emailAddress = z.email('must be an email address');

/** proxy-addr's names for address ranges, accepted in a TRUST_PROXY list. */
const proxyRangeNames = new Set(['loopback', 'linklocal', 'uniquelocal']);
/**
 * An address, a CIDR range (`10.0.0.0/8`) or a range name, as proxy-addr (Fastify's `trustProxy`)
 * compiles it: what passes here never makes the app's construction throw.
 */
function isProxyAddress(entry: string): boolean {
  if (proxyRangeNames.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  // proxy-addr refuses a /0 prefix ("invalid range on address").
  return /^\d{1,3}$/.test(prefix) && Number(prefix) >= 1 && Number(prefix) <= (family === 4 ? 32 : 128);
}

/** A /0 range (`0.0.0.0/0`, `::/0`): every address, which trusts every hop as `true` would. */
function isEveryAddress(entry: string): boolean {
  const [address = '', prefix, ...rest] = entry.split('/');
  return isIP(address) !== 0 && rest.length === 0 && prefix !== undefined && /^0{1,3}$/.test(prefix);
}

/**
 * Which `X-Forwarded-For` hops are believed: `false` (none: the socket's address), a number of
 * proxies in front of the server (`1` for one reverse proxy), or the proxies' addresses. `true`
 * (every hop) is refused: a client would choose its own address by sending the header. So is a
 * /0 range (`0.0.0.0/0`), the same thing written as a range (and one proxy-addr cannot compile).
 */
const trustProxy = z
  .string()
  .trim()
  .default('false')
  .transform((value, context): false | number | string[] => {
    if (value === 'false') return false;
    if (/^\d{1,3}$/.test(value)) return Number(value) === 0 ? false : Number(value);
    const entries = value.split(',').map((entry) => entry.trim());
    const everyAddress = entries.find(isEveryAddress);
    if (value !== 'true' && !everyAddress && entries.every(isProxyAddress)) return entries;
    const everyHop = value === 'true' ? 'true' : everyAddress && `${everyAddress} (every address)`;
    context.addIssue({
      code: 'custom',
      message: everyHop
        ? `must be the number of proxies in front of the server (1 for one reverse proxy) or their addresses: ${everyHop} would trust any X-Forwarded-For a client sends`
        : 'must be false, a number of proxies (1 for one reverse proxy) or a comma-separated list of proxy addresses or CIDR ranges',
    });
    return z.NEVER;
  });

/**
 * Every environment variable the server reads, with its default. The README's configuration
 * table is this list; `loadConfig` refuses a wrong value with a line naming the variable.
 */
const environmentSchema = z
  .object({
    NODE_ENV: z
      .enum(['development', 'production', 'test'], 'must be development, production or test')
      .default('production'),
    HOST: z.string().default('0.0.0.0'),
    PORT: integer(0, 65535, 3000),
    PUBLIC_URL: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
    DATA_DIR: z.string().default('./data'),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
      .optional(),
    DATABASE_POOL_SIZE: positiveInt(10),
    LOG_LEVEL: z
      .enum(
        ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
        'must be fatal, error, warn, info, debug, trace or silent',
      )
      .default('info'),
    TRUST_PROXY: trustProxy,
    SESSION_TTL_DAYS: positiveInt(30),
    BOOTSTRAP_ADMIN_EMAIL: emailAddress.optional(),
    BOOTSTRAP_ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').optional(),
    OPERATOR_EMAIL: emailAddress.default('operator@dukkan.localhost'),
    MAIL_FROM: z.string().default('Dukkan <no-reply@dukkan.localhost>'),
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
      .optional(),
    CAPTCHA_DIFFICULTY: integer(1000, 10_000_000, 50_000),
    RECAPTCHA_SITE_KEY: optionalText,
    RECAPTCHA_SECRET_KEY: optionalText,
    REDIS_URL: z
      .string()
      .regex(/^rediss?:\/\//, 'must start with redis:// or rediss://')
      .optional(),
    AUTH_RATE_LIMIT: positiveInt(30),
    UPLOAD_MAX_BYTES: integer(1024, 100_000_000, 5_000_000),
    UPLOAD_QUOTA_BYTES: integer(1_000_000, 10_000_000_000_000, 200_000_000),
    UPLOAD_GRACE_HOURS: integer(1, 8760, 24),
    UPLOAD_CLEANUP_SECONDS: integer(1, 86_400, 3600),
    IMPORT_EVENTS_SECONDS: integer(0, 86_400, 1800),
    S3_BUCKET: z
      .string()
      .regex(
        /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
        'must be a bucket name (3 to 63 lower-case letters, digits, dots and hyphens)',
      )
      .optional(),
    S3_ENDPOINT: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
    S3_REGION: z.string().default('us-east-1'),
    S3_FORCE_PATH_STYLE: z.enum(['true', 'false'], 'must be true or false').default('false'),
    AWS_ACCESS_KEY_ID: optionalText,
    AWS_SECRET_ACCESS_KEY: optionalText,
    AWS_SESSION_TOKEN: optionalText,
    WEB_DIST_DIR: z.string().optional(),
    SHUTDOWN_DELAY_SECONDS: integer(0, 300, 2),
    SUBSCRIPTION_GRACE_DAYS: integer(0, 365, 5),
    SUBSCRIPTION_CLOCK_SECONDS: integer(0, 86_400, 60),
    SUBSCRIPTION_REVIEW_HOURS: integer(0, 8760, 0),
    PAYMENT_PROVIDER: z
      .enum(['bank-transfer', 'stripe'], 'must be bank-transfer or stripe')
      .default('bank-transfer'),
    STRIPE_SECRET_KEY: z
      .string()
      .trim()
      .regex(/^(sk|rk)_(test|live)_\w+$/, 'must be a Stripe secret key (sk_live_…, sk_test_… or rk_…)')
      .optional(),
    STRIPE_WEBHOOK_SECRET: z
      .string()
      .trim()
      .regex(/^whsec_\w+$/, "must be the webhook endpoint's signing secret (whsec_…)")
      .optional(),
    STRIPE_API_URL: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
    METRICS_PORT: z.coerce
      .number({ error: 'must be a whole number from 1 to 65535' })
      .int('must be a whole number from 1 to 65535')
      .min(1, 'must be a whole number from 1 to 65535')
      .max(65535, 'must be a whole number from 1 to 65535')
      .optional(),
    METRICS_TOKEN: z
      .string()
      .trim()
      .regex(/^[\x21-\x7e]{32,}$/, 'must be at least 32 printable characters without spaces')
      .optional(),
  })
  .refine((env) => Boolean(env.RECAPTCHA_SITE_KEY) === Boolean(env.RECAPTCHA_SECRET_KEY), {
    path: ['RECAPTCHA_SECRET_KEY'],
    message: 'RECAPTCHA_SITE_KEY and RECAPTCHA_SECRET_KEY must be set together',
  })
  .refine((env) => env.S3_BUCKET !== undefined || env.S3_ENDPOINT === undefined, {
    path: ['S3_ENDPOINT'],
    message: 'is set without S3_BUCKET: set the bucket too, or neither (files then stay in DATA_DIR/uploads)',
  })
  .refine((env) => !env.S3_BUCKET || Boolean(env.AWS_ACCESS_KEY_ID) === Boolean(env.AWS_SECRET_ACCESS_KEY), {
    path: ['AWS_SECRET_ACCESS_KEY'],
    message: 'AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY must be set together',
  })
  .refine((env) => Boolean(env.BOOTSTRAP_ADMIN_EMAIL) === Boolean(env.BOOTSTRAP_ADMIN_PASSWORD), {
    path: ['BOOTSTRAP_ADMIN_PASSWORD'],
    message: 'BOOTSTRAP_ADMIN_EMAIL and BOOTSTRAP_ADMIN_PASSWORD must be set together',
  })
  .refine((env) => env.PAYMENT_PROVIDER !== 'stripe' || env.STRIPE_SECRET_KEY !== undefined, {
    path: ['STRIPE_SECRET_KEY'],
    message: 'must be set when PAYMENT_PROVIDER is stripe',
  })
  .refine((env) => env.PAYMENT_PROVIDER !== 'stripe' || env.STRIPE_WEBHOOK_SECRET !== undefined, {
    path: ['STRIPE_WEBHOOK_SECRET'],
    message: "must be set when PAYMENT_PROVIDER is stripe (the webhook endpoint's signing secret)",
  })
  .refine((env) => env.METRICS_PORT === undefined || env.METRICS_PORT !== env.PORT, {
    path: ['METRICS_PORT'],
    message: 'must differ from PORT (the metrics are not served on the public port without METRICS_TOKEN)',
  });

export interface RateLimitRule {
  points: number;
  durationSeconds: number;
}

/** A growing delay instead of a refusal: none for the first failures, then doubling up to a cap. */
export interface SlowdownRule {
  freeFailures: number;
  firstDelayMs: number;
  maxDelayMs: number;
  durationSeconds: number;
}

export interface Config {
  env: 'development' | 'production' | 'test';
  host: string;
  port: number;
  publicUrl: string;
  dataDir: string;
  database: { kind: 'postgres'; url: string; poolSize: number } | { kind: 'pglite'; dataDir?: string };
  logLevel: string;
  /** Fastify's `trustProxy`: false, a hop count, or the proxies' addresses and ranges. */
  trustProxy: false | number | string[];
  sessionTtlDays: number;
  bootstrapAdmin?: { email: string; password: string };
  operatorEmail: string;
  mailFrom: string;
  smtpUrl?: string;
  /** Where mail goes when no SMTP_URL is set. */
  outboxDir: string;
  captcha: { difficulty: number; recaptcha?: { siteKey: string; secretKey: string } };
  redisUrl?: string;
  rateLimits: {
    /** Attempts per client address on each limited route. */
    perAddress: RateLimitRule;
    /**
     * Attempts per account (email) on forgot-password and request-access; on login, per account
     * and client address (so that no one else can lock an account).
     */
    perAccount: RateLimitRule;
    /** Login failures per account from every address: they slow its sign-in down, never refuse it. */
    accountSlowdown: SlowdownRule;
    /** Wrong current passwords per account on change-password; the last one ends the session. */
    changePassword: RateLimitRule;
  };
  webDistDir?: string;
  /** Uploaded files, served under `/files/`. */
  uploads: {
    dir: string;
    maxBytes: number;
    /** What all of a workspace's uploads may add up to. */
    quotaBytes: number;
    /** How long an upload may stay without a record referring to it before it is removed. */
    graceMs: number;
    /** How often the clean-up looks for such uploads (one instance at a time does it). */
    cleanupIntervalMs: number;
  };
  /**
   * Where uploads and platform files are kept: `dir` above (the default), or an S3-compatible
   * bucket when S3_BUCKET is set (`platform/storage/`).
   */
  fileStore: FileStoreConfig;
  /**
   * On SIGTERM: how long readiness answers 503 while everything else is still served (for a load
   * balancer to notice), then how long the drain may take before the rest is cut (`http/lifecycle.ts`).
   */
  shutdown: { delayMs: number; drainMs: number };
  /**
   * How long an import's event stream (`GET {resource}/import-jobs/events`, decision 0052) stays
   * open at most before the browser opens it again; 0: no stream (answered 204), the page polls.
   */
  importEventsMaxMs: number;
  subscriptions: {
    /** How long a subscription whose period ended unpaid stays approved, waiting for the payment. */
    graceDays: number;
    /** How often the subscription clock runs (trial, period and grace ends, warnings); 0: never. */
    clockIntervalMs: number;
    /** Within how many hours the operator reviews a subscription request, as the dashboard says it; null: not said. */
    reviewHours: number | null;
  };
  /**
   * How workspaces pay their invoices (`platform/payments/`): by bank transfer, recorded by the
   * operator (the default), or through Stripe's hosted checkout, whose signed webhook settles them.
   */
  payments: PaymentsConfig;
  /**
   * Prometheus metrics: on a listener of their own (`port`, on HOST), and/or at `/metrics` on the
   * main port for a bearer of `token`; neither set: no metrics at all.
   */
  metrics: { port?: number; token?: string };
}

/** Where the Stripe SDK sends its calls: Stripe's API, or another address (STRIPE_API_URL, a local stand-in). */
export interface StripeApiAddress {
  host: string;
  port: number;
  protocol: 'http' | 'https';
}

export type PaymentsConfig =
  | { provider: 'bank-transfer' }
  | { provider: 'stripe'; secretKey: string; webhookSecret: string; api?: StripeApiAddress };

export { ConfigError };

/** A value as an error message may show it: secrets hidden, and the password of a URL masked. */
function showable(variable: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (/PASSWORD|SECRET|TOKEN/.test(variable)) return '[hidden]';
  return value.replace(/(\/\/[^/@:]*):[^/@]*@/, '$1:***@');
}

/** Parses the environment; throws a `ConfigError` whose message is one line naming the variable. */
export function loadConfig(environment: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable (`PORT=` in an env file) means "not set": it must not become port 0.
  const present = Object.fromEntries(Object.entries(environment).filter(([, value]) => value?.trim() !== ''));
  const parsed = environmentSchema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const variable = String(issue?.path[0] ?? 'environment');
    const given = showable(variable, present[variable]);
    throw new ConfigError(
      `Invalid configuration: ${variable} ${issue?.message ?? 'is invalid'}${given === undefined ? '' : ` (got "${given}")`}`,
    );
  }
  const env = parsed.data;
  const dataDir = resolve(env.DATA_DIR);
  return {
    env: env.NODE_ENV,
    host: env.HOST,
    port: env.PORT,
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ''),
    dataDir,
    database: env.DATABASE_URL
      ? { kind: 'postgres', url: env.DATABASE_URL, poolSize: env.DATABASE_POOL_SIZE }
      : { kind: 'pglite', dataDir },
    logLevel: env.LOG_LEVEL,
    trustProxy: env.TRUST_PROXY,
    sessionTtlDays: env.SESSION_TTL_DAYS,
    bootstrapAdmin:
      env.BOOTSTRAP_ADMIN_EMAIL && env.BOOTSTRAP_ADMIN_PASSWORD
        ? { email: env.BOOTSTRAP_ADMIN_EMAIL.toLowerCase(), password: env.BOOTSTRAP_ADMIN_PASSWORD }
        : undefined,
    operatorEmail: env.OPERATOR_EMAIL,
    mailFrom: env.MAIL_FROM,
    smtpUrl: env.SMTP_URL,
    outboxDir: resolve(dataDir, 'outbox'),
    captcha: {
      difficulty: env.CAPTCHA_DIFFICULTY,
      recaptcha:
        env.RECAPTCHA_SITE_KEY && env.RECAPTCHA_SECRET_KEY
          ? { siteKey: env.RECAPTCHA_SITE_KEY, secretKey: env.RECAPTCHA_SECRET_KEY }
          : undefined,
    },
    redisUrl: env.REDIS_URL,
    rateLimits: {
      perAddress: { points: env.AUTH_RATE_LIMIT, durationSeconds: 15 * 60 },
      perAccount: { points: 10, durationSeconds: 15 * 60 },
      accountSlowdown: { freeFailures: 5, firstDelayMs: 250, maxDelayMs: 2000, durationSeconds: 15 * 60 },
      changePassword: { points: 5, durationSeconds: 15 * 60 },
    },
    webDistDir: env.WEB_DIST_DIR ? resolve(env.WEB_DIST_DIR) : undefined,
    uploads: {
      dir: resolve(dataDir, 'uploads'),
      maxBytes: env.UPLOAD_MAX_BYTES,
      quotaBytes: env.UPLOAD_QUOTA_BYTES,
      graceMs: env.UPLOAD_GRACE_HOURS * 60 * 60 * 1000,
      cleanupIntervalMs: env.UPLOAD_CLEANUP_SECONDS * 1000,
    },
    fileStore: env.S3_BUCKET
      ? {
          kind: 's3',
          bucket: env.S3_BUCKET,
          endpoint: env.S3_ENDPOINT,
          region: env.S3_REGION,
          forcePathStyle: env.S3_FORCE_PATH_STYLE === 'true',
          credentials:
            env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY
              ? {
                  accessKeyId: env.AWS_ACCESS_KEY_ID,
                  secretAccessKey: env.AWS_SECRET_ACCESS_KEY,
                  ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}),
                }
              : undefined,
        }
      : { kind: 'local', dir: resolve(dataDir, 'uploads') },
    shutdown: { delayMs: env.SHUTDOWN_DELAY_SECONDS * 1000, drainMs: 10_000 },
    importEventsMaxMs: env.IMPORT_EVENTS_SECONDS * 1000,
    subscriptions: {
      graceDays: env.SUBSCRIPTION_GRACE_DAYS,
      clockIntervalMs: env.SUBSCRIPTION_CLOCK_SECONDS * 1000,
      reviewHours: env.SUBSCRIPTION_REVIEW_HOURS === 0 ? null : env.SUBSCRIPTION_REVIEW_HOURS,
    },
    payments:
      env.PAYMENT_PROVIDER === 'stripe'
        ? {
            provider: 'stripe',
            secretKey: env.STRIPE_SECRET_KEY!,
            webhookSecret: env.STRIPE_WEBHOOK_SECRET!,
            api: env.STRIPE_API_URL ? stripeApiAddress(env.STRIPE_API_URL) : undefined,
          }
        : { provider: 'bank-transfer' },
    metrics: { port: env.METRICS_PORT, token: env.METRICS_TOKEN },
  };
}

function stripeApiAddress(url: string): StripeApiAddress {
  const parsed = new URL(url);
  const protocol = parsed.protocol === 'http:' ? 'http' : 'https';
  return {
    host: parsed.hostname,
    port: parsed.port ? Number(parsed.port) : protocol === 'http' ? 80 : 443,
    protocol,
  };
}
