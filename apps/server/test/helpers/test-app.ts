import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { type Config, loadConfig } from '../../src/config.ts';
import type { Database, PoolStats } from '../../src/db/client.ts';
import type { ReadinessProbe } from '../../src/features/health/readiness.ts';
import type { CaptchaVerifier } from '../../src/platform/captcha/captcha.ts';
import type { Mailer, OutgoingMail } from '../../src/platform/mail/mailer.ts';
import type { Sleep } from '../../src/platform/rate-limit/rate-limiter.ts';
import { createTestDatabase, type TestDatabase } from './test-database.ts';

/** Keeps every mail in memory instead of sending it. */
export class MemoryMailer implements Mailer {
  readonly sent: OutgoingMail[] = [];
  async send(mail: OutgoingMail) {
    this.sent.push(mail);
  }
  close() {}
}

interface TestAppOptions {
  /** Extra environment for `loadConfig` (NODE_ENV is always `test`). */
  env?: Record<string, string>;
  /** Adjusts the parsed configuration, e.g. `config.rateLimits.perAddress.points = 3`. */
  configure?: (config: Config) => void;
  now?: () => Date;
  /** How the login slowdown waits; by default the delays are recorded in `sleeps` and not waited. */
  sleep?: Sleep;
  /** `'real'`: no override, the configured driver (SMTP or outbox) is used. */
  mailer?: Mailer | 'real';
  captcha?: CaptchaVerifier;
  /** Reuse another test app's database (it is then not closed by this app). */
  database?: TestDatabase;
  /** The production logger writes here (level `info` unless `env` sets LOG_LEVEL); none without it. */
  logStream?: NodeJS.WritableStream;
  /** Readiness probes beside the built-in ones. */
  probes?: ReadinessProbe[];
  /** The pool figures the metrics report (PostgreSQL's pool in production). */
  poolStats?: () => PoolStats;
}

export interface TestApp {
  app: FastifyInstance;
  db: Database;
  database: TestDatabase;
  config: Config;
  /** Mails captured by the in-memory mailer (empty with `mailer: 'real'`). */
  mails: OutgoingMail[];
  /** Every delay (ms) the login slowdown asked for, with the default `sleep`. */
  sleeps: number[];
  close(): Promise<void>;
}

/**
 * The app as `main.ts` builds it, on a database of its own, with an in-memory mailer, an easy
 * captcha and rate limits high enough that only the rate-limit tests meet them.
 */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'dukkan-test-'));
  // No subscription clock on a timer: tests run it with the `now` they choose (runSubscriptionClock).
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    LOG_LEVEL: options.logStream ? 'info' : 'silent',
    SUBSCRIPTION_CLOCK_SECONDS: '0',
    // No import event stream (204): the tests walking every route wait for each answer's end.
    // The stream's own tests open it (`import-events.test.ts`).
    IMPORT_EVENTS_SECONDS: '0',
    ...options.env,
  });
  config.captcha = { ...config.captcha, difficulty: 1000 };
  config.rateLimits = {
    perAddress: { points: 10_000, durationSeconds: 900 },
    perAccount: { points: 10_000, durationSeconds: 900 },
    accountSlowdown: { ...config.rateLimits.accountSlowdown, freeFailures: 10_000 },
    changePassword: { points: 10_000, durationSeconds: 900 },
  };
  options.configure?.(config);

  const database = options.database ?? (await createTestDatabase());
  const memoryMailer = new MemoryMailer();
  const sleeps: number[] = [];
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  try {
    app = await buildApp({
      config,
      db: database.db,
      mailer: options.mailer === 'real' ? undefined : (options.mailer ?? memoryMailer),
      captcha: options.captcha,
      now: options.now,
      sleep:
        options.sleep ??
        (async (ms) => {
          sleeps.push(ms);
        }),
      ...(options.logStream ? { logStream: options.logStream } : { logger: false }),
      probes: options.probes,
      poolStats: options.poolStats,
    });
    await app.ready();
  } catch (error) {
    // A start refused (a wrong setting, a listable bucket) leaves nothing behind: on PostgreSQL the
    // file's database would otherwise stay on the server after the run.
    await app?.close().catch(() => {});
    if (!options.database) await database.close();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }

  return {
    app,
    db: database.db,
    database,
    config,
    mails: memoryMailer.sent,
    sleeps,
    async close() {
      await app.close();
      if (!options.database) await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A test app (`createTestApp(options)`) for the file's tests, handed to `receive` before them and
 * closed after them.
 */
export function useTestApp(receive: (app: TestApp) => void, options?: TestAppOptions) {
  let app: TestApp | undefined;
  beforeAll(async () => {
    app = await createTestApp(options);
    receive(app);
  });
  afterAll(async () => {
    await app?.close();
  });
}
