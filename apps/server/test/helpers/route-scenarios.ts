import {
  planLengths,
  type ResourceDefinition,
  resources,
  type SubscriptionEvent,
  workspaceUsersResource,
} from '@dukkan/contract';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../src/db/client.ts';
import { auditLog, importJobs, payments } from '../../src/db/schema/index.ts';
import {
  applySubscriptionEvent,
  type SubscriptionActor,
} from '../../src/features/subscriptions/subscription-lifecycle.ts';
import { type DeclaredRoute, declaredRoutes } from '../../src/http/access.ts';
import type { ResourceData } from '../../src/resource-engine/data.ts';
import { importTemplateHeaders, isImportable } from '../../src/resource-engine/import.ts';
import { verbRoutes } from '../../src/resource-engine/routes.ts';
import { systemCaller } from '../../src/resource-engine/storage.ts';
import { createAppResources } from '../../src/resources.ts';
import { type ApiRequest, multipart, tinyPng } from './api.ts';
import { insertApplication } from './applications.ts';
import { sampleOverrides } from './catalogue-samples.ts';
import { derivedSample, type SampleInput } from './derived-samples.ts';
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
  /** Importable resource key → a job of it running (another process's, as it were): read and cancelled. */
  importJobs: Record<string, string>;
  /**
   * Applications (the platform's, not a workspace's) no workspace has subscribed to: each call of
   * `POST subscriptions/events` requests one of its own (`unsubscribedApplication`).
   */
  freshApplicationIds: string[];
}

/** The next application of the targets nobody subscribed to (a subscription request of it succeeds). */
function unsubscribedApplication(targets: RouteTargets): string {
  const id = targets.freshApplicationIds.shift();
  if (!id) throw new Error('The route targets ran out of fresh applications: seed more in seedTargets');
  return id;
}

/** The resources as the app serves them: the contract's registry with the features' customizations. */
export const testResources = createAppResources();

/**
 * The served resources whose records the tests make through the engine (or a read-only seed):
 * all but those read from a source, whose records their feature makes (a member is invited; the
 * engine's list and read of members are tested in workspace-users.test.ts).
 */
export const madeByEngine = testResources.served.filter(
  (data) => data.storage.idColumn === data.storage.table.id,
);

/**
 * The sample input of a resource (by key, or its declaration): the one given in
 * `catalogue-samples.ts`, else the one its declared form makes (`derived-samples.ts`). The
 * matrices walk the route table; a resource that has neither fails them, naming the file.
 */
export function sampleOf(resource: string | ResourceDefinition): SampleInput {
  const key = typeof resource === 'string' ? resource : resource.key;
  const override = sampleOverrides[key];
  if (override) return override;
  const definition =
    typeof resource === 'string'
      ? (resources as readonly ResourceDefinition[]).find((candidate) => candidate.key === key)
      : resource;
  if (!definition) throw new Error(`No resource ${key} in the contract's registry`);
  return derivedSample(definition);
}

/** Whether the engine creates records of the resource (read-only ones change through their feature). */
export const isCreatable = (data: ResourceData) => data.storage.definition.verbs.includes('create');

/**
 * A stored record of a read-only resource, made through its feature as the product makes it:
 * `variant`s differ in every sortable field (status, plan, dates, amount).
 */
type ReadOnlySeed = (
  db: Database,
  workspaceId: string,
  records: Record<string, string>,
  variant: number,
) => Promise<string>;

type SeededState =
  | 'pending'
  | 'freeTrial'
  | 'rejected'
  | 'approved'
  | 'expiredFreeTrial'
  | 'expiredSubscription';

/**
 * A subscription of the workspace to a new application, brought to `state` by the lifecycle's
 * own events at `now` (an approval issues its first invoice).
 */
