import type { ImportJob } from '@dukkan/contract';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commands } from '../src/cli.ts';
import { accessRequests, auditLog, payments, subscriptions } from '../src/db/schema/index.ts';
import type { DeclaredRoute } from '../src/http/access.ts';
import { declaredRoutes } from '../src/http/access.ts';
import { type ApiRequest, api, multipart, tinyPng } from './helpers/api.ts';
import { insertApplication, insertSubscription } from './helpers/applications.ts';
import { runCliOn } from './helpers/cli.ts';
import { readJob } from './helpers/import-jobs.ts';
import { routeTargets, seedTargets } from './helpers/route-scenarios.ts';
import { approvedSubscription, subscriptionServices } from './helpers/subscriptions.ts';
import { createTestApp, MemoryMailer, type TestApp } from './helpers/test-app.ts';
import {
  addInvitedMember,
  addMember,
  createWorkspace,
  type TestMember,
  unique,
} from './helpers/workspaces.ts';

/**
 * Every state-changing route of the route table and every command of the operator's command
 * table writes an audit row when it succeeds — or is declared exempt here, with the reason. A new
 * route or command that writes no row and is not declared fails this test. Every export of a list
 * (`GET …/export`), which changes nothing but takes the records out, writes its row too, and every
 * committed import its own `import` row, even of a file that changes nothing.
 */

/** Routes that write no workspace's audit row, and why. */
const exemptRoutes: Record<string, string> = {
  'POST /api/auth/login': "a person's sign-in, in no workspace: a sign_in_events row (audit-log.test.ts)",
  'GET /api/auth/logout': "a person's sign-out: a sign_in_events row",
  'POST /api/auth/change-password': "a person's password: a sign_in_events row (audit-secrets.test.ts)",
  'POST /api/auth/reset-password': "a person's password: a sign_in_events row",
  'POST /api/auth/set-profile': "a person's first password and profile: a sign_in_events row",
  'PATCH /api/auth/profile': "a person's own name, phone and language: their account, in no workspace",
  'DELETE /api/auth/profile/picture':
    "a person's own picture: their account, in no workspace (the file's removal is the clean-up's row)",
  'POST /api/auth/forgot-password': 'mails a link: nothing of any workspace changes',
  'POST /api/auth/second-factor/totp': "a person's second step: a sign_in_events row (second-factor.test.ts)",
  'POST /api/auth/second-factor/recovery': "a person's second step: a sign_in_events row",
  'POST /api/auth/second-factor/passkey/options': "a passkey's challenge for a person's second step",
  'POST /api/auth/second-factor/passkey': "a person's second step: a sign_in_events row",
  'POST /api/auth/second-factors/totp/start': "a person's pending enrolment: nothing of any workspace",
  'POST /api/auth/second-factors/totp': "a person's factor: a sign_in_events row",
  'POST /api/auth/second-factors/passkey/options': "a person's pending enrolment: nothing of any workspace",
  'POST /api/auth/second-factors/passkey': "a person's factor: a sign_in_events row",
  'DELETE /api/auth/second-factors/:id': "a person's factor: a sign_in_events row",
  'POST /api/auth/recovery-codes': "a person's recovery codes: a sign_in_events row",
  'DELETE /api/auth/sessions/:id': "a person's sign-out: a sign_in_events row",
  'POST /api/auth/sessions/sign-out-others': "a person's sign-outs: a sign_in_events row",
  'POST /api/auth/request-for-access':
    "a request for a workspace that does not exist yet: the operator's approval is recorded in the new one",
};

/** Routes outside the permission table that a workspace's records change through: a valid call of each. */
const workspaceRouteCalls: Record<
  string,
  (context: { workspaceId: string; admin: TestMember }) => Promise<Parameters<typeof api>[1]>
> = {
  'PATCH /api/workspaces/settings': async ({ workspaceId, admin }) => ({
    method: 'PATCH',
    url: `/api/workspaces/settings?workspaceId=${workspaceId}`,
    body: { name: unique('Shop ') },
    cookie: admin.cookie,
  }),
  // The picture is an upload of the workspace: its `files` row.
  'PUT /api/auth/profile/picture': async ({ workspaceId, admin }) => ({
    method: 'PUT',
    url: `/api/auth/profile/picture?workspaceId=${workspaceId}`,
    ...multipart([{ field: 'file', filename: 'me.png', type: 'image/png', content: tinyPng }]),
    cookie: admin.cookie,
  }),
  'POST /api/workspaces/users/accept-invite': async ({ workspaceId }) => ({
    method: 'POST',
    url: '/api/workspaces/users/accept-invite',
    body: { token: (await addInvitedMember(t.db, workspaceId)).token },
  }),
};

