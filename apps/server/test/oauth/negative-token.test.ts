import { and, eq } from 'drizzle-orm';
import * as client from 'openid-client';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { memberships } from '../../src/db/schema/index.ts';
import { hashToken } from '../../src/http/tokens.ts';
import { clientFor, type PortalFixture, portalFixture } from '../helpers/oauth.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import {
  anotherInstalledApplication,
  basicAuthorization,
  codeFor,
  confidentialApplication,
  formPost,
  rawGet,
  redeem,
  refusal,
  signedIn,
  type Tokens,
  userinfoStatus,
} from './negative-support.ts';

/*
 * The token, revocation, introspection and userinfo endpoints refusing what RFC 6749 §5.2, RFC 7636
 * §4.6, RFC 9700 §2.1–§4.14, RFC 7009, RFC 7662 and RFC 6750 say to refuse: a code redeemed once,
 * by its own client, with its verifier and redirect URI, within its minute; a refresh token spent
 * once (reuse revokes the grant), never widened, never another client's; each client's tokens its
 * own.
 */

let testApp: TestApp;
let fixture: PortalFixture;
/** Another application installed in the same workspace: a second public client. */
let other: Awaited<ReturnType<typeof anotherInstalledApplication>>;
const secret = 'dukkan-test-secret-4f1c2a9e0b7d';
let confidential: Awaited<ReturnType<typeof confidentialApplication>>;
let confidentialConfig: client.Configuration;

beforeAll(async () => {
  testApp = await createTestApp();
  fixture = await portalFixture(testApp);
  other = await anotherInstalledApplication(testApp, fixture.workspace.id);
  confidential = await confidentialApplication(testApp, fixture.workspace.id, secret);
  confidentialConfig = await clientFor(
    testApp,
    confidential.application.clientId,
    client.ClientSecretBasic(secret),
  );
});
afterAll(async () => {
  await testApp.close();
});
afterEach(() => {
  vi.useRealTimers();
});

/** The code's form as the client would post it, to be changed by the test. */
function codeForm(started: Awaited<ReturnType<typeof codeFor>>, clientId = fixture.application.clientId) {
  return {
    grant_type: 'authorization_code',
    code: started.code,
    redirect_uri: fixture.redirectUri,
    code_verifier: started.request.verifier,
    client_id: clientId,
  };
}

/** Moves the provider's clock (JavaScript's Date only: no timers, no real waiting). */
function advanceClock(seconds: number) {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Date.now() + seconds * 1000);
}

async function introspect(config: client.Configuration, token: string) {
  return client.tokenIntrospection(config, token);
}

/** The sign-in's tokens, all refused: userinfo 401, introspection inactive, refresh invalid_grant. */
async function expectRevoked(tokens: Pick<Tokens, 'access_token' | 'refresh_token'>) {
  expect(await userinfoStatus(testApp, tokens.access_token)).toBe(401);
  expect((await introspect(fixture.config, tokens.access_token)).active).toBe(false);
  expect((await introspect(fixture.config, tokens.refresh_token!)).active).toBe(false);
  expect(await refusal(client.refreshTokenGrant(fixture.config, tokens.refresh_token!))).toMatchObject({
    error: 'invalid_grant',
  });
}

/** The member's membership disabled straight in the table (no revocation by the members' routes). */
async function disableMember(own: PortalFixture) {
  await testApp.db
    .update(memberships)
    .set({ status: 'inactive' })
    .where(and(eq(memberships.workspaceId, own.workspace.id), eq(memberships.userId, own.member.user.id)));
}

