import { type PermissionTag, type ResourceVerb, tagFor } from '@dukkan/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roles } from '../src/db/schema/index.ts';
import type { DeclaredRoute } from '../src/http/access.ts';
import { isImportable } from '../src/resource-engine/import.ts';
import { api, errorOf } from './helpers/api.ts';
import {
  permissionRoutes,
  routeCall,
  routeTargets,
  seedTargets,
  testResources,
} from './helpers/route-scenarios.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { addMember, createWorkspace, tagsExcept, workspaceSnapshot } from './helpers/workspaces.ts';

/**
 * The permission matrix, from the route table: for every workspace-scoped route (each resource
 * and verb), a role lacking the route's tag is refused with 403, and a role holding exactly
 * that tag succeeds.
 */
let t: TestApp;
let workspace: { id: string };

beforeAll(async () => {
  t = await createTestApp();
  workspace = await createWorkspace(t.db);
});
afterAll(async () => {
  await t?.close();
});

function requirementOf(route: DeclaredRoute) {
  if (route.access.kind !== 'permission') throw new Error('not a permission route');
  const { and = [], or = [] } = route.access.requirement;
  return { and: [...and], or: [...or] };
}

/** Every tag the route names: a caller holding none of them is refused. */
function requiredTags(route: DeclaredRoute): PermissionTag[] {
  const { and, or } = requirementOf(route);
  return [...and, ...or];
}

/** The smallest sets of tags that pass: the "and" tags, with each "or" tag in turn. */
function sufficientTagSets(route: DeclaredRoute): PermissionTag[][] {
  const { and, or } = requirementOf(route);
  return or.length === 0 ? [and] : or.map((tag) => [...and, tag]);
}

/** The route's requirement as one text: `a,b` for "and", `a|b` for "or". */
function requirementText(route: DeclaredRoute): string {
  const { and, or } = requirementOf(route);
  return [and.join(','), or.join('|')].filter(Boolean).join(';');
}