async function seedSubscription(
  db: Database,
  workspaceId: string,
  state: SeededState,
  variant: number,
  now: Date,
) {
  const application = await insertApplication(db, { monthlyPricePerLocation: 1_000 * (1 + (variant % 7)) });
  const request = {
    workspaceId,
    applicationId: application.id,
    plan: planLengths[variant % planLengths.length],
  };
  return db.transaction(async (tx) => {
    const apply = (event: SubscriptionEvent, actor: SubscriptionActor) =>
      applySubscriptionEvent(tx, { ...request, event, actor }, now);
    if (state === 'freeTrial' || state === 'expiredFreeTrial') {
      const trial = await apply('startTrial', 'workspace');
      return state === 'freeTrial' ? trial : apply('cancel', 'workspace');
    }
    const requested = await apply('request', 'workspace');
    if (state === 'pending') return requested;
    if (state === 'rejected') return apply('reject', 'operator');
    const approved = await apply('approve', 'operator');
    if (state === 'approved') return approved;
    await apply('cancel', 'workspace');
    return { ...(await apply('periodEnds', 'clock')), invoice: approved.invoice };
  });
}

/** Variant-dependent instants, days apart, long past. */
const seedInstant = (variant: number) => new Date(Date.UTC(2025, 0, 1 + ((variant * 5) % 11), 9, variant));

/**
 * Seeded subscriptions by variant. The first (a route target) leaves the workspace without an
 * installed application, so the Users routes need none: a pending request.
 */
const seededStates: readonly SeededState[] = [
  'pending',
  'freeTrial',
  'rejected',
  'approved',
  'expiredFreeTrial',
  'expiredSubscription',
];

const readOnlySeeds: Record<string, ReadOnlySeed> = {
  async subscriptions(db, workspaceId, _records, variant) {
    const state = seededStates[variant % seededStates.length]!;
    return (await seedSubscription(db, workspaceId, state, variant, seedInstant(variant))).subscription.id;
  },
  /**
   * The first invoice of a subscription approved and then ended (so nothing is installed), its
   * payment status varying: pending, successful, failed.
   */
  async payments(db, workspaceId, _records, variant) {
    const { invoice } = await seedSubscription(
      db,
      workspaceId,
      'expiredSubscription',
      variant,
      seedInstant(variant),
    );
    const status = (['pending', 'successful', 'failed'] as const)[variant % 3];
    await db.update(payments).set({ status }).where(eq(payments.id, invoice!.id));
    return invoice!.id;
  },
  /** A row of the log, as a write of the workspace leaves one: a brand renamed by the system. */
  async auditLog(db, workspaceId, records, variant) {
    const [row] = await db
      .insert(auditLog)
      .values({
        workspaceId,
        actorKind: 'system',
        action: 'update',
        resource: 'brands',
        recordId: records.brands ?? unique('record-'),
        changes: { code: [`OLD-${variant}`, `NEW-${variant}`] },
      })
      .returning({ id: auditLog.id });
    return row!.id;
  },
};

/**
 * A stored record made from the resource's sample through the engine's own create, or for a
 * read-only resource through its feature (`readOnlySeeds`).
 */
export async function createSample(
  db: Database,
  data: ResourceData,
  workspaceId: string,
  records: Record<string, string> = {},
  variant = 0,
): Promise<string> {
  const { definition } = data.storage;
  if (!isCreatable(data)) {
    const seed = readOnlySeeds[definition.key];
    if (!seed)
      throw new Error(`No seed for read-only resource ${definition.key} in test/helpers/route-scenarios.ts`);
    return seed(db, workspaceId, records, variant);
  }
  const input = definition.schemas.create.parse(sampleOf(definition.key)(records, variant)) as Record<
    string,
    unknown
  >;
  const [created] = await data.create(db, systemCaller(workspaceId), [input]);
  return created!.id as string;
}

/** Targets with the records theirs name (a location's brand), which no route acts on. */
interface SeededTargets extends RouteTargets {
  referenced: Record<string, string>;
}

/** A running import job of `resource`, as another process's would be: read and cancelled. */
async function seedImportJob(db: Database, workspaceId: string, resource: string, createdBy: string) {
  const [job] = await db
    .insert(importJobs)
    .values({
      workspaceId,
      resource,
      dryRun: true,
      status: 'running',
      format: 'csv',
      rowsTotal: 1,
      locale: 'en',
      createdBy,
      heartbeatAt: new Date(),
    })
    .returning({ id: importJobs.id });
  return job!.id;
}

