import type { SubscriptionStatus } from '@dukkan/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberships } from '../../src/db/schema/index.ts';
import { api, dataOf, errorOf } from '../helpers/api.ts';
import { type ApplicationRow, insertApplication, insertSubscription } from '../helpers/applications.ts';
import { authorizationRequest, clientFor, TestBrowser } from '../helpers/oauth.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { addMember, createWorkspace, type TestMember } from '../helpers/workspaces.ts';

/**
 * The portal page's three calls over HTTP: the application it shows (public), the workspace the
 * sign-in acts in (the member check: installed, active, admin or given the application) and the
 * Login call that finishes the interaction.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const dayMs = 24 * 60 * 60 * 1000;

/** A workspace with the application installed in `status` (none: never subscribed) and its admin. */
/** A new application, and a new workspace in its free trial with the workspace's admin. */
async function inFreeTrial() {
  const application = await insertApplication(t.db);
  return { application, ...(await workspaceWith(application, 'freeTrial')) };
}

async function workspaceWith(application: ApplicationRow, status: SubscriptionStatus | null) {
  const workspace = await createWorkspace(t.db);
  const admin = await addMember(t.db, workspace.id, { isAdmin: true });
  if (status) {
    const live = status === 'freeTrial' || status === 'approved';
    await insertSubscription(t.db, workspace.id, application.id, status, {
      plan: status === 'freeTrial' ? null : 'monthly',
      startDate: live ? new Date(Date.now() - dayMs) : null,
      endDate: live ? new Date(Date.now() + 14 * dayMs) : null,
    });
  }
  return { workspace, admin };
}

describe('GET /api/oauth/application/:clientId', () => {
  it('answers anyone with the application’s names in English and Arabic and its logo', async () => {
    const application = await insertApplication(t.db, {
      nameEn: 'Kitchen Display',
      nameAr: 'شاشة المطبخ',
      logo: '/files/platform/kitchen.png',
    });
    const response = await api(t.app, { url: `/api/oauth/application/${application.clientId}` });
    expect(response.status, response.text).toBe(200);
    expect(response.json).toEqual({
      data: {
        clientId: application.clientId,
        localizedName: [
          { locale: 'en', value: 'Kitchen Display' },
          { locale: 'ar', value: 'شاشة المطبخ' },
        ],
        logo: '/files/platform/kitchen.png',
      },
    });
    const withoutLogo = await insertApplication(t.db);
    expect(dataOf(await api(t.app, { url: `/api/oauth/application/${withoutLogo.clientId}` }))).toMatchObject(
      {
        clientId: withoutLogo.clientId,
        logo: null,
      },
    );
  });

  it('an unknown client id: 404 NOT_FOUND', async () => {
    const response = await api(t.app, { url: '/api/oauth/application/no-such-app' });
    expect(response.status).toBe(404);
    expect(errorOf(response).code).toBe('NOT_FOUND');
  });

  it('an over-long client id: refused by the router (414 VALIDATION) before any lookup', async () => {
    // Fastify's path parameters stop at 100 characters; client ids have at most 60.
    const response = await api(t.app, { url: `/api/oauth/application/${'a'.repeat(101)}` });
    expect(response.status).toBe(414);
    expect(errorOf(response).code).toBe('VALIDATION');
    expect((await api(t.app, { url: `/api/oauth/application/${'a'.repeat(100)}` })).status).toBe(404);
  });
});

