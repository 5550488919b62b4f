import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { maxBulkRows, validationCodes } from '@dukkan/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { users } from '../src/db/schema/index.ts';
import {
  type ApiResponse,
  api,
  createUser,
  errorOf,
  expectValidation,
  login,
  tableCounts,
} from './helpers/api.ts';
import { createTestApp, MemoryMailer, type TestApp } from './helpers/test-app.ts';
import { addMember, createRole, createWorkspace } from './helpers/workspaces.ts';

/**
 * Every POST/PATCH endpoint gets garbage: malformed JSON, bodies of the wrong shape, fields of
 * the wrong type and oversize strings. Each must answer 400 VALIDATION (never 500) and write nothing.
 */
let t: TestApp;
let cookie: string;
/** A workspace, its admin's session and two members: one with a role, one without. */
let shop: { id: string; admin: string; withRole: string; withoutRole: string };
let snapshot: { counts: Record<string, number>; users: unknown[] };

async function takeSnapshot() {
  return { counts: await tableCounts(t.db), users: await t.db.select().from(users).orderBy(users.email) };
}

beforeAll(async () => {
  t = await createTestApp();
  const user = await createUser(t.db, { email: 'owner@shop.example', name: 'Owner', phone: '0123456789' });
  cookie = await login(t.app, user);
  const workspace = await createWorkspace(t.db);
  const role = await createRole(t.db, workspace.id, []);
  const admin = await addMember(t.db, workspace.id, { isAdmin: true, tags: [] });
  const withRole = await addMember(t.db, workspace.id, { roleId: role.id });
  const withoutRole = await addMember(t.db, workspace.id);
  shop = {
    id: workspace.id,
    admin: admin.cookie,
    withRole: withRole.user.id,
    withoutRole: withoutRole.user.id,
  };
});
afterAll(async () => {
  // Nothing any test of this file sent was stored.
  if (snapshot) expect(await takeSnapshot()).toEqual(snapshot);
  await t?.close();
});
beforeEach(async () => {
  snapshot ??= await takeSnapshot();
  t.mails.length = 0;
});

interface Endpoint {
  method: 'POST' | 'PATCH';
  url: string;
  signedIn: boolean;
  /** A body that passes validation (it may still fail later, e.g. on the captcha). */
  valid: Record<string, unknown>;
  /** The string fields of the body. */
  fields: string[];
}

const endpoints: Endpoint[] = [
  {
    method: 'POST',
    url: '/api/auth/login',
    signedIn: false,
    valid: { email: 'owner@shop.example', password: 'Wrong#Pass1' },
    fields: ['email', 'password'],
  },
  {
    method: 'POST',
    url: '/api/auth/request-for-access',
    signedIn: false,
    valid: {
      name: 'Sara',
      email: 'sara@shop.example',
      phone: '+20 100 1234567',
      companyName: 'Sara Foods',
      companyWebsite: 'https://sara.example',
      businessCategory: 'food',
      howDidYouHearAboutUs: 'google',
      reCaptchaToken: 'unsolved',
      language: 'en',
    },
    fields: [
      'name',
      'email',
      'phone',
      'companyName',
      'companyWebsite',
      'businessCategory',
      'howDidYouHearAboutUs',
      'reCaptchaToken',
      'language',
    ],
  },
  {
    method: 'POST',
    url: '/api/auth/forgot-password',
    signedIn: false,
    valid: { email: 'owner@shop.example', reCaptchaToken: 'unsolved', language: 'en' },
    fields: ['email', 'reCaptchaToken', 'language'],
  },
  {
    method: 'POST',
    url: '/api/auth/reset-password',
    signedIn: false,
    valid: { password: 'Brand#New2025', token: 'not-a-real-token' },
    fields: ['password', 'token'],
  },
  {
    method: 'POST',
    url: '/api/auth/change-password',
    signedIn: true,
    valid: { currentPassword: 'Wrong#Pass1', newPassword: 'Brand#New2025' },
    fields: ['currentPassword', 'newPassword'],
  },
  {
    method: 'PATCH',
    url: '/api/auth/profile',
    signedIn: true,
    valid: { name: 'Owner', phone: '0123456789', language: 'en' },
    fields: ['name', 'phone', 'language'],
  },
];

