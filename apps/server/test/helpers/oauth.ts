import type { FastifyInstance } from 'fastify';
import * as client from 'openid-client';
import { appFetchHeaders } from './api.ts';
import { type ApplicationRow, insertApplication, insertSubscription } from './applications.ts';
import type { TestApp } from './test-app.ts';
import { addMember, createWorkspace, type TestMember } from './workspaces.ts';

/*
 * The sign-in portal driven as a client application and a browser would, in process: the client
 * is openid-client, unmodified, whose requests reach the app through `app.inject`; the browser is a
 * cookie jar that follows the portal's redirects and makes the page's Login call.
 */

/** openid-client's fetch, answered by the app in process (with the public URL's host). */
export function injectFetch(app: FastifyInstance, publicUrl: string): client.CustomFetch {
  const host = new URL(publicUrl).host;
  return async (url, options) => {
    const target = new URL(url);
    const headers: Record<string, string> = {};
    new Headers(options.headers as ConstructorParameters<typeof Headers>[0]).forEach((value, name) => {
      headers[name] = value;
    });
    const response = await app.inject({
      method: options.method as 'GET' | 'POST',
      url: `${target.pathname}${target.search}`,
      headers: { ...headers, host },
      ...(options.body !== undefined && options.body !== null ? { payload: String(options.body) } : {}),
    });
    const responseHeaders = new Headers();
    for (const [name, value] of Object.entries(response.headers)) {
      if (value === undefined) continue;
      for (const one of [value].flat()) responseHeaders.append(name, String(one));
    }
    const empty = response.statusCode === 204 || response.statusCode === 304;
    return new Response(empty ? null : response.rawPayload, {
      status: response.statusCode,
      headers: responseHeaders,
    });
  };
}

/** What the browser sends its requests through: the app in process, or a real socket (`httpInjector`). */
export interface Injector {
  inject(options: {
    method: 'GET' | 'POST';
    url: string;
    headers: Record<string, string>;
    payload?: string;
  }): Promise<{
    statusCode: number;
    headers: Record<string, string | string[] | number | undefined>;
    body: string;
  }>;
}

/** An `Injector` that sends each request over HTTP to `baseUrl` (a proxy in front of processes). */
export function httpInjector(baseUrl: string): Injector {
  return {
    async inject({ method, url, headers, payload }) {
      const response = await fetch(new URL(url, baseUrl), {
        method,
        headers,
        body: payload,
        redirect: 'manual',
      });
      const answerHeaders: Record<string, string | string[]> = {};
      response.headers.forEach((value, name) => {
        answerHeaders[name] = value;
      });
      const cookies = response.headers.getSetCookie();
      if (cookies.length > 0) answerHeaders['set-cookie'] = cookies;
      return { statusCode: response.status, headers: answerHeaders, body: await response.text() };
    },
  };
}

export interface BrowserResponse {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  location: string | undefined;
  json: unknown;
  text: string;
}

/** A browser's cookie jar on the app's origin; requests are navigations unless told otherwise. */
export class TestBrowser {
  readonly cookies = new Map<string, string>();
  constructor(
    readonly app: Injector,
    readonly publicUrl: string,
  ) {}

  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  /** Adds a `name=value` cookie (a Dukkan session from `addMember`). */
  setCookie(pair: string) {
    const [name, ...rest] = pair.split('=');
    this.cookies.set(name!, rest.join('='));
  }

  async get(
    url: string,
    kind: 'navigate' | 'fetch' = 'navigate',
    extraHeaders: Record<string, string> = {},
  ): Promise<BrowserResponse> {
    const target = new URL(url, this.publicUrl);
    const response = await this.app.inject({
      method: 'GET',
      url: `${target.pathname}${target.search}`,
      headers: {
        host: new URL(this.publicUrl).host,
        cookie: this.cookieHeader(),
        ...(kind === 'fetch'
          ? appFetchHeaders
          : { 'sec-fetch-site': 'cross-site', 'sec-fetch-dest': 'document', 'sec-fetch-mode': 'navigate' }),
        ...extraHeaders,
      },
    });
    for (const header of [response.headers['set-cookie'] ?? []].flat()) {
      const [pair, ...attributes] = String(header).split(';');
      const [name, ...rest] = pair!.split('=');
      const value = rest.join('=');
      const expired = attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute)) || value === '';
      if (expired) this.cookies.delete(name!.trim());
      else this.cookies.set(name!.trim(), value);
    }
    let json: unknown;
    try {
      json = JSON.parse(response.body);
    } catch {
      json = undefined;
    }
    const location = response.headers.location;
    return {
      status: response.statusCode,
      headers: response.headers,
      location: typeof location === 'string' ? new URL(location, this.publicUrl).href : undefined,
      json,
      text: response.body,
    };
  }
}

export interface PortalFixture {
  workspace: { id: string; name: string };
  member: TestMember;
  application: ApplicationRow;
  redirectUri: string;
  config: client.Configuration;
  browser: TestBrowser;
}

/**
 * A workspace with an admin who is signed in to Dukkan in `browser`, an application (a public
 * client) the workspace has in its free trial, and openid-client configured for it by discovery.
 */
export async function portalFixture(
  testApp: TestApp,
  options: { applicationFields?: Parameters<typeof insertApplication>[1] } = {},
): Promise<PortalFixture> {
  const { app, db, config: appConfig } = testApp;
  const workspace = await createWorkspace(db);
  const member = await addMember(db, workspace.id, { isAdmin: true });
  const application = await insertApplication(db, options.applicationFields);
  await insertSubscription(db, workspace.id, application.id, 'freeTrial', {
    startDate: new Date(),
    endDate: new Date(Date.now() + 14 * 24 * 60 * 60 * 1000),
  });
  const config = await clientFor(testApp, application.clientId);
  const browser = new TestBrowser(app, appConfig.publicUrl);
  browser.setCookie(member.cookie);
  return { workspace, member, application, redirectUri: application.redirectUris[0]!, config, browser };
}