describe('the token endpoint refuses a code redeemed against PKCE (RFC 7636 §4.6)', () => {
  it('a wrong code_verifier: invalid_grant', async () => {
    const started = await codeFor(fixture);
    const refused = client.authorizationCodeGrant(fixture.config, started.callback, {
      pkceCodeVerifier: client.randomPKCECodeVerifier(),
      expectedState: started.request.state,
      expectedNonce: started.request.nonce,
    });
    expect(await refusal(refused)).toEqual({ error: 'invalid_grant', status: 400 });
  });

  it('no code_verifier: invalid_grant', async () => {
    const started = await codeFor(fixture);
    const refused = client.authorizationCodeGrant(fixture.config, started.callback, {
      expectedState: started.request.state,
      expectedNonce: started.request.nonce,
    });
    expect(await refusal(refused)).toEqual({ error: 'invalid_grant', status: 400 });
  });

  it('the code_challenge sent back as the verifier: invalid_grant', async () => {
    const started = await codeFor(fixture);
    const challenge = started.request.url.searchParams.get('code_challenge')!;
    const answer = await formPost(testApp, '/token', { ...codeForm(started), code_verifier: challenge });
    expect(answer.status).toBe(400);
    expect(answer.json.error).toBe('invalid_grant');
  });

  it.each([
    ['of 42 characters', 'a'.repeat(42)],
    ['of 129 characters', 'a'.repeat(129)],
    ['outside the unreserved characters', '!'.repeat(43)],
  ])('a code_verifier %s: invalid_request', async (_name, verifier) => {
    const started = await codeFor(fixture);
    const answer = await formPost(testApp, '/token', { ...codeForm(started), code_verifier: verifier });
    expect(answer.status).toBe(400);
    expect(answer.json.error).toBe('invalid_request');
    // The refusal spent nothing: the code still redeems with its own verifier.
    expect((await redeem(fixture.config, started)).access_token).toBeTruthy();
  });
});

describe('the token endpoint redeems a code once, for its own client, its redirect URI, within its minute', () => {
  it('a code replayed: invalid_grant, and the tokens of the first redemption are revoked (RFC 9700 §4.5)', async () => {
    const started = await codeFor(fixture);
    const tokens = await redeem(fixture.config, started);
    expect(await userinfoStatus(testApp, tokens.access_token)).toBe(200);

    expect(await refusal(redeem(fixture.config, started))).toEqual({ error: 'invalid_grant', status: 400 });
    await expectRevoked(tokens);
  });

  it('a code redeemed by another application: invalid_grant', async () => {
    const started = await codeFor(fixture);
    const callback = new URL(started.callback.search, other.redirectUri);
    const refused = redeem(other.config, started, callback);
    expect(await refusal(refused)).toEqual({ error: 'invalid_grant', status: 400 });
  });

  it("a code redeemed by another application naming the code's redirect URI: invalid_grant", async () => {
    const started = await codeFor(fixture);
    const answer = await formPost(testApp, '/token', codeForm(started, other.application.clientId));
    expect(answer.status).toBe(400);
    expect(answer.json.error).toBe('invalid_grant');
  });

  it('a code with a redirect_uri other than its own: invalid_grant', async () => {
    const started = await codeFor(fixture);
    const answer = await formPost(testApp, '/token', {
      ...codeForm(started),
      redirect_uri: `${fixture.redirectUri}/`,
    });
    expect(answer.status).toBe(400);
    expect(answer.json.error).toBe('invalid_grant');
  });

  it('a code without the redirect_uri it was issued for (RFC 6749 §4.1.3): refused', async () => {
    const started = await codeFor(fixture);
    const { redirect_uri: _left, ...form } = codeForm(started);
    const answer = await formPost(testApp, '/token', form);
    expect(answer.status).toBe(400);
    expect(answer.json.error).toBe('invalid_request');
  });

  it('a code past its 60 seconds: invalid_grant', async () => {
    const started = await codeFor(fixture);
    advanceClock(61);
    expect(await refusal(redeem(fixture.config, started))).toEqual({ error: 'invalid_grant', status: 400 });
  });

  it('a code that was never issued: invalid_grant', async () => {
    const started = await codeFor(fixture);
    const answer = await formPost(testApp, '/token', { ...codeForm(started), code: 'not-a-code-at-all' });
    expect(answer.status).toBe(400);
    expect(answer.json.error).toBe('invalid_grant');
  });

  it('no code: invalid_request', async () => {
    const started = await codeFor(fixture);
    const { code: _code, ...form } = codeForm(started);
    const answer = await formPost(testApp, '/token', form);
    expect(answer.status).toBe(400);
    expect(answer.json.error).toBe('invalid_request');
  });

  it.each(['code', 'code_verifier', 'grant_type'])('%s given twice: invalid_request', async (name) => {
    const started = await codeFor(fixture);
    const form = codeForm(started);
    const body = `${new URLSearchParams(form)}&${name}=${encodeURIComponent(form[name as keyof typeof form])}`;
    const answer = await formPost(testApp, '/token', body);
    expect(answer.status).toBe(400);
    expect(answer.json.error).toBe('invalid_request');
  });

  it('a code whose member was disabled before it was redeemed: invalid_grant', async () => {
    const own = await portalFixture(testApp);
    const started = await codeFor(own);
    await disableMember(own);
    expect(await refusal(redeem(own.config, started))).toEqual({ error: 'invalid_grant', status: 400 });
  });

  it('a refresh token presented as a code: invalid_grant', async () => {
    const tokens = await signedIn(fixture);
    const started = await codeFor(fixture);
    const answer = await formPost(testApp, '/token', { ...codeForm(started), code: tokens.refresh_token! });
    expect(answer.status).toBe(400);
    expect(answer.json.error).toBe('invalid_grant');
  });
});