/** Operator commands that write no audit row, and why. */
const exemptCommands: Record<string, string> = {
  requests: 'lists access requests',
  subscriptions: 'lists subscriptions',
  invoices: 'lists invoices',
  'app list': 'lists applications',
  'check-codes': 'reports stored codes',
  backup: 'copies the database: no record changes',
  restore: 'replaces the whole database, its audit log included',
  'copy-uploads': 'copies stored files to a bucket: no record changes',
  'rotate-signing-keys': "the authorization server's keys: the platform's, no workspace's",
  'reset-second-factors': "a person's factors: a sign_in_events row (second-factor.test.ts)",
  reject: 'an access request, before any workspace exists',
  'app create': 'a new application: no workspace has subscribed to it yet to record it in',
  'bank-transfer': 'shows the bank-transfer instructions',
  'set-bank-transfer':
    "the platform's bank-transfer instructions: the operator's own, no workspace's record (printed in full)",
  'clear-bank-transfer':
    "the platform's bank-transfer instructions: the operator's own, no workspace's record",
};

let t: TestApp;
let workspace: { id: string };
let admin: TestMember;

beforeAll(async () => {
  t = await createTestApp();
  workspace = await createWorkspace(t.db, 'Covered Shop');
  admin = await addMember(t.db, workspace.id, { isAdmin: true });
});
afterAll(async () => {
  await t?.close();
});

const key = (route: { method: string; url: string }) => `${route.method} ${route.url}`;

const stateChanging = (route: DeclaredRoute) =>
  ['POST', 'PUT', 'PATCH', 'DELETE'].includes(route.method) || key(route) === 'GET /api/auth/logout';

/**
 * A committed import of a list's own export (`…/import?dryRun=false`): the route's scenario is a
 * dry run, which writes nothing; this file's rows are all unchanged, so the import's own row is
 * what the request must write.
 */
async function committedImport(importUrl: string): Promise<ApiRequest> {
  const list = importUrl.slice(0, -'/import'.length);
  const exported = await api(t.app, {
    url: `${list}/export?workspaceId=${workspace.id}&format=csv`,
    cookie: admin.cookie,
  });
  expect(exported.status, `${list}/export: ${exported.text}`).toBe(200);
  return {
    method: 'POST',
    url: `${importUrl}?workspaceId=${workspace.id}&dryRun=false`,
    cookie: admin.cookie,
    ...multipart([
      { field: 'file', filename: 'list.csv', type: 'text/csv', content: Buffer.from(exported.text, 'utf8') },
    ]),
  };
}

async function rowsOfRequest(requestId: string) {
  const [row] = await t.db.select({ count: count() }).from(auditLog).where(eq(auditLog.requestId, requestId));
  return row!.count;
}

describe('every state-changing route writes an audit row or is declared exempt', () => {
  it('calls each route and finds the rows its request wrote', async () => {
    const routes = declaredRoutes(t.app).filter(stateChanging);
    expect(routes.length).toBeGreaterThan(20);
    const silent: string[] = [];
    const undeclared: string[] = [];
    const targets = routeTargets(t.db, workspace.id);
    for (const route of routes) {
      if (exemptRoutes[key(route)]) continue;
      // A cancel stops an import's job before its commit: no record changes.
      if (route.url.endsWith('/import-jobs/:jobId/cancel')) continue;
      // A preview reads a file's first rows and stores nothing.
      if (route.url.endsWith('/import/preview')) continue;
      let request: Parameters<typeof api>[1];
      if (route.method === 'POST' && route.url.endsWith('/import')) {
        await seedTargets(t.db, workspace.id);
        request = await committedImport(route.url);
      } else if (route.access.kind === 'permission') {
        request = { ...(await targets.callOf(route)), cookie: admin.cookie };
      } else {
        const call = workspaceRouteCalls[key(route)];
        if (!call) {
          undeclared.push(`${key(route)} (${route.access.kind})`);
          continue;
        }
        request = await call({ workspaceId: workspace.id, admin });
      }
      const response = await api(t.app, request);
      expect(response.status, `${key(route)}: ${response.text}`).toBeLessThan(300);
      if (route.url.endsWith('/import')) {
        // The import's job writes as its request: its rows carry the request's id.
        const { id } = (response.json as { data: ImportJob }).data;
        await t.app.importWorker.idle();
        const job = await readJob(t.app, request.url, id, admin.cookie);
        expect(job, key(route)).toMatchObject({ status: 'done', report: { committed: true, errors: [] } });
      }
      const written = await rowsOfRequest(response.headers['x-request-id'] as string);
      if (written === 0) silent.push(key(route));
    }
    expect(undeclared, 'routes with neither a call here nor an exemption').toEqual([]);
    expect(silent, 'routes that changed state and wrote no audit row').toEqual([]);
  }, 240_000);

  it('every export of a list writes its row, as the member who took it', async () => {
    const exports = declaredRoutes(t.app).filter(
      (route) => route.method === 'GET' && route.url.endsWith('/export'),
    );
    expect(exports.length).toBeGreaterThan(10);
    const silent: string[] = [];
    const targets = routeTargets(t.db, workspace.id);
    for (const route of exports) {
      const response = await api(t.app, { ...(await targets.callOf(route)), cookie: admin.cookie });
      expect(response.status, `${key(route)}: ${response.text}`).toBe(200);
      const rows = await t.db
        .select()
        .from(auditLog)
        .where(eq(auditLog.requestId, response.headers['x-request-id'] as string));
      if (rows.length !== 1 || rows[0]!.action !== 'export' || rows[0]!.actorUserId !== admin.user.id)
        silent.push(key(route));
    }
    expect(silent, 'exports without exactly one export row of the member').toEqual([]);
  }, 240_000);

  it('every exemption names a route that exists', () => {
    const keys = new Set(declaredRoutes(t.app).map(key));
    for (const exempt of [...Object.keys(exemptRoutes), ...Object.keys(workspaceRouteCalls)])
      expect(keys, exempt).toContain(exempt);
  });
});

