import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { users } from '../src/db/schema/index.ts';
import { access } from '../src/http/access.ts';
import { api, createUser, login, sessionCookieFrom } from './helpers/api.ts';
import { MemoryMailer } from './helpers/test-app.ts';
import { createTestDatabase, type TestDatabase } from './helpers/test-database.ts';

/** The production logger (level info, default redaction), writing into memory instead of stdout. */
let app: FastifyInstance;
let database: TestDatabase;
let logged = '';

/** A stream that appends what is written to it to `sink`. */
function capture(sink: (text: string) => void) {
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => sink(chunk.toString('utf8')));
  return stream;
}

/** A value each failing query below is handed, as a name, a password hash or a token hash would be. */
const secret = 'argon2id-secret-hash-7f3a9c';

beforeAll(async () => {
  database = await createTestDatabase();
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'info' });
  app = await buildApp({
    config,
    db: database.db,
    mailer: new MemoryMailer(),
    logStream: capture((text) => {
      logged += text;
    }),
  });
  // Two statements that fail inside PostgreSQL with the secret among their parameters.
  app.get('/test/not-null', { config: { access: access.public } }, async () =>
    database.db.insert(users).values({ email: null as unknown as string, name: 'x', passwordHash: secret }),
  );
  app.get('/test/bad-cast', { config: { access: access.public } }, async () =>
    database.db.execute(sql`select ${secret}::uuid`),
  );
  await app.ready();
});

afterAll(async () => {
  await app.close();
  await database.close();
});

describe('logs never carry a password, token or cookie', () => {
  it('requests are logged, their secrets are not', async () => {
    const user = await createUser(database.db);
    const response = await api(app, {
      url: '/api/auth/login',
      body: { email: user.email, password: user.password },
    });
    const cookie = sessionCookieFrom(response);
    const sessionToken = cookie.split('=')[1]!;
    await api(app, { method: 'GET', url: '/api/auth/user', cookie });
    await api(app, {
      url: '/api/auth/reset-password',
      body: { password: 'Sesame#Open2', token: 'secret-reset-token-123' },
    });
    await api(app, { method: 'GET', url: '/api/auth/invite-status?token=secret-invite-token-456' });
    await login(app, user);

    expect(logged).toContain('/api/auth/login');
    expect(logged).toContain('/api/auth/user');
    expect(logged).not.toContain(user.password);
    expect(logged).not.toContain(sessionToken);
    expect(logged).not.toContain('secret-reset-token-123');
    expect(logged).not.toContain('secret-invite-token-456');
    expect(logged.toLowerCase()).not.toContain('set-cookie');
  });
});

describe('a failed query is logged by its code and message, never its parameters', () => {
  // A malformed value is the request's (400, a warning); a not-null violation is the server's (500).
  it.each([
    ['/test/not-null', '23502', 500, 'unhandled error'],
    ['/test/bad-cast', '22P02', 400, 'database refused a value'],
  ])(
    '%s: %s answered %s, logged as "%s" with its SQLSTATE and without the value',
    async (url, code, status, message) => {
      logged = '';
      const response = await api(app, { method: 'GET', url });
      expect(response.status).toBe(status);
      expect((response.json as { error: { code: string } }).error.code).toBe(
        status === 500 ? 'INTERNAL' : 'VALIDATION',
      );
      expect(response.text).not.toContain(secret);
      const entry = logged
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { msg: string; err?: Record<string, unknown> })
        .find((line) => line.msg === message);
      expect(entry?.err).toMatchObject({ message: 'Failed query', cause: { code } });
      expect(logged).not.toContain(secret);
      expect(logged).not.toContain('params');
    },
  );
});

describe('mail in production', () => {
  async function startLog(env: Record<string, string>) {
    const dataDir = await mkdtemp(join(tmpdir(), 'dukkan-log-'));
    let text = '';
    const config = loadConfig({ NODE_ENV: 'production', LOG_LEVEL: 'info', DATA_DIR: dataDir, ...env });
    const production = await buildApp({
      config,
      db: database.db,
      logStream: capture((chunk) => {
        text += chunk;
      }),
    });
    await production.close();
    await rm(dataDir, { recursive: true, force: true });
    return text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { level: number; msg: string });
  }

  it('warns at start when NODE_ENV=production sends mail to the outbox (its links are live credentials)', async () => {
    const warnings = (await startLog({})).filter((line) => line.level === 40);
    expect(warnings.map((line) => line.msg)).toContainEqual(expect.stringMatching(/SMTP_URL is not set/));
  });

  it('no such warning with SMTP_URL', async () => {
    const lines = await startLog({ SMTP_URL: 'smtp://mail.invalid:587' });
    expect(lines.some((line) => /SMTP_URL is not set/.test(line.msg))).toBe(false);
  });
});
