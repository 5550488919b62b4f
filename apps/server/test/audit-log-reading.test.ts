import { type AuditLogRecord, auditLogResource, type SignInEvent } from '@dukkan/contract';
import { describe, expect, it } from 'vitest';
import { purgeExpiredAudit } from '../src/db/audit-retention.ts';
import { auditLog, signInEvents } from '../src/db/schema/index.ts';
import { api, dataOf, errorOf, expectValidation } from './helpers/api.ts';
import { listPagePlan } from './helpers/list-plan.ts';
import { callInWorkspace, type TwoShops, useTwoShops } from './helpers/shops.ts';
import { addMember, createWorkspace, type TestMember, tagsExcept } from './helpers/workspaces.ts';

/**
 * Reading the audit log (`GET /api/audit-log`, the engine's list behind viewAudit): newest first,
 * paged, filtered by member, resource, record, action and days of the workspace's calendar; and
 * the sign-in events — a person's own, and a workspace's members'.
 */
let shops: TwoShops;
useTwoShops('Audit', (received) => {
  shops = received;
});

type Row = typeof auditLog.$inferInsert;
const brandId = '11111111-1111-4111-8111-111111111111';
const otherBrandId = '22222222-2222-4222-8222-222222222222';

async function record(rows: Omit<Row, 'actorKind' | 'resource' | 'recordId' | 'changes'> & Partial<Row>) {
  await shops.t.db.insert(auditLog).values({
    actorKind: 'member',
    resource: 'brands',
    recordId: brandId,
    changes: {},
    ...rows,
  });
}

const list = (query: string, member: TestMember | null = shops.admin) =>
  callInWorkspace(shops.t, shops.shop, query ? `audit-log?${query.slice(1)}` : 'audit-log', { member });
const ids = (rows: AuditLogRecord[]) => rows.map((row) => row.action);

