import { PassThrough } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oauthModels } from '../../src/db/schema/index.ts';
import { authorizationRequest, type PortalFixture, portalFixture, TestBrowser } from '../helpers/oauth.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { formPost, rawGet } from './negative-support.ts';

/*
 * A parameter with U+0000 in it, which PostgreSQL cannot store (text and jsonb refuse it): every
 * endpoint of the provider refuses it with invalid_request before it stores or looks up anything,
 * never a server_error logged with its stack. The authorization endpoint's refusal goes back to
 * the client, its redirect URI being registered (RFC 6749 §4.1.2.1).
 */

let testApp: TestApp;
let fixture: PortalFixture;
let issuer: string;
let logged = '';
beforeAll(async () => {
  const logStream = new PassThrough();
  logStream.on('data', (chunk: Buffer) => {
    logged += chunk.toString('utf8');
  });
  testApp = await createTestApp({ logStream });
  fixture = await portalFixture(testApp);
  issuer = `${testApp.config.publicUrl}/oidc`;
});
afterAll(async () => {
  await testApp.close();
});

/** The log lines at error level or above (pino's 50), since `logged` was last emptied. */
function errorLines() {
  return logged
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { level: number; msg: string })
    .filter((line) => line.level >= 50);
}

/** How many rows the provider holds, by model (interactions, sessions, codes…). */
async function storedModels() {
  const rows = await testApp.db
    .select({ model: oauthModels.model, count: sql<number>`count(*)::int` })
    .from(oauthModels)
    .groupBy(oauthModels.model);
  return Object.fromEntries(rows.map((row) => [row.model, row.count]));
}

describe('a NUL in a parameter is refused with invalid_request, nothing stored, nothing logged as an error', () => {
  it.each(['state', 'nonce', 'login_hint', 'ui_locales', 'acr_values'])(
    '%s=a%00b on /authenticate (anonymous): invalid_request back to the client',
    async (name) => {
      const request = await authorizationRequest(fixture);
      const params = new URLSearchParams(request.url.search);
      params.set(name, 'a\u0000b');
      const before = await storedModels();
      logged = '';

      const answer = await new TestBrowser(testApp.app, testApp.config.publicUrl).get(
        `/authenticate?${params}`,
      );

      expect(answer.status).toBe(303);
      const location = new URL(answer.location!);
      expect(`${location.origin}${location.pathname}`).toBe(fixture.redirectUri);
      expect(location.searchParams.get('error')).toBe('invalid_request');
      expect(location.searchParams.get('error_description')).toBe(
        `${name} parameter must not contain a NUL character`,
      );
      // The state as the client sent it (RFC 6749 §4.1.2.1), NUL included.
      expect(location.searchParams.get('state')).toBe(params.get('state'));
      expect(location.searchParams.get('iss')).toBe(issuer);
      expect(location.searchParams.has('code')).toBe(false);
      expect(await storedModels()).toEqual(before);
      expect(errorLines()).toEqual([]);
    },
  );

  it('state=%00 on the end-session endpoint: 400 invalid_request (it was stored in the session)', async () => {
    const before = await storedModels();
    logged = '';
    const answer = await rawGet(testApp.app, testApp.config.publicUrl, '/oidc/session/end?state=%00', {
      accept: 'application/json',
    });
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual({
      error: 'invalid_request',
      error_description: 'state parameter must not contain a NUL character',
    });
    expect(await storedModels()).toEqual(before);
    expect(errorLines()).toEqual([]);
  });

  it('a NUL in a form parameter of the token endpoint: 400 invalid_request', async () => {
    logged = '';
    const answer = await formPost(testApp, '/token', {
      grant_type: 'refresh_token',
      refresh_token: 'a\u0000b',
      client_id: fixture.application.clientId,
    });
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual({
      error: 'invalid_request',
      error_description: 'refresh_token parameter must not contain a NUL character',
    });
    expect(errorLines()).toEqual([]);
  });
});
