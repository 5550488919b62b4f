import { and, eq, sql } from 'drizzle-orm';
import * as client from 'openid-client';
import { expect } from 'vitest';
import { oauthGrants, oauthModels } from '../../src/db/schema/index.ts';
import { hashToken } from '../../src/http/tokens.ts';
import { insertApplication, insertSubscription } from '../helpers/applications.ts';
import {
  authorizationRequest,
  clientFor,
  type Injector,
  type PkceRequest,
  type PortalFixture,
  signInThroughPortal,
  type TestBrowser,
} from '../helpers/oauth.ts';
import type { TestApp } from '../helpers/test-app.ts';

/*
 * What the portal's negative tests share: raw requests where openid-client would refuse to send
 * the bad one, a second application installed in the fixture's workspace, and a confidential one.
 */

interface RawAnswer {
  status: number;
  json: Record<string, unknown>;
  headers: Record<string, unknown>;
  body: string;
}

/** A form POST to one of the provider's endpoints (`/oidc/token`…), the body given as is. */
export async function formPost(
  testApp: TestApp,
  path: string,
  form: Record<string, string> | string,
  headers: Record<string, string> = {},
): Promise<RawAnswer> {
  const response = await testApp.app.inject({
    method: 'POST',
    url: `/oidc${path}`,
    headers: {
      host: new URL(testApp.config.publicUrl).host,
      'content-type': 'application/x-www-form-urlencoded',
      ...headers,
    },
    payload: typeof form === 'string' ? form : new URLSearchParams(form).toString(),
  });
  return answerOf(response);
}

export async function rawGet(
  app: Injector,
  publicUrl: string,
  url: string,
  headers: Record<string, string> = {},
): Promise<RawAnswer> {
  const response = await app.inject({
    method: 'GET',
    url,
    headers: { host: new URL(publicUrl).host, ...headers },
  });
  return answerOf(response);
}

function answerOf(response: {
  statusCode: number;
  body: string;
  headers: Record<string, unknown>;
}): RawAnswer {
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(response.body) as Record<string, unknown>;
  } catch {
    // Not JSON: left empty.
  }
  return { status: response.statusCode, json, headers: response.headers, body: response.body };
}

/** HTTP Basic client authentication (RFC 6749 §2.3.1: both parts form-encoded). */
export function basicAuthorization(clientId: string, secret: string): Record<string, string> {
  const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, '+');
  return {
    authorization: `Basic ${Buffer.from(`${encode(clientId)}:${encode(secret)}`).toString('base64')}`,
  };
}

/** A browser request with the headers given (Fetch Metadata of a navigation, another site…). */
export async function browserGet(
  browser: TestBrowser,
  url: string,
  headers: Record<string, string>,
): Promise<RawAnswer> {
  return rawGet(browser.app, browser.publicUrl, url, {
    ...(browser.cookies.size > 0 ? { cookie: browser.cookieHeader() } : {}),
    ...headers,
  });
}

interface StartedSignIn {
  request: PkceRequest;
  callback: URL;
  code: string;
}

/** The browser's leg of a sign-in: the callback URL with its code, not yet redeemed. */
export async function codeFor(
  fixture: Pick<PortalFixture, 'config' | 'redirectUri' | 'browser' | 'workspace'>,
  extra: Record<string, string> = {},
): Promise<StartedSignIn> {
  const request = await authorizationRequest(fixture, extra);
  const callback = await signInThroughPortal(fixture.browser, request.url, fixture.workspace.id);
  return { request, callback, code: callback.searchParams.get('code')! };
}

/** The code redeemed by openid-client as the client that asked for it would. */
export function redeem(config: client.Configuration, started: StartedSignIn, callback = started.callback) {
  return client.authorizationCodeGrant(config, callback, {
    pkceCodeVerifier: started.request.verifier,
    expectedState: started.request.state,
    expectedNonce: started.request.nonce,
  });
}

export type Tokens = Awaited<ReturnType<typeof redeem>>;

/** A whole sign-in: the code and the tokens it was exchanged for. */
export async function signedIn(
  fixture: Pick<PortalFixture, 'config' | 'redirectUri' | 'browser' | 'workspace'>,
): Promise<Tokens> {
  return redeem(fixture.config, await codeFor(fixture));
}

/** The error an openid-client call was refused with (`ResponseBodyError.error`). */
export async function refusal(promise: Promise<unknown>): Promise<{ error: string; status: number }> {
  const error = await promise.then(
    () => {
      throw new Error('Expected the request to be refused, it succeeded');
    },
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(client.ResponseBodyError);
  const { error: code, status } = error as client.ResponseBodyError;
  return { error: code, status };
}

/** Whether userinfo still answers the access token (200), or refuses it (401). */
export async function userinfoStatus(testApp: TestApp, accessToken: string): Promise<number> {
  const answer = await rawGet(testApp.app, testApp.config.publicUrl, '/oidc/me', {
    authorization: `Bearer ${accessToken}`,
  });
  return answer.status;
}

/** Another application (a public client) the fixture's workspace has installed, with its config. */
export async function anotherInstalledApplication(testApp: TestApp, workspaceId: string) {
  const application = await insertApplication(testApp.db);
  await installIn(testApp, workspaceId, application.id);
  const config = await clientFor(testApp, application.clientId);
  return { application, config, redirectUri: application.redirectUris[0]! };
}

async function installIn(testApp: TestApp, workspaceId: string, applicationId: string) {
  await insertSubscription(testApp.db, workspaceId, applicationId, 'freeTrial', {
    startDate: new Date(),
    endDate: new Date(Date.now() + 14 * 24 * 60 * 60 * 1000),
  });
}

/** A confidential client installed in the workspace: its secret stored as SHA-256, as the operator's. */
export async function confidentialApplication(testApp: TestApp, workspaceId: string, secret: string) {
  const application = await insertApplication(testApp.db, {
    clientType: 'confidential',
    secretHash: hashToken(secret),
  });
  await installIn(testApp, workspaceId, application.id);
  return { application, redirectUri: application.redirectUris[0]! };
}

/** How many codes the provider has issued to the client, and grants the portal recorded for it. */
export async function issuedTo(testApp: TestApp, clientId: string, applicationId: string) {
  const [codes] = await testApp.db
    .select({ count: sql<number>`count(*)::int` })
    .from(oauthModels)
    .where(
      and(eq(oauthModels.model, 'AuthorizationCode'), sql`${oauthModels.payload}->>'clientId' = ${clientId}`),
    );
  const [grants] = await testApp.db
    .select({ count: sql<number>`count(*)::int` })
    .from(oauthGrants)
    .where(eq(oauthGrants.applicationId, applicationId));
  return { codes: codes!.count, grants: grants!.count };
}