describe('the token endpoint refreshes once per refresh token, within the grant (RFC 9700 §4.14)', () => {
  it('a rotated refresh token reused: invalid_grant, and the whole grant is revoked (the newest tokens too)', async () => {
    const tokens = await signedIn(fixture);
    const rotated = await client.refreshTokenGrant(fixture.config, tokens.refresh_token!);
    expect(rotated.refresh_token).not.toBe(tokens.refresh_token);

    expect(await refusal(client.refreshTokenGrant(fixture.config, tokens.refresh_token!))).toEqual({
      error: 'invalid_grant',
      status: 400,
    });
    await expectRevoked(rotated);
  });

  it.each([
    ['a scope the grant does not hold (offline_access)', 'openid profile email offline_access'],
    ['a scope the server does not know', 'openid admin'],
  ])('asking for %s: invalid_scope', async (_name, scope) => {
    const tokens = await signedIn(fixture);
    expect(await refusal(client.refreshTokenGrant(fixture.config, tokens.refresh_token!, { scope }))).toEqual(
      {
        error: 'invalid_scope',
        status: 400,
      },
    );
  });

  it("another application's refresh token: invalid_grant", async () => {
    const tokens = await signedIn(fixture);
    expect(await refusal(client.refreshTokenGrant(other.config, tokens.refresh_token!))).toEqual({
      error: 'invalid_grant',
      status: 400,
    });
  });

  it('an access token presented as a refresh token: invalid_grant', async () => {
    const tokens = await signedIn(fixture);
    expect(await refusal(client.refreshTokenGrant(fixture.config, tokens.access_token))).toEqual({
      error: 'invalid_grant',
      status: 400,
    });
  });

  it('a refresh token past its 14 days: invalid_grant', async () => {
    const tokens = await signedIn(fixture);
    advanceClock(14 * 24 * 60 * 60 + 1);
    expect(await refusal(client.refreshTokenGrant(fixture.config, tokens.refresh_token!))).toEqual({
      error: 'invalid_grant',
      status: 400,
    });
  });

  it('a refresh token of a member since disabled: invalid_grant', async () => {
    const own = await portalFixture(testApp);
    const tokens = await signedIn(own);
    await disableMember(own);
    expect(await refusal(client.refreshTokenGrant(own.config, tokens.refresh_token!))).toEqual({
      error: 'invalid_grant',
      status: 400,
    });
  });
});