describe('GET /api/oauth/installed-application/:clientId', () => {
  const installed = (clientId: string, workspaceId: string | undefined, cookie?: string) =>
    api(t.app, {
      url: `/api/oauth/installed-application/${clientId}${workspaceId === undefined ? '' : `?workspaceId=${workspaceId}`}`,
      cookie,
    });

  it('an admin of a workspace in its free trial: 200 with the workspace’s id and name', async () => {
    const application = await insertApplication(t.db);
    const { workspace, admin } = await workspaceWith(application, 'freeTrial');
    const response = await installed(application.clientId, workspace.id, admin.cookie);
    expect(response.status, response.text).toBe(200);
    expect(response.json).toEqual({
      data: { clientId: application.clientId, workspace: { id: workspace.id, name: workspace.name } },
    });
  });

  it('installed means approved or in a free trial: every other status, or none, is 404', async () => {
    const application = await insertApplication(t.db);
    const statuses: (SubscriptionStatus | null)[] = [
      null,
      'pending',
      'rejected',
      'expiredFreeTrial',
      'expiredSubscription',
      'freeTrial',
      'approved',
    ];
    const answers: Record<string, number> = {};
    for (const status of statuses) {
      const { workspace, admin } = await workspaceWith(application, status);
      const response = await installed(application.clientId, workspace.id, admin.cookie);
      answers[String(status)] = response.status;
      if (response.status === 404) expect(errorOf(response).code).toBe('NOT_FOUND');
    }
    expect(answers).toEqual({
      null: 404,
      pending: 404,
      rejected: 404,
      expiredFreeTrial: 404,
      expiredSubscription: 404,
      freeTrial: 200,
      approved: 200,
    });
  });

  it('another application installed in the workspace does not install this one', async () => {
    const application = await insertApplication(t.db);
    const other = await insertApplication(t.db);
    const { workspace, admin } = await workspaceWith(other, 'approved');
    expect((await installed(application.clientId, workspace.id, admin.cookie)).status).toBe(404);
    expect((await installed(other.clientId, workspace.id, admin.cookie)).status).toBe(200);
  });

  describe('the member', () => {
    let application: ApplicationRow;
    let workspace: { id: string; name: string };
    let admin: TestMember;
    beforeAll(async () => {
      ({ application, workspace, admin } = await inFreeTrial());
    });

    it('a member given the application: 200; a member not given it (another one instead): 404', async () => {
      const given = await addMember(t.db, workspace.id);
      const notGiven = await addMember(t.db, workspace.id);
      const setApplications = (userId: string, list: string[]) =>
        t.db
          .update(memberships)
          .set({ applications: list })
          .where(and(eq(memberships.workspaceId, workspace.id), eq(memberships.userId, userId)));
      await setApplications(given.user.id, [application.clientId]);
      await setApplications(notGiven.user.id, ['some-other-app']);
      expect((await installed(application.clientId, workspace.id, given.cookie)).status).toBe(200);
      const refused = await installed(application.clientId, workspace.id, notGiven.cookie);
      expect(refused.status).toBe(404);
      expect(errorOf(refused).code).toBe('NOT_FOUND');
    });

    it('an admin needs no application given: 200', async () => {
      expect((await installed(application.clientId, workspace.id, admin.cookie)).status).toBe(200);
    });

    it('a disabled member (even an admin, even given it): 404; an invited one: 404', async () => {
      const disabled = await addMember(t.db, workspace.id, { isAdmin: true, status: 'inactive' });
      expect((await installed(application.clientId, workspace.id, disabled.cookie)).status).toBe(404);
      const invited = await addMember(t.db, workspace.id, { isAdmin: true, status: 'invited' });
      expect((await installed(application.clientId, workspace.id, invited.cookie)).status).toBe(404);
    });

    it('another workspace’s id, where the application is installed but the user is no member: 404', async () => {
      const { workspace: elsewhere } = await workspaceWith(application, 'approved');
      const response = await installed(application.clientId, elsewhere.id, admin.cookie);
      expect(response.status).toBe(404);
      expect(response.text).not.toContain(elsewhere.name);
    });

    it('an unknown client id in the member’s workspace: 404', async () => {
      expect((await installed('no-such-app', workspace.id, admin.cookie)).status).toBe(404);
    });

    it('workspaceId missing or not a UUID: 400 VALIDATION', async () => {
      for (const workspaceId of [undefined, '', 'not-a-uuid', `${workspace.id}x`]) {
        const response = await installed(application.clientId, workspaceId, admin.cookie);
        expect(response.status, `workspaceId=${workspaceId}`).toBe(400);
        expect(errorOf(response).code).toBe('VALIDATION');
      }
      const long = await installed('a'.repeat(101), workspace.id, admin.cookie);
      expect(long.status).toBe(414);
      expect(errorOf(long).code).toBe('VALIDATION');
    });

    it('signed out: 401, whatever the workspace', async () => {
      const response = await installed(application.clientId, workspace.id);
      expect(response.status).toBe(401);
      expect(errorOf(response).code).toBe('UNAUTHORIZED');
      expect(response.text).not.toContain(workspace.name);
    });
  });
});

