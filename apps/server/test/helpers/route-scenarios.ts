import type { FastifyInstance } from 'fastify';
import type { Database } from '../../src/db/client.ts';
import { type DeclaredRoute, declaredRoutes } from '../../src/http/access.ts';
import { resourceBindings } from '../../src/resource-engine/registry.ts';
import { type ApiRequest, multipart, tinyPng } from './api.ts';
import { catalogueSamples } from './catalogue-samples.ts';
import { addInvitedMember, addMember, createRole, unique } from './workspaces.ts';

/** The records of one workspace a route call acts on; seeded afresh for calls that delete. */
export interface RouteTargets {
  workspaceId: string;
  /** Engine resource key → a record of it that nothing depends on. */
  records: Record<string, string>;
  /** An active member who is not an admin. */
  memberId: string;
  /** A member waiting on an invitation. */
  invitedId: string;
  /** A role without tags: anyone who may assign roles may assign it. */
  emptyRoleId: string;
}

/**
 * How to make a record of each engine resource and a valid input for it. The matrices walk the
 * route table; a resource registered without an entry here makes them fail, by name.
 */
export const engineSamples: Record<
  string,
  {
    create(db: Database, workspaceId: string): Promise<string>;
    /** `records`: the target workspace's records (a location's input names its brand). */
    input(records?: Record<string, string>): Record<string, unknown>;
  }
> = {
  authorityRoles: {
    create: async (db, workspaceId) => (await createRole(db, workspaceId, [])).id,
    input: () => ({ code: unique('code-'), title: 'Sample role', permissions: [] }),
  },
  ...catalogueSamples,
};

export async function seedTargets(db: Database, workspaceId: string): Promise<RouteTargets> {
  const records: Record<string, string> = {};
  for (const binding of resourceBindings) {
    const sample = engineSamples[binding.definition.key];
    if (!sample) throw new Error(`No sample for resource ${binding.definition.key} in route-scenarios.ts`);
    records[binding.definition.key] = await sample.create(db, workspaceId);
  }
  const emptyRole = await createRole(db, workspaceId, []);
  const member = await addMember(db, workspaceId, { roleId: emptyRole.id, code: unique('S') });
  const invited = await addInvitedMember(db, workspaceId, { roleId: emptyRole.id });
  return {
    workspaceId,
    records,
    memberId: member.user.id,
    invitedId: invited.userId,
    emptyRoleId: emptyRole.id,
  };
}

type Scenario = (targets: RouteTargets) => {
  params?: Record<string, string>;
  body?: unknown;
  headers?: Record<string, string>;
};

/** The users feature's routes (not on the engine): what a valid call of each sends. */
const featureScenarios: Record<string, Scenario> = {
  'GET /api/workspaces/users': () => ({}),
  'GET /api/workspaces/users/filters': () => ({}),
  'GET /api/workspaces/users/:userId': (targets) => ({ params: { userId: targets.memberId } }),
  'PATCH /api/workspaces/users/:userId': (targets) => ({
    params: { userId: targets.memberId },
    body: { status: 'inactive', code: unique('C') },
  }),
  'DELETE /api/workspaces/users/:userId': (targets) => ({ params: { userId: targets.memberId } }),
  'POST /api/workspaces/users/invite': (targets) => ({
    body: { email: `${unique('new')}@example.com`, roleId: targets.emptyRoleId },
  }),
  'POST /api/workspaces/users/resend-invite': (targets) => ({ body: { userId: targets.invitedId } }),
  'POST /api/files': () =>
    multipart([{ field: 'file', filename: 'logo.png', type: 'image/png', content: tinyPng }]),
  'POST /api/files/bulk': () =>
    multipart([
      { field: 'files', filename: 'a.png', type: 'image/png', content: tinyPng },
      { field: 'files', filename: 'b.png', type: 'image/png', content: tinyPng },
    ]),
};

function engineScenario(method: string, url: string): Scenario | undefined {
  for (const binding of resourceBindings) {
    const { key, path } = binding.definition;
    const base = `/api/${path}`;
    const sample = engineSamples[key];
    if (!sample) throw new Error(`No sample for resource ${key} in route-scenarios.ts`);
    const byId = (targets: RouteTargets) => ({ id: targets.records[key]! });
    const scenarios: Record<string, Scenario> = {
      [`GET ${base}`]: () => ({}),
      [`GET ${base}/filters`]: () => ({}),
      [`GET ${base}/:id`]: (targets) => ({ params: byId(targets) }),
      [`POST ${base}`]: (targets) => ({ body: sample.input(targets.records) }),
      [`POST ${base}/bulk`]: (targets) => ({
        body: [sample.input(targets.records), sample.input(targets.records)],
      }),
      [`PATCH ${base}/:id`]: (targets) => ({ params: byId(targets), body: sample.input(targets.records) }),
      [`DELETE ${base}/:id`]: (targets) => ({ params: byId(targets) }),
    };
    const scenario = scenarios[`${method} ${url}`];
    if (scenario) return scenario;
  }
  return undefined;
}

/**
 * A valid call of a route on the given records, naming `workspaceId` in its query string (which
 * may be another workspace than the records'). HEAD is called like its GET.
 */
export function routeCall(route: DeclaredRoute, targets: RouteTargets, workspaceId: string): ApiRequest {
  const method = route.method === 'HEAD' ? 'GET' : route.method;
  const scenario = engineScenario(method, route.url) ?? featureScenarios[`${method} ${route.url}`];
  if (!scenario) {
    throw new Error(
      `No scenario for ${route.method} ${route.url}: add one to test/helpers/route-scenarios.ts`,
    );
  }
  const { params = {}, body, headers } = scenario(targets);
  const path = route.url.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`Scenario of ${route.method} ${route.url} gives no :${name}`);
    return value;
  });
  return {
    method: route.method as ApiRequest['method'],
    url: `${path}?workspaceId=${workspaceId}`,
    body,
    headers,
  };
}

/** The app's workspace-scoped routes: those behind a permission, which all name a workspace. */
export function permissionRoutes(app: FastifyInstance): DeclaredRoute[] {
  return declaredRoutes(app).filter((route) => route.access.kind === 'permission');
}

/** Whether a call of this route names records by id, in its path or its body (a role, a user, a brand). */
export function referencesRecords(route: DeclaredRoute): boolean {
  return (
    route.url.includes('/:') ||
    /\/(invite|resend-invite)$/.test(route.url) ||
    resourceBindings.some(
      (binding) =>
        route.method === 'POST' &&
        route.url.startsWith(`/api/${binding.definition.path}`) &&
        Object.keys(binding.references ?? {}).some(
          (field) => field in (engineSamples[binding.definition.key]?.input({}) ?? {}),
        ),
    )
  );
}
