import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
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
import { createTestApp, type TestApp } from './helpers/test-app.ts';

/**
 * Every POST/PATCH endpoint gets garbage: malformed JSON, bodies of the wrong shape, fields of
 * the wrong type and oversize strings. Each must answer 400 VALIDATION (never 500) and write nothing.
 */
let t: TestApp;
let cookie: string;
let snapshot: { counts: Record<string, number>; users: unknown[] };

async function takeSnapshot() {
  return { counts: await tableCounts(t.db), users: await t.db.select().from(users).orderBy(users.email) };
}

beforeAll(async () => {
  t = await createTestApp();
  const user = await createUser(t.db, { email: 'owner@shop.example', name: 'Owner', phone: '0123456789' });
  cookie = await login(t.app, user);
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

  it('a body over the 1 MiB limit → VALIDATION', async () => {
    expectBadRequest(await send(endpoint, { ...endpoint.valid, padding: 'x'.repeat(1024 * 1024 + 10) }));
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