describe('GET /api/oauth/authorize/client-side', () => {
  /** The page's query as the provider opened it (its interaction), in a browser signed in as `member`. */
  async function openedInteraction(application: ApplicationRow, member?: TestMember) {
    const config = await clientFor(t, application.clientId);
    const browser = new TestBrowser(t.app, t.config.publicUrl);
    if (member) browser.setCookie(member.cookie);
    const request = await authorizationRequest({ config, redirectUri: application.redirectUris[0]! });
    const start = await browser.get(request.url.href);
    expect(start.status).toBe(303);
    const page = new URL(start.location!);
    expect(page.pathname).toBe('/authenticate');
    return { browser, query: page.searchParams };
  }

  const login = (browser: TestBrowser, query: URLSearchParams, headers: Record<string, string> = {}) =>
    browser.get(`/api/oauth/authorize/client-side?${query}`, 'fetch', headers);

  let application: ApplicationRow;
  let workspace: { id: string; name: string };
  let admin: TestMember;
  beforeAll(async () => {
    ({ application, workspace, admin } = await inFreeTrial());
  });

  it('finishes the interaction: data.redirect is the provider’s /oidc/auth/<interaction>', async () => {
    const { browser, query } = await openedInteraction(application, admin);
    query.set('workspaceId', workspace.id);
    const response = await login(browser, query);
    expect(response.status, response.text).toBe(200);
    const redirect = new URL((response.json as { data: { redirect: string } }).data.redirect);
    expect(redirect.origin).toBe(new URL(t.config.publicUrl).origin);
    expect(redirect.pathname).toBe(`/oidc/auth/${query.get('interaction')}`);
    // Following it reaches the client's redirect URI with a code.
    const back = await browser.get(redirect.href);
    const callback = new URL(back.location!);
    expect(callback.origin + callback.pathname).toBe(application.redirectUris[0]);
    expect(callback.searchParams.get('code')).toBeTruthy();
  });

  it('workspaceId, interaction or client_id missing (or workspaceId not a UUID): 400 VALIDATION', async () => {
    const { browser, query } = await openedInteraction(application, admin);
    query.set('workspaceId', workspace.id);
    for (const missing of ['workspaceId', 'interaction', 'client_id']) {
      const partial = new URLSearchParams(query);
      partial.delete(missing);
      const response = await login(browser, partial);
      expect(response.status, `without ${missing}: ${response.text}`).toBe(400);
      expect((response.json as { error: { code: string } }).error.code).toBe('VALIDATION');
    }
    const longClient = new URLSearchParams(query);
    longClient.set('client_id', 'a'.repeat(201));
    expect((await login(browser, longClient)).status).toBe(400);
    const notUuid = new URLSearchParams(query);
    notUuid.set('workspaceId', 'not-a-uuid');
    expect((await login(browser, notUuid)).status).toBe(400);
    // The interaction is still open: the complete query succeeds.
    expect((await login(browser, query)).status).toBe(200);
  });

  it('signed out: 401, and the interaction stays open', async () => {
    const { browser, query } = await openedInteraction(application);
    query.set('workspaceId', workspace.id);
    const response = await login(browser, query);
    expect(response.status).toBe(401);
    browser.setCookie(admin.cookie);
    expect((await login(browser, query)).status).toBe(200);
  });

  it('a member who may not use the application there: 403 access_denied, no grant', async () => {
    const member = await addMember(t.db, workspace.id);
    const { browser, query } = await openedInteraction(application, member);
    query.set('workspaceId', workspace.id);
    const response = await login(browser, query);
    expect(response.status).toBe(403);
    expect(response.json).toEqual({
      error: 'access_denied',
      error_description: `You are not authorized to access ${application.nameEn}`,
    });
    // The page shows the description as it comes: an Arabic page's request gets it in Arabic.
    const arabic = await login(browser, query, { 'accept-language': 'ar' });
    expect(arabic.status).toBe(403);
    expect(arabic.json).toEqual({
      error: 'access_denied',
      error_description: `ليست لديك صلاحية للوصول إلى ${application.nameAr}`,
    });
  });

  it('another site’s request (no same-origin fetch metadata) is refused', async () => {
    const { browser, query } = await openedInteraction(application, admin);
    query.set('workspaceId', workspace.id);
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/oauth/authorize/client-side?${query}`,
      headers: {
        host: new URL(t.config.publicUrl).host,
        cookie: browser.cookieHeader(),
        'sec-fetch-site': 'cross-site',
        'sec-fetch-dest': 'document',
        'sec-fetch-mode': 'navigate',
      },
    });
    expect(response.statusCode).toBe(403);
    // The page's own request then succeeds.
    expect((await login(browser, query)).status).toBe(200);
  });
});