/** openid-client's configuration of a client, by discovery of the app's issuer. */
export function clientFor(
  testApp: TestApp,
  clientId: string,
  clientAuthentication?: client.ClientAuth,
  metadata?: Partial<client.ClientMetadata>,
): Promise<client.Configuration> {
  return client.discovery(
    new URL(`${testApp.config.publicUrl}/oidc`),
    clientId,
    metadata,
    clientAuthentication,
    {
      [client.customFetch]: injectFetch(testApp.app, testApp.config.publicUrl),
      execute: [client.allowInsecureRequests],
    },
  );
}

export interface PkceRequest {
  url: URL;
  verifier: string;
  state: string;
  nonce: string;
}

/** An authorization request as a client builds it: PKCE S256, state and nonce. */
export async function authorizationRequest(
  fixture: Pick<PortalFixture, 'config' | 'redirectUri'>,
  extra: Record<string, string> = {},
): Promise<PkceRequest> {
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(fixture.config, {
    redirect_uri: fixture.redirectUri,
    scope: 'openid profile email',
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    ...extra,
  });
  return { url, verifier, state, nonce };
}

/**
 * The browser's leg: the authorization request, the portal page's Login call in `workspaceId`,
 * and the provider's redirect back to the client. Returns the callback URL (with the code).
 */
export async function signInThroughPortal(
  browser: TestBrowser,
  authorizationUrl: URL,
  workspaceId: string,
): Promise<URL> {
  const start = await browser.get(authorizationUrl.href);
  if (start.status !== 303 || !start.location?.includes('/authenticate?')) {
    throw new Error(`The authorization request answered ${start.status} ${start.location ?? start.text}`);
  }
  const page = new URL(start.location);
  page.searchParams.set('workspaceId', workspaceId);
  const login = await browser.get(`/api/oauth/authorize/client-side${page.search}`, 'fetch');
  if (login.status !== 200) throw new Error(`Login answered ${login.status} ${login.text}`);
  let next = (login.json as { data: { redirect: string } }).data.redirect;
  for (let hops = 0; hops < 5; hops++) {
    if (!next.startsWith(browser.publicUrl)) return new URL(next);
    const response = await browser.get(next);
    if (!response.location)
      throw new Error(`The portal stopped at ${next}: ${response.status} ${response.text}`);
    next = response.location;
  }
  throw new Error('The portal redirected too many times');
}

/** What a client holds after a sign-in: the token endpoint's answer (openid-client's). */
export type SignInTokens = client.TokenEndpointResponse & client.TokenEndpointResponseHelpers;

/**
 * A whole sign-in as the client sees it: the authorization request, the portal in `workspaceId`
 * (the fixture's workspace unless told), and the code exchanged for tokens.
 */
export async function signIn(
  fixture: Pick<PortalFixture, 'config' | 'redirectUri' | 'browser' | 'workspace'>,
  options: { browser?: TestBrowser; workspaceId?: string } = {},
): Promise<SignInTokens> {
  const request = await authorizationRequest(fixture);
  const callback = await signInThroughPortal(
    options.browser ?? fixture.browser,
    request.url,
    options.workspaceId ?? fixture.workspace.id,
  );
  return client.authorizationCodeGrant(fixture.config, callback, {
    pkceCodeVerifier: request.verifier,
    expectedState: request.state,
    expectedNonce: request.nonce,
  });
}

/** How a sign-in stands: its access token's introspection, then a refresh's answer. */
interface SignInState {
  /** `active` of the access token's introspection. */
  active: boolean;
  /** `ok`, or the OAuth error the refresh answered (e.g. `invalid_grant`). */
  refresh: string;
  /** The refresh's new tokens when it succeeded (the old refresh token is then spent). */
  refreshed?: SignInTokens;
}

export async function signInState(config: client.Configuration, tokens: SignInTokens): Promise<SignInState> {
  const { active } = await client.tokenIntrospection(config, tokens.access_token, {
    token_type_hint: 'access_token',
  });
  try {
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
    return { active, refresh: 'ok', refreshed };
  } catch (error) {
    const code = (error as { error?: unknown }).error;
    if (typeof code !== 'string') throw error;
    return { active, refresh: code };
  }
}

/** A form POST to one of the provider's endpoints (`/oidc/token`…), as a client sends it. */
export async function oidcPost(
  app: FastifyInstance,
  publicUrl: string,
  path: string,
  form: Record<string, string>,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await app.inject({
    method: 'POST',
    url: `/oidc${path}`,
    headers: { host: new URL(publicUrl).host, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(form).toString(),
  });
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(response.body) as Record<string, unknown>;
  } catch {
    // Not JSON: left empty.
  }
  return { status: response.statusCode, json };
}

/**
 * Follows the browser's redirects from `url` while they stay on the app, and returns where it
 * left for the client (or where it stopped), with every address it went through on the app.
 */
export async function followToClient(
  browser: TestBrowser,
  url: string,
): Promise<{ url: URL; visited: string[] }> {
  const visited: string[] = [];
  let next = url;
  for (let hops = 0; hops < 8; hops++) {
    if (!next.startsWith(browser.publicUrl)) return { url: new URL(next), visited };
    visited.push(next);
    const response = await browser.get(next);
    if (!response.location) return { url: new URL(next), visited };
    next = response.location;
  }
  throw new Error(`Too many redirects: ${visited.join(' → ')}`);
}
