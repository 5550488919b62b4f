import { authenticationLevels, type TotpEnrolment } from '@dukkan/contract';
import { eq } from 'drizzle-orm';
import * as client from 'openid-client';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspaces } from '../../src/db/schema/index.ts';
import { api, dataOf, sessionCookieFrom } from '../helpers/api.ts';
import {
  authorizationRequest,
  type PortalFixture,
  portalFixture,
  signIn,
  signInThroughPortal,
} from '../helpers/oauth.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { refusal } from './negative-support.ts';

/*
 * The portal and a second factor, seen by openid-client: the ID token says how the person signed
 * in (`amr`, RFC 8176; `acr`), a client asking for multi-factor gets no code from a password-only
 * session, and a workspace that requires a second factor refuses password-only grants' refreshes.
 */

let testApp: TestApp;
let fixture: PortalFixture;
beforeAll(async () => {
  testApp = await createTestApp();
  fixture = await portalFixture(testApp);
});
afterAll(async () => {
  await testApp?.close();
});

/** Enrols an authenticator app for the fixture's member; the browser's session is then stepped up. */
async function enrolInBrowser() {
  const cookie = fixture.browser.cookieHeader();
  const started = await api(testApp.app, {
    url: '/api/auth/second-factors/totp/start',
    body: { password: fixture.member.user.password },
    cookie,
  });
  const { secret } = dataOf<TotpEnrolment>(started);
  const confirmed = await api(testApp.app, {
    url: '/api/auth/second-factors/totp',
    body: { name: 'Phone', code: await generate({ secret }) },
    cookie,
  });
  expect(confirmed.status, confirmed.text).toBe(200);
  fixture.browser.setCookie(sessionCookieFrom(confirmed));
}

describe('a second factor at the portal', () => {
  let passwordOnly: Awaited<ReturnType<typeof signIn>>;

  it('a password-only sign-in: amr pwd, acr password', async () => {
    passwordOnly = await signIn(fixture);
    const claims = passwordOnly.claims()!;
    expect(claims.amr).toEqual(['pwd']);
    expect(claims.acr).toBe(authenticationLevels.password);
  });

  it('a client asking for multi-factor gets no code from a password-only session', async () => {
    const request = await authorizationRequest(fixture, { acr_values: authenticationLevels.multiFactor });
    await expect(signInThroughPortal(fixture.browser, request.url, fixture.workspace.id)).rejects.toThrow(
      /Login answered 403 .*SECOND_FACTOR_REQUIRED/,
    );
  });

  it('after a second factor: amr pwd and otp, acr multi-factor, and the multi-factor request is granted', async () => {
    await enrolInBrowser();
    const tokens = await signIn(fixture);
    const claims = tokens.claims()!;
    expect(claims.amr).toEqual(['pwd', 'otp']);
    expect(claims.acr).toBe(authenticationLevels.multiFactor);

    const request = await authorizationRequest(fixture, { acr_values: authenticationLevels.multiFactor });
    const callback = await signInThroughPortal(fixture.browser, request.url, fixture.workspace.id);
    const granted = await client.authorizationCodeGrant(fixture.config, callback, {
      pkceCodeVerifier: request.verifier,
      expectedState: request.state,
      expectedNonce: request.nonce,
    });
    expect(granted.claims()!.acr).toBe(authenticationLevels.multiFactor);
  });

  it('once the workspace requires one, a password-only grant cannot refresh; a multi-factor one can', async () => {
    const multiFactor = await signIn(fixture);
    await testApp.db
      .update(workspaces)
      .set({ requireSecondFactor: true })
      .where(eq(workspaces.id, fixture.workspace.id));
    expect(await refusal(client.refreshTokenGrant(fixture.config, passwordOnly.refresh_token!))).toEqual({
      error: 'invalid_grant',
      status: 400,
    });
    const refreshed = await client.refreshTokenGrant(fixture.config, multiFactor.refresh_token!);
    expect(refreshed.access_token).toBeTruthy();
  });
});
