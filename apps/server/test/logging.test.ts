import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { api, createUser, login, sessionCookieFrom } from './helpers/api.ts';
import { MemoryMailer } from './helpers/test-app.ts';
import { createTestDatabase, type TestDatabase } from './helpers/test-database.ts';

/** The production logger (level info, default redaction), writing into memory instead of stdout. */
let app: FastifyInstance;
let database: TestDatabase;
let logged = '';

beforeAll(async () => {
  database = await createTestDatabase();
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => {
    logged += chunk.toString('utf8');
  });
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'info' });
  app = await buildApp({ config, db: database.db, mailer: new MemoryMailer(), logStream: stream });
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
