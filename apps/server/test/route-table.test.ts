import type { ResourceVerb } from '@dukkan/contract';
import Fastify, { type RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../src/app.ts';
import { access, declaredRoutes, requireDeclaredAccess, UndeclaredAccessError } from '../src/http/access.ts';
import { isImportable } from '../src/resource-engine/import.ts';
import { api, appFetchHeaders, errorOf } from './helpers/api.ts';
import { testResources } from './helpers/route-scenarios.ts';
import { createTestApp, MemoryMailer, type TestApp } from './helpers/test-app.ts';

/** Every route any Fastify instance of this file registers, seen through an onRoute hook added at creation. */
const recorded = vi.hoisted(() => [] as RouteOptions[]);
vi.mock('fastify', async (importOriginal) => {
  const actual = await importOriginal<typeof import('fastify')>();
  const recordingFactory = ((options?: Parameters<typeof actual.default>[0]) => {
    const instance = actual.default(options);
    instance.addHook('onRoute', (route) => {
      recorded.push(route);
    });
    return instance;
  }) as typeof actual.default;
  return { ...actual, default: recordingFactory, fastify: recordingFactory };
});

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('the route table (default-deny)', () => {
  it('every /api route declares its access', () => {
    const apiRoutes = recorded.filter((route) => route.url.startsWith('/api'));
    // The identity milestone's endpoints, all seen by the hook.
    const seen = new Set(apiRoutes.map((route) => `${String(route.method)} ${route.url}`));
    for (const expected of [
      'GET /api/health',
      'GET /api/captcha/config',
      'GET /api/captcha/challenge',
      'GET /api/auth/user',
      'POST /api/auth/login',
      'GET /api/auth/logout',
      'POST /api/auth/change-password',
      'PATCH /api/auth/profile',
      'POST /api/auth/request-for-access',
      'POST /api/auth/forgot-password',
      'POST /api/auth/reset-password',
      'GET /api/auth/invite-status',
      'POST /api/auth/set-profile',
      'POST /api/workspaces/users/accept-invite',
    ]) {
      expect(seen, expected).toContain(expected);
    }
    for (const route of apiRoutes) {
      const declared = (route.config as { access?: { kind: string } } | undefined)?.access;
      expect(declared, `${String(route.method)} ${route.url}`).toBeDefined();
      expect(['public', 'signedIn', 'permission', 'workspaceAdmin', 'workspaceMember']).toContain(
        declared!.kind,
      );
    }
  });

  it('routes that need a session are exactly the signed-in ones', () => {
    const signedIn = recorded
      .filter((route) => (route.config as { access?: { kind: string } })?.access?.kind === 'signedIn')
      .filter((route) => route.method !== 'HEAD')
      .map((route) => `${String(route.method)} ${route.url}`)
      .sort();
    expect(signedIn).toEqual([
      'DELETE /api/auth/profile/picture',
      'DELETE /api/auth/second-factors/:id',
      'DELETE /api/auth/sessions/:id',
      'GET /api/auth/second-factors',
      'GET /api/auth/sessions',
      'GET /api/auth/sign-ins',
      'GET /api/auth/user',
      'GET /api/oauth/authorize/client-side',
      'GET /api/oauth/installed-application/:clientId',
      'PATCH /api/auth/profile',
      'POST /api/auth/change-password',
      'POST /api/auth/recovery-codes',
      'POST /api/auth/second-factors/passkey',
      'POST /api/auth/second-factors/passkey/options',
      'POST /api/auth/second-factors/totp',
      'POST /api/auth/second-factors/totp/start',
      'POST /api/auth/sessions/sign-out-others',
    ]);
  });

  it('lists the workspace-scoped routes: exactly the permission routes', () => {
    const scoped = declaredRoutes(t.app)
      .filter((route) => route.access.kind === 'permission' && route.method !== 'HEAD')
      .map((route) => `${route.method} ${route.url}`)
      .sort();
    // Each of these names its workspace (`?workspaceId=`) and is checked before anything else.
    // The engine's routes: each resource's verbs, from the registry.
    const verbRoutes: Record<ResourceVerb, (base: string) => string> = {
      list: (base) => `GET ${base}`,
      filters: (base) => `GET ${base}/filters`,
      get: (base) => `GET ${base}/:id`,
      create: (base) => `POST ${base}`,
      bulk: (base) => `POST ${base}/bulk`,
      update: (base) => `PATCH ${base}/:id`,
      delete: (base) => `DELETE ${base}/:id`,
    };
    // A listed resource's export too (`GET <path>/export`), behind the list's permission, and an
    // importable one's import, template and jobs.
    const engineRoutes = testResources.served.flatMap((data) => {
      const { definition } = data.storage;
      return [
        ...data.engineVerbs.map((verb) => verbRoutes[verb](`/api/${definition.path}`)),
        ...(data.engineVerbs.includes('list') ? [`GET /api/${definition.path}/export`] : []),
        ...(isImportable(data)
          ? [
              `POST /api/${definition.path}/import`,
              `POST /api/${definition.path}/import/preview`,
              `GET /api/${definition.path}/import-template`,
              `GET /api/${definition.path}/import-jobs`,
              `GET /api/${definition.path}/import-jobs/events`,
              `GET /api/${definition.path}/import-jobs/:jobId`,
              `POST /api/${definition.path}/import-jobs/:jobId/cancel`,
            ]
          : []),
      ];
    });
    expect(engineRoutes).toContain('POST /api/customers/import');
    expect(engineRoutes).not.toContain('POST /api/authority-roles/import');
    // The members: listed and read by the engine, changed by the users feature.
    expect(engineRoutes).toContain('GET /api/workspaces/users/:id');
    expect(engineRoutes).toContain('POST /api/brands/bulk');
    expect(engineRoutes).not.toContain('DELETE /api/exchange-rates/:id');
    expect(scoped).toEqual(
      [
        ...engineRoutes,
        'DELETE /api/workspaces/users/:id',
        'GET /api/workspaces/users/filters',
        'PATCH /api/workspaces/users/:id',
        'POST /api/workspaces/users/invite',
        'POST /api/workspaces/users/resend-invite',
        'POST /api/files',
        'POST /api/files/bulk',
        'POST /api/subscriptions/events',
        'GET /api/payments/upcoming',
        'GET /api/payments/due',
        'GET /api/payments/instructions',
        'GET /api/payments/:id/document',
        'GET /api/applications',
        'GET /api/applications/installed',
        'GET /api/audit-log/sign-ins',
        'GET /api/workspaces/get-started',
        'PUT /api/workspaces/get-started/dismissal',
        'DELETE /api/workspaces/get-started/dismissal',
      ].sort(),
    );
    // The app's own table holds every API route Fastify registered for it (HEAD twins included).
    for (const route of declaredRoutes(t.app)) {
      expect(
        recorded.some((seen) => seen.url === route.url && [seen.method].flat().includes(route.method)),
      ).toBe(true);
    }
  });

  it("the workspace admins' routes are exactly the change of the workspace's settings and its preview; every member reads them", () => {
    const routesOf = (kind: string) =>
      declaredRoutes(t.app)
        .filter((route) => route.access.kind === kind && route.method !== 'HEAD')
        .map((route) => `${route.method} ${route.url}`)
        .sort();
    expect(routesOf('workspaceAdmin')).toEqual([
      'GET /api/workspaces/settings/base-currency-change',
      'PATCH /api/workspaces/settings',
    ]);
    // Every member reads the settings, and sets their own picture as an upload of the workspace.
    expect(routesOf('workspaceMember')).toEqual([
      'GET /api/workspaces/settings',
      'PUT /api/auth/profile/picture',
    ]);
  });

  it('the public routes are exactly those a visitor needs', () => {
    const publicRoutes = declaredRoutes(t.app)
      .filter((route) => route.access.kind === 'public' && route.method !== 'HEAD')
      .map((route) => `${route.method} ${route.url}`)
      .sort();
    expect(publicRoutes).toEqual([
      'GET /api/auth/invite-status',
      'GET /api/auth/logout',
      'GET /api/captcha/challenge',
      'GET /api/captcha/config',
      'GET /api/health',
      // The portal page shows the application's name and logo before anything else.
      'GET /api/oauth/application/:clientId',
      'POST /api/auth/forgot-password',
      'POST /api/auth/login',
      'POST /api/auth/request-for-access',
      'POST /api/auth/reset-password',
      // The second step of a sign-in (its own cookie), or a session's step-up: they find the person themselves.
      'POST /api/auth/second-factor/passkey',
      'POST /api/auth/second-factor/passkey/options',
      'POST /api/auth/second-factor/recovery',
      'POST /api/auth/second-factor/totp',
      'POST /api/auth/set-profile',
      'POST /api/workspaces/users/accept-invite',
    ]);
  });

  it('the signed-in routes refuse a visitor without a session', async () => {
    for (const [method, url] of [
      ['GET', '/api/auth/user'],
      ['GET', '/api/oauth/authorize/client-side'],
      ['GET', '/api/oauth/installed-application/some-app'],
      ['PATCH', '/api/auth/profile'],
      ['DELETE', '/api/auth/profile/picture'],
      ['POST', '/api/auth/change-password'],
      ['GET', '/api/auth/sessions'],
      ['POST', '/api/auth/second-factors/totp/start'],
      ['POST', '/api/auth/recovery-codes'],
    ] as const) {
      // As the app's own request: a GET that grants (authorize/client-side) refuses anything else first.
      const response = await api(t.app, {
        method,
        url,
        body: method === 'GET' ? undefined : {},
        headers: { ...appFetchHeaders },
        // The current-user probe answers a browser with no session cookie at all with `data: null`
        // (auth-session.test.ts); a cookie that names no session is refused like everywhere else.
        cookie: url === '/api/auth/user' ? 'dukkan_session=names-no-session' : undefined,
      });
      expect(response.status, `${method} ${url}`).toBe(401);
      expect(errorOf(response)).toMatchObject({ code: 'UNAUTHORIZED', name: 'UnauthorizedError' });
    }
  });

  it('buildApp refuses an /api route added without access', () => {
    // Routes added to the built app before it is ready pass through the same check.
    const fresh = Fastify();
    requireDeclaredAccess(fresh);
    expect(() => fresh.get('/api/undeclared', async () => ({}))).toThrow(UndeclaredAccessError);
    expect(() =>
      fresh.get('/api/declared', { config: { access: access.public } }, async () => ({})),
    ).not.toThrow();
    // Outside /api (the SPA's pages and files) no declaration is needed.
    expect(() => fresh.get('/about', async () => ({}))).not.toThrow();
  });

  it('a route without access registered in a plugin stops the app from starting', async () => {
    const fresh = Fastify({ logger: false });
    requireDeclaredAccess(fresh);
    void fresh.register(async (plugin) => {
      plugin.post('/api/secret', async () => ({ data: 'leak' }));
    });
    await expect(fresh.ready()).rejects.toThrow(/POST \/api\/secret declares no access/);
    await fresh.close().catch(() => {});
  });

  it('the app returned by buildApp carries the check', async () => {
    const built = await buildApp({ config: t.config, db: t.db, mailer: new MemoryMailer(), logger: false });
    try {
      expect(() => built.get('/api/late', async () => ({}))).toThrow(UndeclaredAccessError);
      expect(() =>
        built.get('/api/late-declared', { config: { access: access.signedIn } }, async () => ({})),
      ).not.toThrow();
    } finally {
      await built.close();
    }
  });

  it('an empty permission requirement is a startup error, never "allowed"', () => {
    expect(() => access.permission({})).toThrow(/at least one tag/);
    expect(() => access.permission({ and: [], or: [] })).toThrow(/at least one tag/);
    expect(access.permission({ or: ['viewBrands'] })).toEqual({
      kind: 'permission',
      requirement: { or: ['viewBrands'] },
    });
  });
});