/** An active member who is not an admin, of the role without tags. */
async function seedMember(db: Database, workspaceId: string, roleId: string) {
  return (await addMember(db, workspaceId, { roleId, code: unique('S') })).user.id;
}

/** Applications nobody subscribed to, up to four. */
async function topUpApplications(db: Database, ids: string[]) {
  while (ids.length < 4) ids.push((await insertApplication(db)).id);
}

export async function seedTargets(db: Database, workspaceId: string): Promise<SeededTargets> {
  // Records the targets name (a location's brand) are others than the targets: a target is a
  // record nothing depends on, which every route, delete included, can act on.
  const referenced: Record<string, string> = {};
  const records: Record<string, string> = {};
  // Registry order: a referenced resource (brands) comes before those naming it (locations).
  for (const data of madeByEngine) {
    const { definition, table } = data.storage;
    if (!definition.verbs.includes('delete')) {
      // Never deleted, and unique per workspace (one rate per currency): the workspace's first is
      // reused, so seeding a workspace for every route never runs out of currencies.
      const [existing] = await db
        .select({ id: table.id })
        .from(table)
        .where(eq(table.workspaceId, workspaceId))
        .limit(1);
      if (existing) {
        referenced[definition.key] = records[definition.key] = existing.id as string;
        continue;
      }
    }
    referenced[definition.key] = await createSample(db, data, workspaceId, referenced);
    records[definition.key] = await createSample(db, data, workspaceId, referenced);
  }
  const emptyRole = await createRole(db, workspaceId, []);
  const memberId = await seedMember(db, workspaceId, emptyRole.id);
  records[workspaceUsersResource.key] = memberId;
  const invited = await addInvitedMember(db, workspaceId, { roleId: emptyRole.id });
  const freshApplicationIds: string[] = [];
  await topUpApplications(db, freshApplicationIds);
  const importJobIds: Record<string, string> = {};
  for (const data of testResources.served.filter(isImportable)) {
    const { key } = data.storage.definition;
    importJobIds[key] = await seedImportJob(db, workspaceId, key, memberId);
  }
  return {
    workspaceId,
    records,
    memberId,
    invitedId: invited.userId,
    emptyRoleId: emptyRole.id,
    importJobs: importJobIds,
    freshApplicationIds,
    referenced,
  };
}

/**
 * The targets as a scenario sees them, every piece it reads added to `read`: `records.<key>`,
 * `importJobs.<key>`, or a field's name (`memberId`).
 */
function readTracked(targets: RouteTargets, read: Set<string>): RouteTargets {
  const keyed = (field: 'records' | 'importJobs') =>
    new Proxy(targets[field], {
      get(object, key) {
        if (typeof key === 'string') read.add(`${field}.${key}`);
        return Reflect.get(object, key);
      },
      ownKeys(object) {
        for (const key of Object.keys(object)) read.add(`${field}.${key}`);
        return Reflect.ownKeys(object);
      },
    });
  return new Proxy(targets, {
    get(object, key) {
      if (key === 'records' || key === 'importJobs') return keyed(key);
      if (typeof key === 'string') read.add(key);
      return Reflect.get(object, key);
    },
  });
}

/** Seeds again the pieces of `targets` a call read (`readTracked`), in place. */
async function reseed(db: Database, targets: SeededTargets, read: ReadonlySet<string>) {
  const { workspaceId } = targets;
  const member = async () => {
    targets.memberId = await seedMember(db, workspaceId, targets.emptyRoleId);
    targets.records[workspaceUsersResource.key] = targets.memberId;
  };
  for (const piece of read) {
    const [field, key] = piece.split('.') as [string, string | undefined];
    if (field === 'records' && key === workspaceUsersResource.key) await member();
    else if (field === 'records' && key) {
      const data = madeByEngine.find((candidate) => candidate.storage.definition.key === key);
      // A resource never deleted keeps its one record (seedTargets).
      if (data?.storage.definition.verbs.includes('delete'))
        targets.records[key] = await createSample(db, data, workspaceId, targets.referenced);
    } else if (field === 'importJobs' && key)
      targets.importJobs[key] = await seedImportJob(db, workspaceId, key, targets.memberId);
    else if (field === 'memberId') await member();
    else if (field === 'invitedId')
      targets.invitedId = (await addInvitedMember(db, workspaceId, { roleId: targets.emptyRoleId })).userId;
    else if (field === 'emptyRoleId') targets.emptyRoleId = (await createRole(db, workspaceId, [])).id;
    else if (field === 'freshApplicationIds') await topUpApplications(db, targets.freshApplicationIds);
  }
}

