import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { memberships, subscriptions } from '../../src/db/schema/index.ts';
import { appFetchHeaders } from '../helpers/api.ts';
import { insertApplication } from '../helpers/applications.ts';
import {
  authorizationRequest,
  type BrowserResponse,
  type PortalFixture,
  portalFixture,
  TestBrowser,
} from '../helpers/oauth.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { addMember, createWorkspace } from '../helpers/workspaces.ts';
import { anotherInstalledApplication, browserGet, codeFor, issuedTo, redeem } from './negative-support.ts';

/*
 * The authorization endpoint (`/authenticate`, handed to the provider's /auth) and the portal
 * page's Login call, refusing what RFC 6749 §4.1.2.1, RFC 7636, RFC 9700 §4.1 and OpenID Connect
 * Core §3.1.2.6 say to refuse: a redirect URI not registered exactly is never followed (the
 * portal shows the error on Dukkan's own origin); an error found once the redirect URI is known
 * goes back to it, with `state` and `iss` (RFC 9207).
 */

let testApp: TestApp;
let fixture: PortalFixture;
let issuer: string;
beforeAll(async () => {
  testApp = await createTestApp();
  fixture = await portalFixture(testApp);
  issuer = `${testApp.config.publicUrl}/oidc`;
});
afterAll(async () => {
  await testApp.close();
});
afterEach(() => {
  vi.useRealTimers();
});

/** A browser with no Dukkan session (nothing in its jar). */
const freshBrowser = () => new TestBrowser(testApp.app, testApp.config.publicUrl);

/** The authorization request with its parameters changed by `mutate` (which returns the query). */
async function authorize(
  mutate: (params: URLSearchParams) => string | undefined,
  browser: TestBrowser = freshBrowser(),
) {
  const request = await authorizationRequest(fixture);
  const params = new URLSearchParams(request.url.search);
  const query = mutate(params) ?? params.toString();
  return { request, answer: await browser.get(`/authenticate?${query}`) };
}

/** Refused on Dukkan's own origin: the portal page with the error, no interaction, nothing followed. */
function expectShownOnPortal(answer: BrowserResponse, error: string) {
  expect(answer.status).toBe(303);
  const location = new URL(answer.location!);
  expect(location.origin).toBe(new URL(testApp.config.publicUrl).origin);
  expect(location.pathname).toBe('/authenticate');
  expect(location.searchParams.get('error')).toBe(error);
  expect(location.searchParams.get('error_description')).toBeTruthy();
  expect(location.searchParams.has('interaction')).toBe(false);
  expect(location.searchParams.has('code')).toBe(false);
}

/** Sent back to the client's registered redirect URI with the error, its state and the issuer. */
function expectBackToClient(
  answer: BrowserResponse,
  error: string,
  state: string | null,
  where: 'query' | 'fragment' = 'query',
) {
  expect(answer.status).toBe(303);
  const location = new URL(answer.location!);
  expect(`${location.origin}${location.pathname}`).toBe(fixture.redirectUri);
  const params = new URLSearchParams(where === 'query' ? location.search : location.hash.slice(1));
  expect(params.get('error')).toBe(error);
  expect(params.get('state')).toBe(state);
  expect(params.get('iss')).toBe(issuer);
  expect(params.has('code')).toBe(false);
}

describe('the authorization endpoint refuses an unknown or unnamed client on the portal', () => {
  it('an unknown client_id goes to /404 on Dukkan, never to the redirect_uri it names', async () => {
    const { answer } = await authorize((params) => {
      params.set('client_id', 'no-such-application');
      return undefined;
    });
    expect(answer.status).toBe(303);
    expect(answer.location).toBe(new URL('/404', testApp.config.publicUrl).href);
  });

  it.each([
    ['upper case and spaces', 'Demo App'],
    ['over 60 characters', 'a'.repeat(61)],
  ])('a client_id with %s (no application can have it) goes to /404', async (_name, clientId) => {
    const { answer } = await authorize((params) => {
      params.set('client_id', clientId);
      return undefined;
    });
    expect(answer.status).toBe(303);
    expect(answer.location).toBe(new URL('/404', testApp.config.publicUrl).href);
  });

  it('a client_id with a NUL character: invalid_request on the portal page (refused before any lookup)', async () => {
    const { answer } = await authorize((params) => {
      params.set('client_id', 'app\u0000');
      return undefined;
    });
    expectShownOnPortal(answer, 'invalid_request');
  });

  it('a missing client_id: invalid_request on the portal page', async () => {
    const { answer } = await authorize((params) => {
      params.delete('client_id');
      return undefined;
    });
    expectShownOnPortal(answer, 'invalid_request');
  });

  it('client_id given twice: invalid_request on the portal page (which client is not known)', async () => {
    const { answer } = await authorize((params) => `${params}&client_id=${fixture.application.clientId}`);
    expectShownOnPortal(answer, 'invalid_request');
    expect(new URL(answer.location!).searchParams.get('error_description')).toContain('twice');
  });
});

