import { and, count, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { purgeExpiredAudit } from '../src/db/audit-retention.ts';
import { auditLog, signInEvents, workspaces } from '../src/db/schema/index.ts';
import { createUser } from './helpers/api.ts';
import { type TestApp, useTestApp } from './helpers/test-app.ts';
import { createWorkspace } from './helpers/workspaces.ts';

/**
 * The retention purge: each workspace's changes older than its `audit_retention_days` go, in
 * batches, each batch on record as the system's purge; a person's sign-ins go after a year; a
 * second run at once finds the claim taken.
 */
let t: TestApp;
useTestApp((app) => {
  t = app;
});

const dayMs = 24 * 60 * 60 * 1000;

async function addRows(workspaceId: string, ages: readonly number[], now: Date) {
  await t.db.insert(auditLog).values(
    ages.map((days, index) => ({
      workspaceId,
      at: new Date(now.getTime() - days * dayMs),
      actorKind: 'system' as const,
      action: 'update',
      resource: 'brands',
      recordId: `record-${index}`,
      changes: { n: [index, index + 1] as [unknown, unknown] },
    })),
  );
}

async function rowsOf(workspaceId: string, resource = 'brands') {
  const [row] = await t.db
    .select({ count: count() })
    .from(auditLog)
    .where(and(eq(auditLog.workspaceId, workspaceId), eq(auditLog.resource, resource)));
  return row!.count;
}

describe('the audit retention purge', () => {
  it("deletes each workspace's rows past its own retention, in batches, and records each batch", async () => {
    const now = new Date();
    const yearly = await createWorkspace(t.db, 'Yearly');
    const monthly = await createWorkspace(t.db, 'Monthly');
    await t.db.update(workspaces).set({ auditRetentionDays: 30 }).where(eq(workspaces.id, monthly.id));
    // 7 rows older than 365 days, 5 between 30 and 365, 3 younger than 30.
    const ages = [...Array(7).fill(400), ...Array(5).fill(100), ...Array(3).fill(1)];
    await addRows(yearly.id, ages, now);
    await addRows(monthly.id, ages, now);

    const run = await purgeExpiredAudit(t.db, { now, batchSize: 4 });
    expect(run.claimed).toBe(true);
    expect(run.auditRows.get(yearly.id)).toBe(7);
    expect(run.auditRows.get(monthly.id)).toBe(12);
    expect(await rowsOf(yearly.id)).toBe(8);
    expect(await rowsOf(monthly.id)).toBe(3);

    // Batches of 4: 7 rows in 2 batches, 12 in 3, each on record as the system's purge.
    const purges = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.workspaceId, monthly.id), eq(auditLog.action, 'purge')));
    expect(purges.map((row) => row.changes.rows)).toEqual([
      [4, 0],
      [4, 0],
      [4, 0],
    ]);
    expect(purges.every((row) => row.actorKind === 'system')).toBe(true);
    expect(await rowsOf(yearly.id, 'auditLog')).toBe(2);

    const again = await purgeExpiredAudit(t.db, { now, batchSize: 4 });
    expect(again.auditRows.size).toBe(0);
  });

  it("deletes a person's sign-in events after a year", async () => {
    const now = new Date();
    const user = await createUser(t.db);
    await t.db.insert(signInEvents).values([
      { userId: user.id, kind: 'sign-in', success: true, at: new Date(now.getTime() - 400 * dayMs) },
      { userId: user.id, kind: 'failure', success: false, at: new Date(now.getTime() - 10 * dayMs) },
    ]);
    const run = await purgeExpiredAudit(t.db, { now });
    expect(run.signInEvents).toBe(1);
    const left = await t.db.select().from(signInEvents).where(eq(signInEvents.userId, user.id));
    expect(left.map((event) => event.kind)).toEqual(['failure']);
  });

  it.runIf(process.env.DATABASE_URL)(
    'stops when another instance holds the claim, and deletes nothing (PostgreSQL only)',
    async () => {
      const now = new Date();
      const shop = await createWorkspace(t.db, 'Claimed');
      await addRows(shop.id, [400, 400], now);
      // Another instance's batch holds the claim for the length of its transaction.
      let release!: () => void;
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      let holding!: () => void;
      const held = new Promise<void>((resolve) => {
        holding = resolve;
      });
      const holder = t.db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext('audit-retention'), 0)`);
        holding();
        await released;
      });
      await held;
      const run = await purgeExpiredAudit(t.db, { now });
      release();
      await holder;
      expect(run.claimed).toBe(false);
      expect(await rowsOf(shop.id)).toBe(2);
    },
  );
});