describe('the token endpoint refuses other grants and unauthenticated clients (RFC 6749 §5.2)', () => {
  it.each([
    ['password', { grant_type: 'password', username: 'admin@example.com', password: 'x' }],
    ['client_credentials (not allowed to any application)', { grant_type: 'client_credentials' }],
    [
      'the device code grant',
      { grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: 'x' },
    ],
    ['an invented grant type', { grant_type: 'magic' }],
  ])('%s: unsupported_grant_type', async (_name, form) => {
    const answer = await formPost(testApp, '/token', { ...form, client_id: fixture.application.clientId });
    expect(answer.status).toBe(400);
    expect(answer.json.error).toBe('unsupported_grant_type');
  });

  it('client_credentials for the confidential client, authenticated: unsupported_grant_type', async () => {
    const answer = await formPost(
      testApp,
      '/token',
      { grant_type: 'client_credentials' },
      basicAuthorization(confidential.application.clientId, secret),
    );
    expect(answer.status).toBe(400);
    expect(answer.json.error).toBe('unsupported_grant_type');
  });

  it('no grant_type: invalid_request', async () => {
    const answer = await formPost(testApp, '/token', { client_id: fixture.application.clientId, code: 'x' });
    expect(answer.status).toBe(400);
    expect(answer.json.error).toBe('invalid_request');
  });

  it('a JSON body instead of a form: invalid_request', async () => {
    const started = await codeFor(fixture);
    const answer = await formPost(testApp, '/token', JSON.stringify(codeForm(started)), {
      'content-type': 'application/json',
    });
    expect(answer.status).toBe(400);
    expect(answer.json.error).toBe('invalid_request');
  });

  it('an unknown client_id: 401 invalid_client', async () => {
    const started = await codeFor(fixture);
    const answer = await formPost(testApp, '/token', codeForm(started, 'no-such-application'));
    expect(answer.status).toBe(401);
    expect(answer.json.error).toBe('invalid_client');
  });

  it('no client at all: 400 invalid_request (oidc-provider names no client as a malformed request)', async () => {
    const started = await codeFor(fixture);
    const { client_id: _clientId, ...form } = codeForm(started);
    const answer = await formPost(testApp, '/token', form);
    expect(answer.status).toBe(400);
    expect(answer.json.error).toBe('invalid_request');
  });
});

describe('a confidential client must authenticate with its secret (compared by its SHA-256)', () => {
  const confidentialFixture = () => ({
    ...fixture,
    config: confidentialConfig,
    redirectUri: confidential.redirectUri,
  });
  const form = (started: Awaited<ReturnType<typeof codeFor>>) => ({
    grant_type: 'authorization_code',
    code: started.code,
    redirect_uri: confidential.redirectUri,
    code_verifier: started.request.verifier,
  });

  it.each([
    ['a wrong secret in Basic', () => basicAuthorization(confidential.application.clientId, 'wrong-secret')],
    [
      'the stored SHA-256 presented as the secret',
      () => basicAuthorization(confidential.application.clientId, hashToken(secret)),
    ],
  ])('%s: 401 invalid_client with a Basic challenge', async (_name, authorization) => {
    const started = await codeFor(confidentialFixture());
    const answer = await formPost(testApp, '/token', form(started), authorization());
    expect(answer.status).toBe(401);
    expect(answer.json.error).toBe('invalid_client');
    expect(String(answer.headers['www-authenticate'])).toMatch(/^Basic /);
  });

  it('an empty secret in Basic: 400 invalid_request (a malformed header, oidc-provider)', async () => {
    const started = await codeFor(confidentialFixture());
    const answer = await formPost(
      testApp,
      '/token',
      form(started),
      basicAuthorization(confidential.application.clientId, ''),
    );
    expect(answer.status).toBe(400);
    expect(answer.json.error).toBe('invalid_request');
  });

  it('a wrong secret in the form (client_secret_post): 401 invalid_client', async () => {
    const started = await codeFor(confidentialFixture());
    const answer = await formPost(testApp, '/token', {
      ...form(started),
      client_id: confidential.application.clientId,
      client_secret: 'wrong-secret',
    });
    expect(answer.status).toBe(401);
    expect(answer.json.error).toBe('invalid_client');
  });

  it('no secret (client_id only, as a public client): 401 invalid_client', async () => {
    const started = await codeFor(confidentialFixture());
    const answer = await formPost(testApp, '/token', {
      ...form(started),
      client_id: confidential.application.clientId,
    });
    expect(answer.status).toBe(401);
    expect(answer.json.error).toBe('invalid_client');
  });

  it('the right secret: the code is exchanged (the control of the cases above)', async () => {
    const started = await codeFor(confidentialFixture());
    const tokens = await redeem(confidentialConfig, started);
    expect(tokens.access_token).toBeTruthy();
    expect(await userinfoStatus(testApp, tokens.access_token)).toBe(200);
  });
});