describe('a redirect URI not registered exactly is never followed (RFC 9700 §4.1.3: exact string match)', () => {
  const registered = () => new URL(fixture.redirectUri);
  const variants: [string, () => string | Promise<string>][] = [
    ['a trailing slash', () => `${fixture.redirectUri}/`],
    ['the whole URI in capitals', () => fixture.redirectUri.toUpperCase()],
    ['the path in another case', () => fixture.redirectUri.replace('/callback', '/Callback')],
    ['the host in another case', () => fixture.redirectUri.replace('.example', '.EXAMPLE')],
    ['an extra path segment', () => `${fixture.redirectUri}/extra`],
    ['a dot segment leading back to the path', () => `${registered().origin}/other/../callback`],
    ['an added query', () => `${fixture.redirectUri}?next=https://evil.example/`],
    ['an empty query', () => `${fixture.redirectUri}?`],
    ['a fragment', () => `${fixture.redirectUri}#fragment`],
    ['userinfo before the host', () => fixture.redirectUri.replace('https://', 'https://user:pass@')],
    [
      'the registered host as userinfo of another',
      () => `https://${registered().host}@evil.example/callback`,
    ],
    ['another port', () => fixture.redirectUri.replace('.example/', '.example:8443/')],
    ['the default port written out', () => fixture.redirectUri.replace('.example/', '.example:443/')],
    ['http instead of https', () => fixture.redirectUri.replace('https://', 'http://')],
    ['a percent-encoded letter in the path', () => fixture.redirectUri.replace('callback', 'c%61llback')],
    ['a percent-encoded slash', () => fixture.redirectUri.replace('/callback', '%2Fcallback')],
    ['a subdomain of the registered host', () => fixture.redirectUri.replace('https://', 'https://evil.')],
    [
      'the registered host as a prefix of another',
      () => `https://${registered().host}.evil.example/callback`,
    ],
    ['another host with the registered path', () => 'https://evil.example/callback'],
    ['a javascript: URI', () => 'javascript:alert(document.domain)//'],
    ['a custom scheme', () => 'com.evil.app:/callback'],
    ['a relative reference', () => '/callback'],
    ['a leading space', () => ` ${fixture.redirectUri}`],
    [
      "another application's registered redirect URI",
      async () => (await insertApplication(testApp.db)).redirectUris[0]!,
    ],
  ];

  it.each(variants)('%s: invalid_redirect_uri shown on the portal page', async (_name, variant) => {
    const redirectUri = await variant();
    const { answer } = await authorize((params) => {
      params.set('redirect_uri', redirectUri);
      return undefined;
    });
    expectShownOnPortal(answer, 'invalid_redirect_uri');
  });

  it('a redirect_uri omitted by a client that registered one (OIDC Core §3.1.2.1): invalid_request on the portal page', async () => {
    const { answer } = await authorize((params) => {
      params.delete('redirect_uri');
      return undefined;
    });
    expectShownOnPortal(answer, 'invalid_request');
  });

  it('a redirect_uri given twice: invalid_request on the portal page (neither is followed)', async () => {
    const { answer } = await authorize(
      (params) => `${params}&redirect_uri=${encodeURIComponent(params.get('redirect_uri')!)}`,
    );
    expectShownOnPortal(answer, 'invalid_request');
  });

  it.each([
    ['omitted', (params: URLSearchParams) => params.delete('redirect_uri')],
    ['empty', (params: URLSearchParams) => params.set('redirect_uri', '')],
  ])(
    'a redirect_uri %s when the client registered two: invalid_request on the portal page',
    async (_name, change) => {
      const application = await insertApplication(testApp.db, {
        redirectUris: ['https://two.example/a', 'https://two.example/b'],
      });
      const { answer } = await authorize((params) => {
        params.set('client_id', application.clientId);
        change(params);
        return undefined;
      });
      expectShownOnPortal(answer, 'invalid_request');
    },
  );
});

