import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizationRequest, injectFetch, portalFixture, signInThroughPortal } from '../helpers/oauth.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

let testApp: TestApp;
beforeAll(async () => {
  testApp = await createTestApp();
});
afterAll(async () => {
  await testApp.close();
});

describe('the sign-in portal, driven by openid-client', () => {
  it('signs a member in: discovery, PKCE, the portal, code, userinfo, refresh, revocation', async () => {
    const fixture = await portalFixture(testApp);
    const request = await authorizationRequest(fixture);
    expect(request.url.pathname).toBe('/authenticate');

    const callback = await signInThroughPortal(fixture.browser, request.url, fixture.workspace.id);
    expect(callback.origin + callback.pathname).toBe(fixture.redirectUri);
    const tokens = await client.authorizationCodeGrant(fixture.config, callback, {
      pkceCodeVerifier: request.verifier,
      expectedState: request.state,
      expectedNonce: request.nonce,
    });
    const claims = tokens.claims()!;
    expect(claims.sub).toBe(fixture.member.user.id);
    expect(claims.workspace_id).toBe(fixture.workspace.id);
    expect(tokens.refresh_token).toBeTruthy();

    const userinfo = await client.fetchUserInfo(fixture.config, tokens.access_token, claims.sub);
    expect(userinfo).toMatchObject({
      sub: fixture.member.user.id,
      email: fixture.member.user.email,
      workspace_id: fixture.workspace.id,
      workspace_name: fixture.workspace.name,
    });

    const refreshed = await client.refreshTokenGrant(fixture.config, tokens.refresh_token!);
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    await client.tokenRevocation(fixture.config, refreshed.refresh_token!);
    await expect(client.refreshTokenGrant(fixture.config, refreshed.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
  });
});

describe('discovery', () => {
  it('OpenID (issuer/.well-known/openid-configuration) and RFC 8414 (/.well-known/oauth-authorization-server/oidc) agree', async () => {
    const { application } = await portalFixture(testApp);
    const issuer = new URL(`${testApp.config.publicUrl}/oidc`);
    const options = {
      [client.customFetch]: injectFetch(testApp.app, testApp.config.publicUrl),
      execute: [client.allowInsecureRequests],
    };
    const openid = await client.discovery(issuer, application.clientId, undefined, undefined, options);
    const oauth = await client.discovery(issuer, application.clientId, undefined, undefined, {
      ...options,
      algorithm: 'oauth2',
    });
    const metadata = oauth.serverMetadata();
    expect(metadata).toEqual(openid.serverMetadata());
    expect(metadata.issuer).toBe(issuer.href);
    expect(metadata.authorization_endpoint).toBe(`${testApp.config.publicUrl}/authenticate`);
    expect(metadata.code_challenge_methods_supported).toEqual(['S256']);
    expect(metadata.grant_types_supported).toEqual(
      expect.arrayContaining(['authorization_code', 'refresh_token']),
    );
  });
});

describe('signing out of an application (RP-initiated logout)', () => {
  it('asks, in one language, and lets the confirmation lead back to the application only', async () => {
    const fixture = await portalFixture(testApp);
    const request = await authorizationRequest(fixture);
    const callback = await signInThroughPortal(fixture.browser, request.url, fixture.workspace.id);
    const tokens = await client.authorizationCodeGrant(fixture.config, callback, {
      pkceCodeVerifier: request.verifier,
      expectedState: request.state,
      expectedNonce: request.nonce,
    });
    const home = fixture.application.homeUrl;
    const endSession = client.buildEndSessionUrl(fixture.config, {
      id_token_hint: tokens.id_token!,
      post_logout_redirect_uri: home,
    });
    const page = await fixture.browser.get(endSession.href);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`Sign out of ${fixture.application.nameEn}?`);
    // One language (provider-pages.test.ts chooses it), not both stacked.
    expect(page.text).not.toContain('تسجيل الخروج');
    expect(page.text).not.toContain('<script');
    const policy = String(page.headers['content-security-policy']);
    expect(policy).toContain(`form-action 'self' ${new URL(home).origin}`);
    expect(policy).toContain("script-src 'self'");

    // Another address than the application's registered home is refused, not followed.
    const elsewhere = client.buildEndSessionUrl(fixture.config, {
      id_token_hint: tokens.id_token!,
      post_logout_redirect_uri: 'https://evil.example/',
    });
    const refused = await fixture.browser.get(elsewhere.href);
    expect(refused.location ?? '').not.toContain('evil.example');
  });
});

describe('CORS', () => {
  it("answers a browser application's calls from the origins of its redirect URIs only", async () => {
    const { application } = await portalFixture(testApp);
    const own = new URL(application.redirectUris[0]!).origin;
    const preflight = (origin: string) =>
      testApp.app.inject({
        method: 'OPTIONS',
        url: '/oidc/token',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type',
        },
      });
    const allowed = await preflight(own);
    expect(allowed.headers['access-control-allow-origin']).toBe(own);
    const token = await testApp.app.inject({
      method: 'POST',
      url: '/oidc/token',
      headers: { origin: own, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `grant_type=authorization_code&code=nothing&client_id=${application.clientId}&redirect_uri=${encodeURIComponent(application.redirectUris[0]!)}&code_verifier=${'a'.repeat(43)}`,
    });
    expect(token.headers['access-control-allow-origin']).toBe(own);
    const other = await testApp.app.inject({
      method: 'POST',
      url: '/oidc/token',
      headers: { origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' },
      payload: `grant_type=authorization_code&code=nothing&client_id=${application.clientId}&redirect_uri=${encodeURIComponent(application.redirectUris[0]!)}&code_verifier=${'a'.repeat(43)}`,
    });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });
});
