import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapDemo } from '../src/bootstrap.ts';
import { findGrantScope, revokeUnusableGrants, revokeUserGrants } from '../src/db/oauth-grants.ts';
import { workspaces } from '../src/db/schema/index.ts';
import { imageReferences, removeUnreferencedUploads } from '../src/features/files/uploads.ts';
import { runSubscriptionClock } from '../src/features/subscriptions/subscription-clock.ts';
import type { FileStore } from '../src/platform/storage/file-store.ts';
import { type ApiRequest, api } from './helpers/api.ts';
import { runCliOn } from './helpers/cli.ts';
import { permissionRoutes, routeTargets, testResources } from './helpers/route-scenarios.ts';
import { captureStatements, type StatementCapture } from './helpers/sql-capture.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { workspaceJoinProblems, workspaceTableNames } from './helpers/workspace-joins.ts';
import { addMember, createWorkspace } from './helpers/workspaces.ts';

/**
 * Every join between two workspace tables carries the workspace (`… on v.product_id = p.id and
 * v.workspace_id = p.workspace_id`), subqueries too, so that each statement can run on the one
 * node of a database sharded by workspace that holds both sides. The server's statements are
 * captured while it does a little of everything — the first start's demo catalogue (variants,
 * recipes), every workspace route as an admin, reading and deleting every demo record (the in-use
 * refusals), the subscription clock, the upload clean-up, the OAuth grants, the operator's
 * commands — and each is read by helpers/workspace-joins.ts, which names what a join lacks.
 */
let t: TestApp;
let capture: StatementCapture;

/** A call of the scenario: any answer but a server error (a refused delete of a used record is one). */
async function call(request: ApiRequest) {
  const response = await api(t.app, request);
  expect(response.status, `${capture.step} → ${response.text}`).toBeLessThan(500);
  return response;
}

beforeAll(async () => {
  t = await createTestApp();
  capture = captureStatements(t.database);
});
afterAll(async () => {
  await t?.close();
});

describe('joins between workspace tables', () => {
  it('carry the workspace in every statement the server sends', async () => {
    capture.step = 'first start: the demo workspace and its catalogue';
    await bootstrapDemo(t.db, { email: 'joins-admin@example.com', password: 'Sesame#Open1' });
    const [demo] = await t.db.select({ id: workspaces.id }).from(workspaces).limit(1);
    const demoAdmin = await addMember(t.db, demo!.id, { isAdmin: true });

    // Every workspace route, as an admin, on records seeded afresh after each write.
    const workspace = await createWorkspace(t.db);
    const admin = await addMember(t.db, workspace.id, { isAdmin: true });
    const targets = routeTargets(t.db, workspace.id);
    for (const route of permissionRoutes(t.app)) {
      capture.step = 'seeding route targets';
      const request = await targets.callOf(route);
      capture.step = `${route.method} ${route.url}`;
      await call({ ...request, cookie: admin.cookie });
    }
    capture.step = 'GET /api/auth/user';
    await call({ url: '/api/auth/user', cookie: admin.cookie });

    // The demo's records, each read, then each deleted: a record others use is refused, naming them.
    let demoRecords = 0;
    for (const data of testResources.served) {
      const { path } = data.storage.definition;
      capture.step = `GET /api/${path}`;
      const listed = await call({
        url: `/api/${path}?workspaceId=${demo!.id}&pageSize=100`,
        cookie: demoAdmin.cookie,
      });
      const ids = ((listed.json as { data?: { id: string }[] }).data ?? []).map((record) => record.id);
      demoRecords += ids.length;
      // Each filter, some with a condition of their own (a category with its sub-categories).
      for (const { field } of data.storage.definition.filters) {
        capture.step = `GET /api/${path}?${field}=…`;
        await call({
          url: `/api/${path}?workspaceId=${demo!.id}&${field}=${demo!.id}`,
          cookie: demoAdmin.cookie,
        });
      }
      for (const id of ids) {
        capture.step = `GET /api/${path}/:id`;
        await call({ url: `/api/${path}/${id}?workspaceId=${demo!.id}`, cookie: demoAdmin.cookie });
      }
      if (!data.engineVerbs.includes('delete')) continue;
      for (const id of ids) {
        capture.step = `DELETE /api/${path}/:id`;
        await call({
          method: 'DELETE',
          url: `/api/${path}/${id}?workspaceId=${demo!.id}`,
          cookie: demoAdmin.cookie,
        });
      }
    }

    expect(demoRecords, 'the demo catalogue was read').toBeGreaterThan(30);

    capture.step = 'the subscription clock';
    await runSubscriptionClock(
      {
        db: t.db,
        mailer: { send: async () => {}, close() {} },
        publicUrl: 'http://dukkan.test',
        graceDays: 7,
      },
      new Date(Date.UTC(2030, 0, 1)),
    );
    capture.step = 'the upload clean-up';
    const store = { delete: async () => {} } as unknown as FileStore;
    await removeUnreferencedUploads(t.db, imageReferences(testResources), {
      store,
      graceMs: 0,
      now: new Date(),
    });
    capture.step = 'OAuth grants';
    await findGrantScope(t.db, 'no-such-grant');
    await revokeUnusableGrants(t.db, { workspaceId: workspace.id, userId: admin.user.id });
    await revokeUserGrants(t.db, admin.user.id);
    for (const command of [['workspaces'], ['subscriptions'], ['invoices'], ['requests'], ['check-codes']]) {
      capture.step = `npm run dukkan -- ${command.join(' ')}`;
      await runCliOn(t, command);
    }

    const tables = workspaceTableNames();
    const read = new Set<string>();
    const problems: string[] = [];
    let joins = 0;
    for (const { text, step } of capture.statements) {
      if (read.has(text)) continue;
      read.add(text);
      if (/\bjoin\b|\(\s*select\b/i.test(text)) joins += 1;
      for (const problem of workspaceJoinProblems(text, tables)) {
        problems.push(`${step}: ${problem.message}\n    in: ${text.replace(/\s+/g, ' ').slice(0, 600)}`);
      }
    }
    // The scenario really went through joins and subqueries (not a capture that saw nothing).
    expect(read.size).toBeGreaterThan(200);
    expect(joins).toBeGreaterThan(40);
    expect(problems, problems.join('\n')).toEqual([]);
  }, 400_000);
});