describe('errors found once the redirect URI is known go back to the client with state and iss', () => {
  type Mutation = (params: URLSearchParams) => string | undefined;
  const set =
    (name: string, value: string): Mutation =>
    (params) => {
      params.set(name, value);
      return undefined;
    };
  const without =
    (...names: string[]): Mutation =>
    (params) => {
      for (const name of names) params.delete(name);
      return undefined;
    };
  /** The parameter a second time (its own value unless given): RFC 6749 §3.1. */
  const twice =
    (name: string, value?: string): Mutation =>
    (params) =>
      `${params}&${name}=${encodeURIComponent(value ?? params.get(name) ?? '')}`;

  const cases: [string, string, 'query' | 'fragment', Mutation][] = [
    [
      'PKCE missing (RFC 9700 §2.1.1: required of every client)',
      'invalid_request',
      'query',
      without('code_challenge', 'code_challenge_method'),
    ],
    ['code_challenge_method=plain', 'invalid_request', 'query', set('code_challenge_method', 'plain')],
    [
      'code_challenge without its method (plain, RFC 7636 §4.3)',
      'invalid_request',
      'query',
      without('code_challenge_method'),
    ],
    ['code_challenge_method unknown', 'invalid_request', 'query', set('code_challenge_method', 'S512')],
    ['code_challenge_method without a code_challenge', 'invalid_request', 'query', without('code_challenge')],
    ['a code_challenge of 42 characters', 'invalid_request', 'query', set('code_challenge', 'a'.repeat(42))],
    [
      'a code_challenge of 129 characters',
      'invalid_request',
      'query',
      set('code_challenge', 'a'.repeat(129)),
    ],
    [
      'a code_challenge outside the unreserved characters',
      'invalid_request',
      'query',
      set('code_challenge', '!'.repeat(43)),
    ],
    ['response_type missing', 'invalid_request', 'query', without('response_type')],
    [
      'response_type=token (implicit, RFC 9700 §2.1.2)',
      'unsupported_response_type',
      'fragment',
      set('response_type', 'token'),
    ],
    [
      'response_type=code id_token (hybrid)',
      'unsupported_response_type',
      'fragment',
      set('response_type', 'code id_token'),
    ],
    ['a nonce without the openid scope', 'invalid_request', 'query', set('scope', 'profile')],
    ['code_challenge given twice', 'invalid_request', 'query', twice('code_challenge')],
    ['scope given twice', 'invalid_request', 'query', twice('scope', 'openid')],
    ['response_type given twice', 'invalid_request', 'query', twice('response_type')],
    ['nonce given twice', 'invalid_request', 'query', twice('nonce', 'another-nonce')],
    [
      'a request object (unsigned)',
      'request_not_supported',
      'query',
      set('request', 'eyJhbGciOiJub25lIn0.eyJzY29wZSI6Im9wZW5pZCJ9.'),
    ],
    [
      'a request_uri on another host',
      'request_uri_not_supported',
      'query',
      set('request_uri', 'https://evil.example/request.jwt'),
    ],
    ['an invalid max_age', 'invalid_request', 'query', set('max_age', 'soon')],
    ['prompt=none with another prompt', 'invalid_request', 'query', set('prompt', 'none login')],
    [
      'prompt=none without a session (OpenID Connect Core §3.1.2.6)',
      'login_required',
      'query',
      set('prompt', 'none'),
    ],
  ];

  it.each(cases)('%s: %s', async (_name, error, where, mutate) => {
    const { request, answer } = await authorize(mutate);
    expectBackToClient(answer, error, request.state, where);
  });

  it('state given twice: invalid_request, and no state echoed (which one is not known)', async () => {
    const { answer } = await authorize((params) => `${params}&state=another-state`);
    expectBackToClient(answer, 'invalid_request', null);
  });

  it('prompt=none signed in to Dukkan, but never signed in to the application: login_required', async () => {
    const { request, answer } = await authorize((params) => {
      params.set('prompt', 'none');
      return undefined;
    }, fixture.browser);
    expectBackToClient(answer, 'login_required', request.state);
  });

  it('an unknown scope is not granted: the interaction and the tokens carry only the known ones', async () => {
    const started = await codeFor(fixture, { scope: 'openid profile admin payments:write' });
    const tokens = await redeem(fixture.config, started);
    expect(tokens.scope?.split(' ').sort()).toEqual(['openid', 'profile']);
  });
});

