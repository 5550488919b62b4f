import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { errorCodes, errorNames, isOauthToastError, validationCodes } from '@dukkan/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { declaredRoutes } from '../../src/http/access.ts';
import type { CaptchaVerifier } from '../../src/platform/captcha/captcha.ts';
import { createUser, expectNoLeak } from '../helpers/api.ts';
import { type RouteTargets, seedTargets } from '../helpers/route-scenarios.ts';
import { seededRandom } from '../helpers/seeded-random.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { addInvitedMember, addMember, createWorkspace, sessionCookie } from '../helpers/workspaces.ts';
import { generateCases } from './generate.ts';
import { baseCallOf } from './targets.ts';

/**
 * Every API route of the app, from its route table, gets FUZZ_CASES requests (200 by default,
 * seed FUZZ_SEED, 1 by default: `npm test` and CI run the same cases every time; `npm run fuzz`
 * runs 2,000 per route with a new seed) made from its valid call and the contract schemas of its body and query: type and value
 * mutations per field, NUL and invalid UTF-8, deep nesting, huge strings and arrays, wrong content
 * types, query, path and header mutations, alone and combined; a quarter sent without a session,
 * the rest as a workspace admin (so they reach the handlers). Every answer is 2xx or 4xx; every
 * 4xx carries the contract's error shape (design brief §3) with its issues as validation codes,
 * no answer leaks internals, and the server is healthy afterwards.
 */
const onDemand = process.env.npm_lifecycle_event === 'fuzz';
const casesPerEndpoint = Number(process.env.FUZZ_CASES ?? (onDemand ? 2_000 : 200));
/** `npm run fuzz` draws a new seed each time unless given one; it is printed, so a failure replays. */
const seed = Number(process.env.FUZZ_SEED ?? (onDemand ? Date.now() % 2 ** 31 : 1));
/** FUZZ_ROUTES: a pattern of `METHOD /url` to fuzz only some routes (e.g. `taxes`). */
const only = process.env.FUZZ_ROUTES ? new RegExp(process.env.FUZZ_ROUTES) : undefined;
const anonymousShare = 0.25;

/** Accepts every token: requests that need a captcha reach their handlers. */
const acceptingCaptcha: CaptchaVerifier = {
  publicConfig: { provider: 'altcha' } as CaptchaVerifier['publicConfig'],
  async createChallenge() {
    return { algorithm: 'SHA-256', challenge: 'x', maxnumber: 1, salt: 'x', signature: 'x' };
  },
  async verify() {},
};

const errorKeys = new Set([
  'statusCode',
  'code',
  'name',
  'message',
  'key',
  'target',
  'issues',
  'retryAfter',
  'requestId',
]);

let t: TestApp;
let adminId: string;
let targets: RouteTargets;
let known: { email: string; inviteToken: string; workspaceId: string };

beforeAll(async () => {
  t = await createTestApp({ captcha: acceptingCaptcha });
  const workspace = await createWorkspace(t.db);
  const admin = await addMember(t.db, workspace.id, { isAdmin: true });
  // A second admin: no case can leave the workspace without one.
  await addMember(t.db, workspace.id, { isAdmin: true });
  adminId = admin.user.id;
  targets = await seedTargets(t.db, workspace.id);
  const invited = await addInvitedMember(t.db, workspace.id, { roleId: targets.emptyRoleId });
  const someone = await createUser(t.db, { email: 'someone@fuzz.example' });
  known = { email: someone.email, inviteToken: invited.token, workspaceId: workspace.id };
}, 120_000);
afterAll(async () => {
  await t?.close();
});

/** A body as the client reads it: answers over 1 KB may be compressed. */
function decoded(payload: Buffer, encoding: unknown): string {
  if (encoding === 'br') return brotliDecompressSync(payload).toString();
  if (encoding === 'gzip') return gunzipSync(payload).toString();
  if (encoding === 'deflate') return inflateSync(payload).toString();
  return payload.toString();
}