describe('revocation (RFC 7009): each client revokes its own tokens only', () => {
  it("a public client revoking another application's access token: answered 200, the token still works", async () => {
    const tokens = await signedIn(fixture);
    const answer = await formPost(testApp, '/token/revocation', {
      token: tokens.access_token,
      client_id: other.application.clientId,
    });
    expect(answer.status).toBe(200);
    expect(await userinfoStatus(testApp, tokens.access_token)).toBe(200);
    expect((await introspect(fixture.config, tokens.access_token)).active).toBe(true);
  });

  it("a public client revoking another application's refresh token: answered 200, it still refreshes", async () => {
    const tokens = await signedIn(fixture);
    await client.tokenRevocation(other.config, tokens.refresh_token!);
    const refreshed = await client.refreshTokenGrant(fixture.config, tokens.refresh_token!);
    expect(refreshed.access_token).toBeTruthy();
  });

  it("a confidential client revoking another application's token: invalid_request, the token still works", async () => {
    const tokens = await signedIn(fixture);
    const answer = await formPost(
      testApp,
      '/token/revocation',
      { token: tokens.access_token },
      basicAuthorization(confidential.application.clientId, secret),
    );
    expect(answer.status).toBe(400);
    expect(answer.json.error).toBe('invalid_request');
    expect(await userinfoStatus(testApp, tokens.access_token)).toBe(200);
  });

  it('a confidential client with a wrong secret: 401 invalid_client, its token still works', async () => {
    const started = await codeFor({
      ...fixture,
      config: confidentialConfig,
      redirectUri: confidential.redirectUri,
    });
    const tokens = await redeem(confidentialConfig, started);
    const answer = await formPost(
      testApp,
      '/token/revocation',
      { token: tokens.access_token },
      basicAuthorization(confidential.application.clientId, 'wrong-secret'),
    );
    expect(answer.status).toBe(401);
    expect(answer.json.error).toBe('invalid_client');
    expect(await userinfoStatus(testApp, tokens.access_token)).toBe(200);
  });

  it('no client_id: invalid_request, the token still works', async () => {
    const tokens = await signedIn(fixture);
    const answer = await formPost(testApp, '/token/revocation', { token: tokens.access_token });
    expect(answer.status).toBe(400);
    expect(answer.json.error).toBe('invalid_request');
    expect(await userinfoStatus(testApp, tokens.access_token)).toBe(200);
  });

  it('an unknown client_id: 401 invalid_client, the token still works', async () => {
    const tokens = await signedIn(fixture);
    const answer = await formPost(testApp, '/token/revocation', {
      token: tokens.access_token,
      client_id: 'no-such-application',
    });
    expect(answer.status).toBe(401);
    expect(answer.json.error).toBe('invalid_client');
    expect(await userinfoStatus(testApp, tokens.access_token)).toBe(200);
  });

  it('no token: invalid_request', async () => {
    const answer = await formPost(testApp, '/token/revocation', { client_id: fixture.application.clientId });
    expect(answer.status).toBe(400);
    expect(answer.json.error).toBe('invalid_request');
  });
});