/**
 * Targets for a walk over the routes, seeded once. After a call that may have written (anything
 * but GET and HEAD), what its scenario read is seeded again before the next call: the record a
 * delete used up, one an update changed, one a new record names (now in use), the member a
 * change made inactive, the application a request took. Seeding every resource afresh after
 * each write was most of a walk's time.
 */
export function routeTargets(db: Database, workspaceId: string) {
  let targets: SeededTargets | undefined;
  let used: Set<string> | undefined;
  return {
    /** A valid call of `route` (`routeCall`) on targets no call before it has used. */
    async callOf(route: DeclaredRoute): Promise<ApiRequest> {
      targets ??= await seedTargets(db, workspaceId);
      if (used) await reseed(db, targets, used);
      const read = new Set<string>();
      const request = routeCall(route, readTracked(targets, read), workspaceId);
      used = route.method === 'GET' || route.method === 'HEAD' ? undefined : read;
      return request;
    },
  };
}

type Scenario = (targets: RouteTargets) => {
  params?: Record<string, string>;
  body?: unknown;
  headers?: Record<string, string>;
  /** Added to the query string after `workspaceId`. */
  query?: string;
};

/** The routes off the engine (the users feature's among them): what a valid call of each sends. */
const featureScenarios: Record<string, Scenario> = {
  'GET /api/workspaces/users/filters': () => ({}),
  'PATCH /api/workspaces/users/:id': (targets) => ({
    params: { id: targets.memberId },
    body: { status: 'inactive', code: unique('C') },
  }),
  'DELETE /api/workspaces/users/:id': (targets) => ({ params: { id: targets.memberId } }),
  'POST /api/workspaces/users/invite': (targets) => ({
    body: { email: `${unique('new')}@example.com`, roleId: targets.emptyRoleId },
  }),
  'POST /api/workspaces/users/resend-invite': (targets) => ({ body: { userId: targets.invitedId } }),
  'POST /api/subscriptions/events': (targets) => ({
    body: { applicationId: unsubscribedApplication(targets), event: 'request', plan: 'quarterly' },
  }),
  'GET /api/payments/upcoming': () => ({}),
  'GET /api/payments/due': () => ({}),
  'GET /api/payments/instructions': () => ({}),
  'GET /api/payments/:id/document': (targets) => ({ params: { id: targets.records.payments! } }),
  'GET /api/applications': () => ({}),
  'GET /api/applications/installed': () => ({}),
  'GET /api/audit-log/sign-ins': () => ({}),
  'GET /api/workspaces/get-started': () => ({}),
  'PUT /api/workspaces/get-started/dismissal': () => ({}),
  'DELETE /api/workspaces/get-started/dismissal': () => ({}),
  'POST /api/files': () =>
    multipart([{ field: 'file', filename: 'logo.png', type: 'image/png', content: tinyPng }]),
  'POST /api/files/bulk': () =>
    multipart([
      { field: 'files', filename: 'a.png', type: 'image/png', content: tinyPng },
      { field: 'files', filename: 'b.png', type: 'image/png', content: tinyPng },
    ]),
};