/** Why an answer breaks the contract, or undefined when it keeps it. */
function breach(
  method: string,
  route: string,
  status: number,
  body: string,
  contentType: string | undefined,
): string | undefined {
  if (status >= 500) return `answered ${status}`;
  if (status < 200 || (status >= 300 && status < 400)) return `answered ${status}`;
  if (method === 'HEAD' || status === 204) return undefined;
  // A list's export and an import's template answer a file (a refusal is still the contract's JSON error).
  if (status < 300 && (route.endsWith('/export') || route.endsWith('/import-template'))) {
    const file = [
      'text/csv; charset=utf-8',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    ];
    return file.includes(String(contentType)) ? undefined : `answered ${status} as ${contentType}`;
  }
  // An invoice's document is one HTML file (decision 0045).
  if (status < 300 && route.endsWith('/document'))
    return contentType === 'text/html; charset=utf-8' && body.startsWith('<!DOCTYPE html>')
      ? undefined
      : `answered ${status} as ${contentType}`;
  if (!String(contentType).startsWith('application/json')) return `answered ${status} as ${contentType}`;
  let json: { data?: unknown; error?: Record<string, unknown> };
  try {
    json = JSON.parse(body);
  } catch {
    return `answered ${status} with a body that is not JSON`;
  }
  if (status < 300) return 'data' in json ? undefined : 'a success without data';
  // The portal's Login call refuses in OAuth's own shape (the contract's OauthErrorBody, spec §8).
  if (route === '/api/oauth/authorize/client-side' && typeof json.error === 'string') {
    const oauth = json as unknown as { error: string; error_description?: unknown };
    if (!isOauthToastError(oauth.error)) return `unknown OAuth error ${oauth.error}`;
    if (typeof oauth.error_description !== 'string') return 'an OAuth error without a description';
    const extra = Object.keys(oauth).filter((key) => key !== 'error' && key !== 'error_description');
    return extra.length ? `OAuth error fields outside the contract: ${extra.join(', ')}` : undefined;
  }
  const error = json.error;
  if (!error) return `answered ${status} without an error body`;
  if (error.statusCode !== status) return `error.statusCode ${String(error.statusCode)} on a ${status}`;
  if (!errorCodes.includes(error.code as never)) return `unknown error code ${String(error.code)}`;
  if (error.name !== errorNames[error.code as keyof typeof errorNames])
    return `error name ${String(error.name)}`;
  if (typeof error.message !== 'string') return 'an error without a message';
  if (typeof error.requestId !== 'string' || error.requestId === '') return 'an error without its request id';
  const extra = Object.keys(error).filter((key) => !errorKeys.has(key));
  if (extra.length) return `error fields outside the contract: ${extra.join(', ')}`;
  return untranslatable(error);
}

const contractCodes = new Set<string>(Object.values(validationCodes));

/**
 * An issue whose message the web cannot translate: each is one of the contract's validation
 * codes, but for the request's own refusals (a malformed body or URL), whose one issue repeats
 * the error's message.
 */
function untranslatable(error: Record<string, unknown>): string | undefined {
  const issues = (error.issues ?? []) as { path: string; message: string }[];
  const requestLevel = issues.length === 1 && issues[0]?.path === '' && issues[0].message === error.message;
  if (requestLevel) return undefined;
  const stray = issues.find((issue) => !contractCodes.has(issue.message));
  return stray ? `an issue at "${stray.path}" in words, not a code: ${stray.message}` : undefined;
}

describe(`fuzz of every API route (seed ${seed}, ${casesPerEndpoint} cases each)`, () => {
  it(
    'every answer is 2xx or 4xx in the contract error shape, and the server stays healthy',
    async () => {
      const routes = declaredRoutes(t.app)
        .filter((route) => route.method !== 'HEAD')
        .filter((route) => !only || only.test(`${route.method} ${route.url}`));
      const random = seededRandom(seed);
      const histogram = new Map<number, number>();
      const breaches: string[] = [];
      let total = 0;
      for (const route of routes) {
        // A fresh session for each route: a case may end the one before (logout, a password change).
        const cookie = await sessionCookie(t.db, adminId);
        const base = baseCallOf(route, targets, known);
        for (const request of generateCases(base, casesPerEndpoint, random)) {
          const anonymous = random() < anonymousShare;
          const headers = { ...request.headers };
          if (!anonymous && headers.cookie === undefined) headers.cookie = cookie;
          const response = await t.app.inject({
            method: request.method as 'GET',
            url: request.url,
            headers,
            payload: request.payload,
          });
          total += 1;
          histogram.set(response.statusCode, (histogram.get(response.statusCode) ?? 0) + 1);
          const body = decoded(response.rawPayload, response.headers['content-encoding']);
          const problem = breach(
            request.method,
            route.url,
            response.statusCode,
            body,
            response.headers['content-type'] as string,
          );
          let leak: string | undefined;
          try {
            expectNoLeak(body);
          } catch (error) {
            leak = (error as Error).message.split('\n')[0];
          }
          if (problem || leak) {
            breaches.push(
              `${request.method} ${request.url.slice(0, 160)} [${request.label}]${anonymous ? ' anonymous' : ''}: ${problem ?? leak} ${body.slice(0, 200)}`,
            );
          }
        }
      }
      const statuses = [...histogram]
        .sort(([a], [b]) => a - b)
        .map(([status, count]) => `${status}: ${count}`);
      console.info(
        `fuzz seed ${seed}: ${routes.length} endpoints × ${casesPerEndpoint} cases = ${total} requests; statuses ${statuses.join(', ')}; ${breaches.length} breaches`,
      );
      if (!only) expect(routes.length).toBeGreaterThan(50);
      expect(breaches.slice(0, 40), `${breaches.length} answers broke the contract`).toEqual([]);

      const health = await t.app.inject({ method: 'GET', url: '/api/health' });
      expect(health.statusCode).toBe(200);
      expect(health.json()).toMatchObject({ data: { status: 'ok' } });
    },
    Math.max(900_000, casesPerEndpoint * 5_000),
  );
});