describe('GET /api/audit-log', () => {
  let clerk: TestMember;

  it('lists the workspace’s rows newest first, with who made them and the changes', async () => {
    clerk = await addMember(shops.t.db, shops.shop.id, { tags: ['viewBrands'], name: 'Clerk Karim' });
    // At midnight in Cairo (the workspace's zone, UTC+2): 28 November 22:30 UTC is 29 November there.
    await record({
      workspaceId: shops.shop.id,
      actorUserId: shops.admin.user.id,
      at: new Date('2026-11-27T10:00:00Z'),
      action: 'create',
      changes: { code: [null, 'BR-0001'] },
    });
    await record({
      workspaceId: shops.shop.id,
      actorUserId: clerk.user.id,
      at: new Date('2026-11-28T22:30:00Z'),
      action: 'update',
      requestId: 'req-1',
      address: '203.0.113.7',
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0',
      changes: { name: [[{ locale: 'en', value: 'Old' }], [{ locale: 'en', value: 'New' }]] },
    });
    await record({
      workspaceId: shops.shop.id,
      actorKind: 'system',
      at: new Date('2026-11-29T09:00:00Z'),
      action: 'disable',
      recordId: otherBrandId,
      changes: { status: ['active', 'inactive'] },
    });
    // Another workspace's row is never listed here.
    await record({
      workspaceId: shops.other.id,
      actorUserId: shops.otherAdmin.user.id,
      at: new Date('2026-11-29T10:00:00Z'),
      action: 'delete',
    });

    const response = await list('');
    const rows = dataOf<AuditLogRecord[]>(response);
    expect(ids(rows)).toEqual(['disable', 'update', 'create']);
    expect((response.json as { meta: unknown }).meta).toEqual({ total: 3, page: 1, pageSize: 20 });
    expect(rows[1]).toEqual({
      id: expect.any(String),
      at: '2026-11-28T22:30:00.000Z',
      actorKind: 'member',
      actorUserId: clerk.user.id,
      actorName: 'Clerk Karim',
      requestId: 'req-1',
      address: '203.0.113.7',
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0',
      action: 'update',
      resource: 'brands',
      recordId: brandId,
      changes: { name: [[{ locale: 'en', value: 'Old' }], [{ locale: 'en', value: 'New' }]] },
      names: null,
    });
    expect(rows[0]).toMatchObject({ actorKind: 'system', actorUserId: null, actorName: null });
    // Oldest first when asked, and paged.
    expect(ids(dataOf(await list('&sort=at&pageSize=2&page=2')))).toEqual(['disable']);
  });

  it('gives a record’s History: its rows alone, newest first', async () => {
    expect(ids(dataOf(await list(`&resource=brands&recordId=${brandId}`)))).toEqual(['update', 'create']);
    expect(ids(dataOf(await list(`&resource=products&recordId=${brandId}`)))).toEqual([]);
  });

  it('filters by member (none: the operator and the system), action and days of the workspace’s calendar', async () => {
    expect(ids(dataOf(await list(`&actorUserId=${clerk.user.id}`)))).toEqual(['update']);
    expect(ids(dataOf(await list('&actorUserId=none')))).toEqual(['disable']);
    expect(ids(dataOf(await list('&action=create,disable')))).toEqual(['disable', 'create']);
    expect(ids(dataOf(await list('&at=2026-11-29..2026-11-29')))).toEqual(['disable', 'update']);
    expect(ids(dataOf(await list('&at=..2026-11-28')))).toEqual(['create']);
    expect(ids(dataOf(await list('&at=2026-11-28..')))).toEqual(['disable', 'update']);
  });

  it('refuses an unknown action, a range ending before it starts and a page too long', async () => {
    expectValidation(await list('&at=2026-11-29..2026-11-01'), 'at', 'FILTER_IS_INVALID');
    expectValidation(await list('&action=rename'), 'action.0', 'FILTER_IS_INVALID');
    expectValidation(await list('&pageSize=500'), 'pageSize', 'PAGE_SIZE_IS_INVALID');
  });

  it('401 signed out, 403 without viewAudit, 403 for another workspace', async () => {
    const signedOut = await list('', null);
    expect(signedOut.status).toBe(401);
    errorOf(signedOut);
    const everythingElse = await addMember(shops.t.db, shops.shop.id, { tags: tagsExcept(['viewAudit']) });
    expect((await list('', everythingElse)).status).toBe(403);
    const reader = await addMember(shops.t.db, shops.shop.id, { tags: ['viewAudit'] });
    expect(ids(dataOf(await list('', reader)))).toHaveLength(3);
    // The other workspace's admin holds every tag there, none here.
    expect((await list('', shops.otherAdmin)).status).toBe(403);
    expect((await callInWorkspace(shops.t, shops.other, 'audit-log', { member: shops.admin })).status).toBe(
      403,
    );
  });
});

describe("the log's key", () => {
  // Keyed (workspace_id, at, id) rather than (workspace_id, id) beside an index on those three
  // columns, which every row of a bulk paid for (decision 0059): the first page is the key read
  // backwards, and nothing but the id tie-break within one time is sorted.
  it('is the order of the Activity page: its newest rows are the key read backwards', async () => {
    const plan = await listPagePlan(shops.t.db, auditLogResource.key, auditLog, shops.shop.id, {
      sort: auditLogResource.defaultSort,
      locale: 'en',
    });
    expect(plan, plan).toMatch(/Index (Only )?Scan Backward using audit_log_pkey/);
    expect(plan, plan).not.toMatch(/(^|-> {2})Sort\b/m);
  });
});

describe('the count of a long log', () => {
  it('stops at the declaration’s limit and says so; every page can still be read', async () => {
    const busy = await createWorkspace(shops.t.db);
    const owner = await addMember(shops.t.db, busy.id, { isAdmin: true });
    const limit = auditLogResource.countLimit!;
    await shops.t.db.insert(auditLog).values(
      Array.from({ length: limit + 1 }, (_, index) => ({
        workspaceId: busy.id,
        actorKind: 'system' as const,
        at: new Date(Date.UTC(2026, 0, 1, 0, 0, index)),
        action: index === 0 ? 'delete' : 'update',
        resource: 'customers',
        recordId: `r${index}`,
        changes: {},
      })),
    );
    const page = async (query: string) =>
      (await callInWorkspace(shops.t, busy, `audit-log?${query}`, { member: owner })).json as {
        data: AuditLogRecord[];
        meta: Record<string, unknown>;
      };
    const first = await page('pageSize=100');
    expect(first.meta).toEqual({ total: limit, page: 1, pageSize: 100, totalCapped: true });
    // The oldest row, past the counted ones, is on its page all the same.
    const last = await page(`pageSize=100&page=${limit / 100 + 1}`);
    expect(last.data.map((row) => row.recordId)).toEqual(['r0']);
    // Fewer matches than the limit: counted exactly.
    expect((await page('action=delete')).meta).toEqual({ total: 1, page: 1, pageSize: 20 });
  });
});