describe('permission matrix', () => {
  it('every workspace-scoped route names one tag of its resource and verb (uploads: add or edit files)', () => {
    const tags = Object.fromEntries(
      permissionRoutes(t.app)
        .filter((route) => route.method !== 'HEAD')
        .map((route) => [`${route.method} ${route.url}`, requirementText(route)]),
    );
    // Engine resources: each verb they offer, generated from the registry.
    const engineTags = Object.fromEntries(
      testResources.served.flatMap((data) => {
        const { definition } = data.storage;
        const { engineVerbs } = data;
        const base = `/api/${definition.path}`;
        const routes: Record<ResourceVerb, string> = {
          list: `GET ${base}`,
          filters: `GET ${base}/filters`,
          get: `GET ${base}/:id`,
          create: `POST ${base}`,
          bulk: `POST ${base}/bulk`,
          update: `PATCH ${base}/:id`,
          delete: `DELETE ${base}/:id`,
        };
        return [
          ...engineVerbs.map((verb) => [routes[verb], tagFor(definition, verb)]),
          // A list's export, behind the list's permission.
          ...(engineVerbs.includes('list') ? [[`GET ${base}/export`, tagFor(definition, 'list')]] : []),
          // An import, its template and its jobs: whoever may add or edit (each row is checked after).
          ...(isImportable(data)
            ? [
                `POST ${base}/import`,
                `POST ${base}/import/preview`,
                `GET ${base}/import-template`,
                `GET ${base}/import-jobs`,
                `GET ${base}/import-jobs/events`,
                `GET ${base}/import-jobs/:jobId`,
                `POST ${base}/import-jobs/:jobId/cancel`,
              ].map((route) => [route, `${tagFor(definition, 'create')}|${tagFor(definition, 'update')}`])
            : []),
        ];
      }),
    );
    expect(engineTags['DELETE /api/authority-roles/:id']).toBe('deleteAuthority');
    expect(engineTags['POST /api/brands']).toBe('addBrands');
    expect(engineTags['POST /api/customers/import']).toBe('addCustomers|editCustomers');
    expect(engineTags['PATCH /api/exchange-rates/:id']).toBe('editExchangeRate');
    expect(engineTags['DELETE /api/exchange-rates/:id']).toBeUndefined();
    // The members: listed and read by the engine, changed by the users feature.
    expect(engineTags['GET /api/workspaces/users/:id']).toBe('viewUsers');
    expect(engineTags['PATCH /api/workspaces/users/:id']).toBeUndefined();
    // The Get started list: whoever may take one of its steps.
    const getStarted = 'addBrands|addLocations|addProducts|addUsers|addSubscriptions';
    expect(tags).toEqual({
      ...engineTags,
      'GET /api/workspaces/users/filters': 'viewUsers',
      'PATCH /api/workspaces/users/:id': 'editUsers',
      'DELETE /api/workspaces/users/:id': 'deleteUsers',
      'POST /api/workspaces/users/invite': 'addUsers',
      'POST /api/workspaces/users/resend-invite': 'addUsers',
      'POST /api/files': 'addFiles|editFiles',
      'POST /api/files/bulk': 'addFiles|editFiles',
      'POST /api/subscriptions/events': 'addSubscriptions',
      'GET /api/payments/upcoming': 'viewPayments|addLocations|editLocations|deleteLocations',
      'GET /api/payments/due': 'viewPayments',
      'GET /api/payments/instructions': 'viewPayments|viewApplications',
      'GET /api/payments/:id/document': 'viewPayments',
      'GET /api/applications': 'viewApplications',
      'GET /api/applications/installed': 'viewUsers|addUsers|editUsers',
      'GET /api/audit-log/sign-ins': 'viewAudit',
      'GET /api/workspaces/get-started': getStarted,
      'PUT /api/workspaces/get-started/dismissal': getStarted,
      'DELETE /api/workspaces/get-started/dismissal': getStarted,
    });
  });

  it('without the tag (holding every other one): 403 FORBIDDEN, and nothing changes', async () => {
    // Every refused call must leave the workspace as it was, so one set of targets serves them
    // all: a call that changed anything fails at its own comparison.
    const targets = await seedTargets(t.db, workspace.id);
    // One caller whose role is given every tag but the route's before each call: a member a
    // route would leave the workspace's snapshot growing, read twice a route.
    const caller = await addMember(t.db, workspace.id, { tags: [] });
    for (const route of permissionRoutes(t.app)) {
      const required = requiredTags(route);
      await t.db
        .update(roles)
        .set({ permissions: tagsExcept(required) })
        .where(eq(roles.id, caller.roleId!));
      const before = await workspaceSnapshot(t.db, workspace.id);
      const response = await api(t.app, {
        ...routeCall(route, targets, workspace.id),
        cookie: caller.cookie,
      });
      expect(response.status, `${route.method} ${route.url} without ${required} → ${response.text}`).toBe(
        403,
      );
      if (route.method !== 'HEAD')
        expect(errorOf(response)).toMatchObject({ code: 'FORBIDDEN', name: 'ForbiddenError' });
      const after = await workspaceSnapshot(t.db, workspace.id);
      expect(after, `${route.method} ${route.url} changed data`).toEqual(before);
    }
  }, 240_000);

  it('with exactly the tag (or any one of its alternatives): the call succeeds', async () => {
    const targets = routeTargets(t.db, workspace.id);
    for (const route of permissionRoutes(t.app)) {
      for (const tags of sufficientTagSets(route)) {
        const caller = await addMember(t.db, workspace.id, { tags });
        const response = await api(t.app, { ...(await targets.callOf(route)), cookie: caller.cookie });
        expect(response.status, `${route.method} ${route.url} with ${tags} → ${response.text}`).toBeLessThan(
          300,
        );
      }
    }
  }, 240_000);

  it('an admin without any role passes every route', async () => {
    const admin = await addMember(t.db, workspace.id, { isAdmin: true });
    const targets = routeTargets(t.db, workspace.id);
    for (const route of permissionRoutes(t.app)) {
      const response = await api(t.app, { ...(await targets.callOf(route)), cookie: admin.cookie });
      expect(response.status, `${route.method} ${route.url} as admin → ${response.text}`).toBeLessThan(300);
    }
  }, 240_000);
});