function engineScenario(method: string, url: string): Scenario | undefined {
  for (const data of testResources.served) {
    const { key, path } = data.storage.definition;
    const base = `/api/${path}`;
    // Read-only resources have no sample: only their GET routes exist.
    const sample = { input: (records: Record<string, string>) => sampleOf(key)(records) };
    const byId = (targets: RouteTargets) => ({ id: targets.records[key]! });
    const scenarios: Record<string, Scenario> = {
      [`GET ${base}`]: () => ({}),
      [`GET ${base}/filters`]: () => ({}),
      [`GET ${base}/export`]: () => ({ query: 'format=csv' }),
      // A dry run of a file with the template's header row: a report, nothing written.
      [`POST ${base}/import`]: () => ({
        query: 'dryRun=true',
        ...multipart([
          {
            field: 'file',
            filename: 'rows.csv',
            type: 'text/csv',
            content: Buffer.from(`${importTemplateHeaders(data, 'en').join(',')}\r\n`),
          },
        ]),
      }),
      // The preview of a file with the template's header row: read, nothing stored.
      [`POST ${base}/import/preview`]: () => ({
        ...multipart([
          {
            field: 'file',
            filename: 'rows.csv',
            type: 'text/csv',
            content: Buffer.from(`${importTemplateHeaders(data, 'en').join(',')}\r\n`),
          },
        ]),
      }),
      [`GET ${base}/import-template`]: () => ({ query: 'format=csv' }),
      [`GET ${base}/import-jobs`]: () => ({}),
      [`GET ${base}/import-jobs/events`]: () => ({}),
      [`GET ${base}/import-jobs/:jobId`]: (targets) => ({ params: { jobId: targets.importJobs[key]! } }),
      [`POST ${base}/import-jobs/:jobId/cancel`]: (targets) => ({
        params: { jobId: targets.importJobs[key]! },
      }),
      [`GET ${base}/:id`]: (targets) => ({ params: byId(targets) }),
      [`POST ${base}`]: (targets) => ({ body: sample.input(targets.records) }),
      [`POST ${base}/bulk`]: (targets) => ({
        body: [sample.input(targets.records), sample.input(targets.records)],
      }),
      [`PATCH ${base}/:id`]: (targets) => ({ params: byId(targets), body: sample.input(targets.records) }),
      [`DELETE ${base}/:id`]: (targets) => ({ params: byId(targets) }),
    };
    // Only the engine's own verbs: a member is changed by the users feature at the same address.
    const routes = verbRoutes(data.storage.definition);
    const served =
      data.engineVerbs.some((verb) => `${routes[verb].method} ${routes[verb].url}` === `${method} ${url}`) ||
      (data.engineVerbs.includes('list') &&
        `${routes.export.method} ${routes.export.url}` === `${method} ${url}`) ||
      (isImportable(data) &&
        [
          routes.import,
          routes.importPreview,
          routes.importTemplate,
          routes.importJobs,
          routes.importJobEvents,
          routes.importJob,
          routes.cancelImportJob,
        ].some((route) => `${route.method} ${route.url}` === `${method} ${url}`));
    const scenario = served ? scenarios[`${method} ${url}`] : undefined;
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
  const { params = {}, body, headers, query } = scenario(targets);
  const path = route.url.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`Scenario of ${route.method} ${route.url} gives no :${name}`);
    return value;
  });
  return {
    method: route.method as ApiRequest['method'],
    url: `${path}?workspaceId=${workspaceId}${query ? `&${query}` : ''}`,
    body,
    headers,
  };
}

/** The app's workspace-scoped routes: those behind a permission, which all name a workspace. */
export function permissionRoutes(app: FastifyInstance): DeclaredRoute[] {
  return declaredRoutes(app).filter((route) => route.access.kind === 'permission');
}

/** An id no record has, given as every resource's record to see which inputs name one. */
const markerId = '00000000-0000-4000-8000-00000000beef';

/** Whether a call of this route names records by id, in its path or its body (a role, a user, a brand). */
export function referencesRecords(route: DeclaredRoute): boolean {
  const markers = Object.fromEntries(
    testResources.served.map(({ storage }) => [storage.definition.key, markerId]),
  );
  return (
    route.url.includes('/:') ||
    /\/(invite|resend-invite)$/.test(route.url) ||
    testResources.served.some(
      ({ storage }) =>
        route.method === 'POST' &&
        [`/api/${storage.definition.path}`, `/api/${storage.definition.path}/bulk`].includes(route.url) &&
        storage.definition.verbs.includes('create') &&
        Object.keys(storage.references).some((field) =>
          JSON.stringify(sampleOf(storage.definition)(markers)[field] ?? null).includes(markerId),
        ),
    )
  );
}