describe("the portal's Login call (GET /api/oauth/authorize/client-side) grants no code when refused", () => {
  /** Opens an interaction in `browser` and returns the Login call's URL for `workspaceId`. */
  async function loginCallFor(browser: TestBrowser, workspaceId: string, clientFixture = fixture) {
    const request = await authorizationRequest(clientFixture);
    const start = await browser.get(request.url.href);
    expect(start.status).toBe(303);
    const page = new URL(start.location!);
    expect(page.searchParams.get('interaction')).toBeTruthy();
    page.searchParams.set('workspaceId', workspaceId);
    return `/api/oauth/authorize/client-side${page.search}`;
  }

  /** A fixture of its own (application, workspace, signed-in admin): nothing else issues it codes. */
  async function isolated() {
    return portalFixture(testApp);
  }

  async function expectNothingIssued(own: PortalFixture) {
    expect(await issuedTo(testApp, own.application.clientId, own.application.id)).toEqual({
      codes: 0,
      grants: 0,
    });
  }

  it.each([
    [
      'another site (Sec-Fetch-Site: cross-site)',
      { 'sec-fetch-site': 'cross-site', 'sec-fetch-dest': 'empty' },
    ],
    [
      'a sibling site (Sec-Fetch-Site: same-site)',
      { 'sec-fetch-site': 'same-site', 'sec-fetch-dest': 'empty' },
    ],
    [
      'a navigation (Sec-Fetch-Dest: document)',
      { 'sec-fetch-site': 'same-origin', 'sec-fetch-dest': 'document', 'sec-fetch-mode': 'navigate' },
    ],
    ['an image (Sec-Fetch-Dest: image)', { 'sec-fetch-site': 'same-origin', 'sec-fetch-dest': 'image' }],
    ['another Origin', { ...appFetchHeaders, origin: 'https://evil.example' }],
    ['no Fetch Metadata nor the app client header', {}],
  ])('from %s: 403 and no code', async (_name, headers) => {
    const own = await isolated();
    const url = await loginCallFor(own.browser, own.workspace.id, own);
    const answer = await browserGet(own.browser, url, headers);
    expect(answer.status).toBe(403);
    expect(answer.json.data).toBeUndefined();
    await expectNothingIssued(own);
  });

  it('signed out: 401 and no code', async () => {
    const own = await isolated();
    const browser = freshBrowser();
    const url = await loginCallFor(browser, own.workspace.id, own);
    const answer = await browser.get(url, 'fetch');
    expect(answer.status).toBe(401);
    await expectNothingIssued(own);
  });

  it("another browser's interaction (its uid, not this browser's cookie): 400 invalid_request", async () => {
    const own = await isolated();
    const url = await loginCallFor(own.browser, own.workspace.id, own);
    const other = freshBrowser();
    other.setCookie((await addMember(testApp.db, own.workspace.id, { isAdmin: true })).cookie);
    const answer = await other.get(url, 'fetch');
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ error: 'invalid_request' });
    await expectNothingIssued(own);
  });

  it("this browser's interaction cookie with another browser's interaction uid: 400 invalid_request", async () => {
    const own = await isolated();
    const other = freshBrowser();
    other.setCookie((await addMember(testApp.db, own.workspace.id, { isAdmin: true })).cookie);
    const theirs = new URL(await loginCallFor(other, own.workspace.id, own), testApp.config.publicUrl);
    const mine = new URL(await loginCallFor(own.browser, own.workspace.id, own), testApp.config.publicUrl);
    mine.searchParams.set('interaction', theirs.searchParams.get('interaction')!);
    const answer = await own.browser.get(`${mine.pathname}${mine.search}`, 'fetch');
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ error: 'invalid_request' });
    await expectNothingIssued(own);
  });

  it("a client_id other than the interaction's: 400 invalid_request", async () => {
    const own = await isolated();
    const other = await anotherInstalledApplication(testApp, own.workspace.id);
    const url = new URL(await loginCallFor(own.browser, own.workspace.id, own), testApp.config.publicUrl);
    url.searchParams.set('client_id', other.application.clientId);
    const answer = await own.browser.get(`${url.pathname}${url.search}`, 'fetch');
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ error: 'invalid_request' });
    await expectNothingIssued(own);
    expect(await issuedTo(testApp, other.application.clientId, other.application.id)).toEqual({
      codes: 0,
      grants: 0,
    });
  });

  it('a workspace the user is not a member of: 403 access_denied', async () => {
    const own = await isolated();
    const stranger = await portalFixture(testApp);
    // The other workspace has installed an application; the user is no member of it.
    const url = await loginCallFor(own.browser, stranger.workspace.id, own);
    const answer = await own.browser.get(url, 'fetch');
    expect(answer.status).toBe(403);
    expect(answer.json).toMatchObject({ error: 'access_denied' });
    await expectNothingIssued(own);
  });

  it('a workspace that has not installed the application: 403 access_denied', async () => {
    const own = await isolated();
    const workspace = await createWorkspace(testApp.db);
    await addMember(testApp.db, workspace.id, { isAdmin: true, user: own.member.user });
    const url = await loginCallFor(own.browser, workspace.id, own);
    const answer = await own.browser.get(url, 'fetch');
    expect(answer.status).toBe(403);
    expect(answer.json).toMatchObject({ error: 'access_denied' });
    await expectNothingIssued(own);
  });

  it('a workspace whose subscription to the application has expired: 403 access_denied', async () => {
    const own = await isolated();
    await testApp.db
      .update(subscriptions)
      .set({ status: 'expiredFreeTrial' })
      .where(eq(subscriptions.applicationId, own.application.id));
    const url = await loginCallFor(own.browser, own.workspace.id, own);
    const answer = await own.browser.get(url, 'fetch');
    expect(answer.status).toBe(403);
    expect(answer.json).toMatchObject({ error: 'access_denied' });
    await expectNothingIssued(own);
  });

  it('a member who was not given the application: 403 access_denied; given it, the same call succeeds', async () => {
    const own = await isolated();
    const member = await addMember(testApp.db, own.workspace.id);
    const browser = freshBrowser();
    browser.setCookie(member.cookie);
    const refused = await browser.get(await loginCallFor(browser, own.workspace.id, own), 'fetch');
    expect(refused.status).toBe(403);
    expect(refused.json).toMatchObject({ error: 'access_denied' });
    await expectNothingIssued(own);

    await testApp.db
      .update(memberships)
      .set({ applications: [own.application.clientId] })
      .where(and(eq(memberships.workspaceId, own.workspace.id), eq(memberships.userId, member.user.id)));
    const allowed = await browser.get(await loginCallFor(browser, own.workspace.id, own), 'fetch');
    expect(allowed.status).toBe(200);
  });

  it('a disabled member (membership inactive), even an admin: 403 access_denied', async () => {
    const own = await isolated();
    await testApp.db
      .update(memberships)
      .set({ status: 'inactive' })
      .where(and(eq(memberships.workspaceId, own.workspace.id), eq(memberships.userId, own.member.user.id)));
    const url = await loginCallFor(own.browser, own.workspace.id, own);
    const answer = await own.browser.get(url, 'fetch');
    expect(answer.status).toBe(403);
    expect(answer.json).toMatchObject({ error: 'access_denied' });
    await expectNothingIssued(own);
  });

  it('a workspaceId that is not a UUID: 400', async () => {
    const own = await isolated();
    const url = await loginCallFor(own.browser, "1' or '1'='1", own);
    const answer = await own.browser.get(url, 'fetch');
    expect(answer.status).toBe(400);
    await expectNothingIssued(own);
  });

  it('an interaction older than its hour: 400 invalid_request', async () => {
    const own = await isolated();
    const url = await loginCallFor(own.browser, own.workspace.id, own);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 60 * 60 * 1000 + 1000);
    const answer = await own.browser.get(url, 'fetch');
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ error: 'invalid_request' });
    await expectNothingIssued(own);
  });

  it('the Login call repeated after the sign-in finished: 400 invalid_request, no second code', async () => {
    const own = await isolated();
    const request = await authorizationRequest(own);
    const start = await own.browser.get(request.url.href);
    const page = new URL(start.location!);
    page.searchParams.set('workspaceId', own.workspace.id);
    const url = `/api/oauth/authorize/client-side${page.search}`;
    const first = await own.browser.get(url, 'fetch');
    expect(first.status).toBe(200);
    let next = (first.json as { data: { redirect: string } }).data.redirect;
    while (next.startsWith(testApp.config.publicUrl)) next = (await own.browser.get(next)).location!;
    expect(new URL(next).searchParams.get('code')).toBeTruthy();

    const again = await own.browser.get(url, 'fetch');
    expect(again.status).toBe(400);
    expect(again.json).toMatchObject({ error: 'invalid_request' });
    expect((await issuedTo(testApp, own.application.clientId, own.application.id)).codes).toBe(1);
  });
});