describe("the retention purge's rows", () => {
  it('are found by the resource filter under the audit log, and under no purged resource', async () => {
    const kept = await createWorkspace(shops.t.db);
    const owner = await addMember(shops.t.db, kept.id, { isAdmin: true });
    const now = new Date();
    await shops.t.db.insert(auditLog).values(
      ['brands', 'customers'].map((resource, index) => ({
        workspaceId: kept.id,
        actorKind: 'system' as const,
        at: new Date(now.getTime() - 400 * 24 * 60 * 60 * 1000),
        action: 'update',
        resource,
        recordId: `r${index}`,
        changes: {},
      })),
    );
    expect((await purgeExpiredAudit(shops.t.db, { now })).auditRows.get(kept.id)).toBe(2);
    const listed = async (query: string) =>
      dataOf<AuditLogRecord[]>(await callInWorkspace(shops.t, kept, `audit-log?${query}`, { member: owner }));
    const [purge] = await listed(`resource=${auditLogResource.key}`);
    expect(purge).toMatchObject({ action: 'purge', actorKind: 'system', resource: auditLogResource.key });
    expect(purge!.changes.rows).toEqual([2, 0]);
    expect(await listed('resource=brands,customers')).toEqual([]);
    expect((await listed('action=purge')).map((row) => row.id)).toEqual([purge!.id]);
  });
});

describe('sign-in events', () => {
  let member: TestMember;
  let outsider: TestMember;

  it('GET /api/auth/sign-ins: the person’s own, newest first, and nobody else’s', async () => {
    member = await addMember(shops.t.db, shops.shop.id, { tags: [], name: 'Mona' });
    outsider = await addMember(shops.t.db, shops.other.id, { tags: [] });
    await shops.t.db.insert(signInEvents).values([
      {
        userId: member.user.id,
        at: new Date('2026-11-28T08:00:00Z'),
        kind: 'failure',
        success: false,
        address: '198.51.100.1',
      },
      {
        userId: member.user.id,
        at: new Date('2026-11-28T08:01:00Z'),
        kind: 'sign-in',
        success: true,
        userAgent: 'curl/8',
      },
      { userId: outsider.user.id, at: new Date('2026-11-28T09:00:00Z'), kind: 'sign-in', success: true },
    ]);
    const own = dataOf<SignInEvent[]>(
      await api(shops.t.app, { url: '/api/auth/sign-ins', cookie: member.cookie }),
    );
    expect(own.map((event) => [event.kind, event.success])).toEqual([
      ['sign-in', true],
      ['failure', false],
    ]);
    expect(own[1]).toMatchObject({ userId: member.user.id, userName: 'Mona', address: '198.51.100.1' });
    expect((await api(shops.t.app, { url: '/api/auth/sign-ins' })).status).toBe(401);
  });

  it('GET /api/audit-log/sign-ins: the workspace’s members’, behind viewAudit', async () => {
    const page = await callInWorkspace(shops.t, shops.shop, 'audit-log/sign-ins', { member: shops.admin });
    const events = dataOf<SignInEvent[]>(page);
    expect(events.every((event) => event.userId !== outsider.user.id)).toBe(true);
    expect(events.map((event) => event.userName)).toEqual(['Mona', 'Mona']);
    expect((page.json as { meta: unknown }).meta).toEqual({ total: 2, page: 1, pageSize: 20 });
    expect((await callInWorkspace(shops.t, shops.shop, 'audit-log/sign-ins', { member })).status).toBe(403);
    expectValidation(
      await callInWorkspace(shops.t, shops.shop, 'audit-log/sign-ins?page=0', { member: shops.admin }),
      'page',
    );
  });
});