/** A valid run of each command that changes a workspace's records. */
const commandRuns: Record<string, () => Promise<string[]>> = {
  approve: async () => {
    const [request] = await t.db
      .insert(accessRequests)
      .values({
        name: 'Sara Ali',
        email: `${unique('sara')}@example.com`,
        phone: `+20 10${String(Date.now()).slice(-8)}`,
        companyName: unique('Sara Foods '),
        businessCategory: 'food',
        howDidYouHearAboutUs: 'google',
      })
      .returning();
    return ['approve', request!.id];
  },
  'create-workspace': async () => [
    'create-workspace',
    '--name',
    unique('Made '),
    '--admin-email',
    `${unique('owner')}@example.com`,
  ],
  'app update': async () => {
    const application = await insertApplication(t.db);
    await insertSubscription(t.db, workspace.id, application.id, 'approved');
    return ['app', 'update', application.clientId, '--name-en', 'Renamed'];
  },
  'app secret': async () => {
    const application = await insertApplication(t.db, {
      clientType: 'confidential',
      secretHash: 'b'.repeat(64),
    });
    await insertSubscription(t.db, workspace.id, application.id, 'approved');
    return ['app', 'secret', application.clientId];
  },
  'approve-subscription': async () => {
    const application = await insertApplication(t.db);
    const subscription = await insertSubscription(t.db, workspace.id, application.id, 'pending', {
      plan: 'monthly',
    });
    return ['approve-subscription', subscription.id];
  },
  'reject-subscription': async () => {
    const application = await insertApplication(t.db);
    const subscription = await insertSubscription(t.db, workspace.id, application.id, 'pending', {
      plan: 'monthly',
    });
    return ['reject-subscription', subscription.id];
  },
  'record-payment': async () => {
    const application = await insertApplication(t.db, { trialDays: 0 });
    await approvedSubscription(
      subscriptionServices(t.db, new MemoryMailer()),
      workspace.id,
      application.id,
      'monthly',
      new Date(),
    );
    const [invoice] = await t.db
      .select({ id: payments.id })
      .from(payments)
      .innerJoin(subscriptions, eq(subscriptions.id, payments.subscriptionId))
      .where(eq(subscriptions.applicationId, application.id));
    return ['record-payment', invoice!.id, '--status', 'failed'];
  },
};

async function operatorRows() {
  const [row] = await t.db
    .select({ count: count() })
    .from(auditLog)
    .where(eq(auditLog.actorKind, 'operator'));
  return row!.count;
}

describe('every operator command that changes records writes an audit row or is declared exempt', () => {
  it('runs each command and finds the rows it wrote as the operator', async () => {
    const silent: string[] = [];
    const undeclared: string[] = [];
    for (const name of Object.keys(commands)) {
      if (exemptCommands[name]) continue;
      const run = commandRuns[name];
      if (!run) {
        undeclared.push(name);
        continue;
      }
      const before = await operatorRows();
      const result = await runCliOn(t, await run());
      expect(result.code, `${name}: ${result.stderr}`).toBe(0);
      if ((await operatorRows()) === before) silent.push(name);
    }
    expect(undeclared, 'commands with neither a run here nor an exemption').toEqual([]);
    expect(silent, 'commands that wrote no audit row').toEqual([]);
  });

  it('every exemption names a command that exists', () => {
    for (const name of [...Object.keys(exemptCommands), ...Object.keys(commandRuns)])
      expect(Object.keys(commands), name).toContain(name);
  });
});