describe('introspection (RFC 7662): a client learns about its own tokens only', () => {
  it("another application's access token: { active: false }, nothing else", async () => {
    const tokens = await signedIn(fixture);
    expect(await introspect(other.config, tokens.access_token)).toEqual({ active: false });
  });

  it("another application's refresh token: { active: false }", async () => {
    const tokens = await signedIn(fixture);
    expect(await introspect(other.config, tokens.refresh_token!)).toEqual({ active: false });
  });

  it("the confidential client asking about another application's token: { active: false }", async () => {
    const tokens = await signedIn(fixture);
    expect(await introspect(confidentialConfig, tokens.access_token)).toEqual({ active: false });
  });

  it('a revoked access token: { active: false }', async () => {
    const tokens = await signedIn(fixture);
    await client.tokenRevocation(fixture.config, tokens.access_token);
    expect(await introspect(fixture.config, tokens.access_token)).toEqual({ active: false });
  });

  it('an active token of its own: active, with its workspace (the control of the cases above)', async () => {
    const tokens = await signedIn(fixture);
    expect(await introspect(fixture.config, tokens.access_token)).toMatchObject({
      active: true,
      client_id: fixture.application.clientId,
      sub: fixture.member.user.id,
      workspace_id: fixture.workspace.id,
    });
  });

  it('no client_id: invalid_request', async () => {
    const tokens = await signedIn(fixture);
    const answer = await formPost(testApp, '/token/introspection', { token: tokens.access_token });
    expect(answer.status).toBe(400);
    expect(answer.json.error).toBe('invalid_request');
  });
});

describe('userinfo (RFC 6750): only a live access token, in the Authorization header', () => {
  const userinfo = (headers: Record<string, string> = {}, query = '') =>
    rawGet(testApp.app, testApp.config.publicUrl, `/oidc/me${query}`, headers);

  it('no token: 401 with a Bearer challenge', async () => {
    const answer = await userinfo();
    expect(answer.status).toBe(401);
    expect(answer.json.error).toBe('invalid_token');
    expect([answer.headers['www-authenticate']].flat().join(' ')).toMatch(/^Bearer realm=/);
  });

  it.each([
    ['a refresh token', (tokens: Tokens) => tokens.refresh_token!],
    ['an ID token', (tokens: Tokens) => tokens.id_token!],
    ['a made-up token', () => 'bm90LWEtdG9rZW4tYXQtYWxsLW5vdC1ldmVuLWNsb3Nl'],
  ])('%s used as the access token: 401 invalid_token', async (_name, pick) => {
    const tokens = await signedIn(fixture);
    const answer = await userinfo({ authorization: `Bearer ${pick(tokens)}` });
    expect(answer.status).toBe(401);
    expect(answer.json.error).toBe('invalid_token');
    expect(String(answer.headers['www-authenticate'])).toContain('error="invalid_token"');
  });

  it('the access token in the query string: refused, invalid_request', async () => {
    const tokens = await signedIn(fixture);
    const answer = await userinfo({}, `?access_token=${encodeURIComponent(tokens.access_token)}`);
    expect(answer.status).toBe(400);
    expect(answer.json.error).toBe('invalid_request');
  });

  it('an access token past its 10 minutes: 401 invalid_token', async () => {
    const tokens = await signedIn(fixture);
    advanceClock(10 * 60 + 1);
    const answer = await userinfo({ authorization: `Bearer ${tokens.access_token}` });
    expect(answer.status).toBe(401);
    expect(answer.json.error).toBe('invalid_token');
  });

  it('an access token of a member since disabled: refused', async () => {
    const own = await portalFixture(testApp);
    const tokens = await signedIn(own);
    await disableMember(own);
    expect(await userinfoStatus(testApp, tokens.access_token)).toBe(401);
  });
});
