import type { AltchaChallenge, ApiErrorBody } from '@dukkan/contract';
import { solveChallenge } from 'altcha-lib';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { expect } from 'vitest';
import type { Database } from '../../src/db/client.ts';
import { users } from '../../src/db/schema/index.ts';
import { hashPassword } from '../../src/features/auth/passwords.ts';
import { sessionCookieName } from '../../src/features/auth/sessions.ts';

export interface ApiRequest {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE' | 'HEAD';
  url: string;
  /**
   * An object is sent as JSON; a string or a Buffer is sent as is (with a JSON content type unless
   * one is given, e.g. by `multipart()`).
   */
  body?: unknown;
  /** A `Cookie` header value, e.g. from `login()`. */
  cookie?: string;
  headers?: Record<string, string>;
  remoteAddress?: string;
}

export interface ApiResponse {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  /** The parsed JSON body, or undefined when it is not JSON. */
  json: unknown;
  text: string;
  /** Set-Cookie headers as sent. */
  setCookies: string[];
}

/** Things that must never reach a client: stack frames, source paths, SQL. */
const leakPatterns = [
  /\n\s+at\s/,
  /\bat [^\s]+ \(.*:\d+:\d+\)/,
  /node_modules/,
  /\/work\/|\.ts:\d+/,
  /Failed query/i,
  /\b(select|insert into|delete from|update)\s+["a-z_*]+.*\b(from|values|set|where)\b/i,
  /"stack"/,
];

export function expectNoLeak(text: string) {
  for (const pattern of leakPatterns) expect(text, `response leaks ${pattern}`).not.toMatch(pattern);
}

/** `app.inject` with JSON in and out; every answer is checked for leaked internals. */
export async function api(app: FastifyInstance, request: ApiRequest): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...request.headers };
  if (request.cookie) headers.cookie = request.cookie;
  let payload: InjectOptions['payload'];
  if (request.body !== undefined) {
    if (!Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) {
      headers['content-type'] = 'application/json';
    }
    payload =
      typeof request.body === 'string' || Buffer.isBuffer(request.body)
        ? request.body
        : JSON.stringify(request.body);
  }
  const response = await app.inject({
    method: request.method ?? (request.body === undefined ? 'GET' : 'POST'),
    url: request.url,
    headers,
    payload,
    remoteAddress: request.remoteAddress,
  });
  expectNoLeak(response.body);
  let json: unknown;
  try {
    json = JSON.parse(response.body);
  } catch {
    json = undefined;
  }
  const setCookie = response.headers['set-cookie'];
  return {
    status: response.statusCode,
    headers: response.headers,
    json,
    text: response.body,
    setCookies: setCookie === undefined ? [] : Array.isArray(setCookie) ? setCookie : [String(setCookie)],
  };
}

/** A localized name in English, in Arabic, or in both (the one not given is left out). */
export const named = (en?: string, ar?: string): { locale: 'en' | 'ar'; value: string }[] => [
  ...(en !== undefined ? [{ locale: 'en' as const, value: en }] : []),
  ...(ar !== undefined ? [{ locale: 'ar' as const, value: ar }] : []),
];

/** A small valid PNG (1×1), for uploads. */
export const tinyPng = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