function send(endpoint: Endpoint, body: unknown, headers?: Record<string, string>): Promise<ApiResponse> {
  return api(t.app, {
    method: endpoint.method,
    url: endpoint.url,
    body,
    headers,
    cookie: endpoint.signedIn ? cookie : undefined,
  });
}

function expectBadRequest(response: ApiResponse) {
  expect(response.status, response.text).toBe(400);
  expect(errorOf(response).code).toBe('VALIDATION');
  expect(t.mails).toEqual([]);
}

const wrongTypes: [string, unknown][] = [
  ['a number', 12345678901],
  ['a boolean', true],
  ['an array', ['owner@shop.example']],
  ['an object', { value: 'owner@shop.example' }],
  ['null', null],
];

describe.each(endpoints)('$method $url', (endpoint) => {
  it('malformed JSON, an empty body and JSON that is not an object → VALIDATION', async () => {
    for (const raw of ['{bad json', '{"email": "a@b.co",}', '', 'null', '[]', '"text"', '42', 'true']) {
      expectBadRequest(await send(endpoint, raw));
    }
  });

  it('a prototype-pollution body → VALIDATION, and nothing polluted', async () => {
    expectBadRequest(
      await send(endpoint, `{"__proto__": {"polluted": true}, ${JSON.stringify(endpoint.valid).slice(1)}`),
    );
    expectBadRequest(await send(endpoint, '{"constructor": {"prototype": {"polluted": true}}}'));
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it('a body that is not JSON (form, text) → VALIDATION', async () => {
    const form = new URLSearchParams(endpoint.valid as Record<string, string>).toString();
    expectBadRequest(await send(endpoint, form, { 'content-type': 'application/x-www-form-urlencoded' }));
    expectBadRequest(await send(endpoint, JSON.stringify(endpoint.valid), { 'content-type': 'text/plain' }));
  });

  it('a body over the 1 MiB limit → 413 in the error shape', async () => {
    const response = await send(endpoint, { ...endpoint.valid, padding: 'x'.repeat(2 * 1024 * 1024) });
    expect(response.status, response.text).toBe(413);
    expect(errorOf(response)).toMatchObject({ code: 'VALIDATION', message: 'Request body too large' });
    expect(t.mails).toEqual([]);
  });

  it('each field of the wrong type → VALIDATION naming that field', async () => {
    for (const field of endpoint.fields) {
      for (const [label, value] of wrongTypes) {
        const response = await send(endpoint, { ...endpoint.valid, [field]: value });
        expect(response.status, `${field} as ${label}: ${response.text}`).toBe(400);
        expectValidation(response, field);
      }
    }
  });

  it('each field 10,000 characters long → VALIDATION naming that field', async () => {
    for (const field of endpoint.fields) {
      // The captcha field takes up to 20,000 characters (reCAPTCHA tokens are long).
      const length = field === 'reCaptchaToken' ? 20_001 : 10_000;
      const value =
        field === 'companyWebsite' ? `https://a.example/${'x'.repeat(length)}` : 'x'.repeat(length);
      const response = await send(endpoint, { ...endpoint.valid, [field]: value });
      expectValidation(response, field);
    }
  });

  it('every issue message is a validation code, not prose', async () => {
    const garbage = Object.fromEntries(endpoint.fields.map((field) => [field, { nested: [1, 2, 3] }]));
    const response = await send(endpoint, garbage);
    const error = expectValidation(response, endpoint.fields[0]!);
    for (const issue of error.issues ?? []) expect(issue.message, issue.path).toMatch(/^[A-Z_]+$/);
  });
});

describe('what zod would answer in its own English words (it reached clients as such)', () => {
  it('an unknown query parameter, a bulk body that is not rows or too many rows: each a code', async () => {
    const settings = `/api/workspaces/settings?workspaceId=${shop.id}`;
    expectValidation(
      await asAdmin({ method: 'GET', url: `${settings}&extra=1` }),
      '',
      validationCodes.VALUE_IS_INVALID,
    );
    expectValidation(
      await asAdmin({ method: 'GET', url: '/api/workspaces/settings?workspaceId=not-a-uuid' }),
      'workspaceId',
      validationCodes.WORKSPACE_ID_IS_REQUIRED,
    );
    const bulk = `/api/brands/bulk?workspaceId=${shop.id}`;
    expectValidation(await asAdmin({ url: bulk, body: {} }), '', validationCodes.BULK_ROWS_ARE_REQUIRED);
    expectValidation(await asAdmin({ url: bulk, body: [] }), '', validationCodes.BULK_ROWS_ARE_REQUIRED);
    const rows = Array.from({ length: maxBulkRows + 1 }, () => ({}));
    expectValidation(await asAdmin({ url: bulk, body: rows }), '', validationCodes.TOO_MANY_BULK_ROWS);
  });
});

describe('unknown fields', () => {
  it('are ignored: a valid login with extra fields succeeds', async () => {
    // Everything above wrote nothing.
    expect(await takeSnapshot()).toEqual(snapshot);
    const user = await createUser(t.db, { email: 'extra@shop.example' });
    const response = await api(t.app, {
      url: '/api/auth/login',
      body: { email: user.email, password: user.password, role: 'admin', isAdmin: true, workspaceId: 'x' },
    });
    expect(response.status).toBe(200);
    snapshot = await takeSnapshot();
  });
});

/** As the admin of the test workspace. */
const asAdmin = (request: Omit<Parameters<typeof api>[1], 'cookie'>) =>
  api(t.app, { ...request, cookie: shop.admin });

describe('input the database or the HTTP layer used to fail on (never 5xx)', () => {
  it('U+0000 in a text field or a search → VALIDATION at that field (PostgreSQL cannot store it)', async () => {
    const tax = { code: 'VAT\u0000', title: [{ locale: 'en', value: 'VAT' }], country: 'SA', rate: 15 };
    expectValidation(
      await asAdmin({ url: `/api/taxes?workspaceId=${shop.id}`, body: tax }),
      'code',
      'TEXT_IS_INVALID',
    );
    for (const url of [
      `/api/brands?workspaceId=${shop.id}&search=a%00b`,
      `/api/workspaces/users?workspaceId=${shop.id}&search=%00`,
    ]) {
      expectValidation(await asAdmin({ url }), 'search', 'TEXT_IS_INVALID');
    }
    expectValidation(
      await api(t.app, {
        url: '/api/auth/login',
        body: { email: 'owner@shop.example\u0000', password: 'Wrong#Pass1' },
      }),
      'email',
      'TEXT_IS_INVALID',
    );
  });

  it('a tax country that is not two capital letters → VALIDATION (Intl.DisplayNames throws on it)', async () => {
    for (const country of ['', '1', 'S', 'abc', 'SA1', 'a b', 'sa']) {
      const response = await asAdmin({
        url: `/api/taxes?workspaceId=${shop.id}`,
        body: { code: 'VAT', title: [{ locale: 'en', value: 'VAT' }], country, rate: 15 },
      });
      expectValidation(response, 'country', 'COUNTRY_IS_INVALID');
    }
  });

  it('an exchange rate the column would store as 0 → VALIDATION', async () => {
    const response = await asAdmin({
      url: `/api/exchange-rates?workspaceId=${shop.id}`,
      body: { currency: 'EUR', rate: 5e-324 },
    });
    expectValidation(response, 'rate', 'RATE_MUST_BE_POSITIVE');
  });

  it("GET workspaces/users?role=none lists the members without a role, like the engine's reference filters", async () => {
    const response = await asAdmin({ url: `/api/workspaces/users?workspaceId=${shop.id}&role=none` });
    expect(response.status, response.text).toBe(200);
    const ids = (response.json as { data: { id: string; role: unknown }[] }).data.map((member) => member.id);
    expect(ids).toContain(shop.withoutRole);
    expect(ids).not.toContain(shop.withRole);
  });

  it('multipart without a boundary, cut short or with a malformed part header → VALIDATION', async () => {
    const bodies: [string, string][] = [
      ['multipart/form-data', '--x\r\n'],
      [
        'multipart/form-data; boundary=b',
        '--b\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\u0089PNG',
      ],
      ['multipart/form-data; boundary=b', '--b\r\nContent-Disposition\r\n\r\nx\r\n--b--\r\n'],
    ];
    for (const [type, body] of bodies) {
      const response = await asAdmin({
        url: `/api/files?workspaceId=${shop.id}`,
        body,
        headers: { 'content-type': type },
      });
      expect(response.status, `${type}: ${response.text}`).toBe(400);
      expect(errorOf(response).code).toBe('VALIDATION');
    }
  });

  it('an over-long path parameter → 414, a malformed URL → 400, both in the error shape', async () => {
    const long = await asAdmin({ url: `/api/brands/${'a'.repeat(200)}?workspaceId=${shop.id}` });
    expect(long.status).toBe(414);
    expect(errorOf(long)).toMatchObject({ code: 'VALIDATION', name: 'ValidationError' });
    const malformed = await asAdmin({ url: `/api/brands/%zz?workspaceId=${shop.id}` });
    expect(malformed.status).toBe(400);
    expect(errorOf(malformed)).toMatchObject({ code: 'VALIDATION', name: 'ValidationError' });
  });
});

describe('the HTTP layer, with the production logger and a real socket', () => {
  let app: Awaited<ReturnType<typeof buildApp>>;
  let logged = '';
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'dukkan-bad-input-'));
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) => {
      logged += chunk.toString('utf8');
    });
    app = await buildApp({
      config: loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'info', DATA_DIR: dataDir }),
      db: t.db,
      mailer: new MemoryMailer(),
      logStream: stream,
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** A raw HTTP request, so that Node's parser (not `inject`) reads it. */
  function raw(path: string, headers: Record<string, string> = {}) {
    const { port } = app.server.address() as AddressInfo;
    return new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = httpRequest({ host: '127.0.0.1', port, path, headers }, (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => {
          body += chunk.toString('utf8');
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      });
      request.on('error', reject);
      request.end();
    });
  }

  it('a dot-segment path under /files/ → 404 NOT_FOUND, nothing logged at error level', async () => {
    for (const path of [
      '/files/..%2f..%2fetc%2fpasswd',
      '/files/..%2fapi%2fhealth',
      '/files/%2e%2e/%2e%2e/etc/passwd',
      '/files/a/..%5c..%5cx.png',
    ]) {
      logged = '';
      const response = await raw(path);
      expect(response.status, `${path}: ${response.body}`).toBe(404);
      expect(JSON.parse(response.body).error).toMatchObject({ statusCode: 404, code: 'NOT_FOUND' });
      const levels = logged
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line).level as number);
      // pino: 50 is error, 60 fatal.
      expect(
        levels.filter((level) => level >= 50),
        logged,
      ).toEqual([]);
      expect(logged).not.toMatch(/"stack"/);
    }
  });

  it("headers over the size limit → 431 in the error shape (Node's parser refuses them before Fastify)", async () => {
    const response = await raw('/api/health', { 'x-padding': 'x'.repeat(20_000) });
    expect(response.status).toBe(431);
    expect(JSON.parse(response.body).error).toMatchObject({
      statusCode: 431,
      code: 'VALIDATION',
      name: 'ValidationError',
      message: 'Request headers too large',
    });
  });
});
