import { resolve } from 'node:path';
import { z } from 'zod';

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
    TRUST_PROXY: z.enum(['true', 'false'], 'must be true or false').default('false'),
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
    WEB_DIST_DIR: z.string().optional(),
  })
  .refine((env) => Boolean(env.RECAPTCHA_SITE_KEY) === Boolean(env.RECAPTCHA_SECRET_KEY), {
    path: ['RECAPTCHA_SECRET_KEY'],
    message: 'RECAPTCHA_SITE_KEY and RECAPTCHA_SECRET_KEY must be set together',
  })
  .refine((env) => Boolean(env.BOOTSTRAP_ADMIN_EMAIL) === Boolean(env.BOOTSTRAP_ADMIN_PASSWORD), {
    path: ['BOOTSTRAP_ADMIN_PASSWORD'],
    message: 'BOOTSTRAP_ADMIN_EMAIL and BOOTSTRAP_ADMIN_PASSWORD must be set together',
  });

export interface RateLimitRule {
  points: number;
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
  trustProxy: boolean;
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
    /** Attempts per account (email) on each limited route. */
    perAccount: RateLimitRule;
  };
  webDistDir?: string;
  /** Uploaded files, served under `/files/`. */
  uploads: { dir: string; maxBytes: number };
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** A value as an error message may show it: secrets hidden, and the password of a URL masked. */
function showable(variable: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (/PASSWORD|SECRET/.test(variable)) return '[hidden]';
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
    trustProxy: env.TRUST_PROXY === 'true',
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
    },
    webDistDir: env.WEB_DIST_DIR ? resolve(env.WEB_DIST_DIR) : undefined,
    uploads: { dir: resolve(dataDir, 'uploads'), maxBytes: env.UPLOAD_MAX_BYTES },
  };
}