/** A multipart/form-data body of file parts, with its content type: spread into an `ApiRequest`. */
export function multipart(
  parts: (
    | { field: string; filename: string; type: string; content: Buffer }
    | { field: string; value: string }
  )[],
) {
  const boundary = `----dukkan${Math.random().toString(16).slice(2)}`;
  const chunks = parts.flatMap((part) => [
    Buffer.from(
      'value' in part
        ? `--${boundary}\r\nContent-Disposition: form-data; name="${part.field}"\r\n\r\n`
        : `--${boundary}\r\nContent-Disposition: form-data; name="${part.field}"; filename="${part.filename}"\r\nContent-Type: ${part.type}\r\n\r\n`,
    ),
    'value' in part ? Buffer.from(part.value, 'utf8') : part.content,
    Buffer.from('\r\n'),
  ]);
  return {
    body: Buffer.concat([...chunks, Buffer.from(`--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/**
 * The `error` of an error answer, checked to have the contract's shape and to carry the request's
 * id (the one of its `X-Request-Id` header); returned without the id, which differs every time.
 */
export function errorOf(response: ApiResponse): ApiErrorBody {
  const body = response.json as { error?: ApiErrorBody } | undefined;
  expect(body?.error, `expected an error body, got ${response.text}`).toBeDefined();
  const { requestId, ...error } = body!.error!;
  expect(error.statusCode).toBe(response.status);
  expect(typeof error.code).toBe('string');
  expect(typeof error.name).toBe('string');
  expect(typeof error.message).toBe('string');
  expect(typeof requestId).toBe('string');
  expect(response.headers['x-request-id']).toBe(requestId);
  return error;
}

/** Asserts a `VALIDATION` answer whose first bad field is `key` with the given code. */
export function expectValidation(response: ApiResponse, key: string, message?: string): ApiErrorBody {
  expect(response.status, response.text).toBe(400);
  const error = errorOf(response);
  expect(error.code).toBe('VALIDATION');
  expect(error.name).toBe('ValidationError');
  expect(error.key).toBe(key);
  if (message !== undefined) expect(error.issues).toContainEqual({ path: key, message });
  return error;
}

export function dataOf<T = Record<string, unknown>>(response: ApiResponse): T {
  expect(response.status, response.text).toBeLessThan(300);
  return (response.json as { data: T }).data;
}

/** The session cookie set by an answer, as a `Cookie` header value. */
export function sessionCookieFrom(response: ApiResponse): string {
  const header = response.setCookies.find((cookie) =>
    [sessionCookieName, `__Host-${sessionCookieName}`].some((name) => cookie.startsWith(`${name}=`)),
  );
  expect(header, 'expected a session cookie').toBeDefined();
  return header!.split(';')[0]!;
}

/** The Fetch Metadata a browser sends with the app's own fetch (what `GET auth/logout` requires). */
export const appFetchHeaders = { 'sec-fetch-site': 'same-origin', 'sec-fetch-dest': 'empty' } as const;

export const strongPassword = 'Sesame#Open1';

let userCounter = 0;

/**
 * One argon2 hash of each password per test process, shared by the users made with it: a hash
 * takes ~50 ms of a core, and the walks over the route table make a member for each call. A
 * user's own salt is not what these tests check; signing in with the password still verifies it.
 */
const passwordHashes = new Map<string, Promise<string>>();
function sharedHash(password: string): Promise<string> {
  let hash = passwordHashes.get(password);
  if (!hash) {
    hash = hashPassword(password);
    passwordHashes.set(password, hash);
  }
  return hash;
}

export interface TestUser {
  id: string;
  email: string;
  password: string;
  name: string;
}

/** A user with a password, written straight to the database. */
export async function createUser(
  db: Database,
  fields: {
    email?: string;
    password?: string;
    name?: string;
    language?: 'en' | 'ar' | null;
    phone?: string;
  } = {},
): Promise<TestUser> {
  userCounter += 1;
  const email = fields.email ?? `user${userCounter}-${Date.now()}@example.com`;
  const password = fields.password ?? strongPassword;
  const name = fields.name ?? `User ${userCounter}`;
  const [row] = await db
    .insert(users)
    .values({
      email,
      name,
      phone: fields.phone,
      // null: a user who never chose a language.
      language: fields.language === undefined ? 'en' : fields.language,
      passwordHash: await sharedHash(password),
    })
    .returning({ id: users.id });
  return { id: row!.id, email, password, name };
}

/** Logs in and returns the session cookie; fails the test if the login does not succeed. */
export async function login(
  app: FastifyInstance,
  user: { email: string; password: string },
  extra: Partial<ApiRequest> = {},
): Promise<string> {
  const response = await api(app, {
    url: '/api/auth/login',
    body: { email: user.email, password: user.password },
    ...extra,
  });
  expect(response.status, response.text).toBe(200);
  return sessionCookieFrom(response);
}

export async function fetchChallenge(app: FastifyInstance): Promise<AltchaChallenge> {
  const response = await api(app, { url: '/api/captcha/challenge' });
  return dataOf<AltchaChallenge>(response);
}

/** Solves an ALTCHA challenge the way the page does in the background. */
export async function solveAltcha(challenge: AltchaChallenge): Promise<{ number: number; token: string }> {
  const solution = await solveChallenge(
    challenge.challenge,
    challenge.salt,
    challenge.algorithm,
    challenge.maxnumber,
  ).promise;
  if (!solution) throw new Error('the test could not solve the ALTCHA challenge');
  return { number: solution.number, token: altchaToken(challenge, solution.number) };
}

/** The payload the ALTCHA widget sends, for a given answer (right or wrong). */
export function altchaToken(challenge: AltchaChallenge, number: number): string {
  const { algorithm, salt, signature } = challenge;
  return Buffer.from(
    JSON.stringify({ algorithm, challenge: challenge.challenge, number, salt, signature }),
  ).toString('base64');
}

/** A fresh, solved captcha token from the app. */
export async function captchaToken(app: FastifyInstance): Promise<string> {
  return (await solveAltcha(await fetchChallenge(app))).token;
}

const identityTables = [
  'users',
  'sessions',
  'password_tokens',
  'access_requests',
  'workspaces',
  'roles',
  'memberships',
  'invites',
  'used_captchas',
] as const;

/** Row counts of every identity table: "nothing written" is "these did not change". */
export async function tableCounts(db: Database): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of identityTables) {
    const result = await db.execute(sql.raw(`select count(*)::int as count from "${table}"`));
    const rows = (result as unknown as { rows: { count: number }[] }).rows;
    counts[table] = Number(rows[0]?.count);
  }
  return counts;
}

/** Decodes quoted-printable soft breaks and escapes, enough to read links out of a raw mail. */
export function decodeQuotedPrintable(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

export const resetLinkPattern = /\/reset-password\?token=([A-Za-z0-9_-]{20,})/;
