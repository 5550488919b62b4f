import { auditLogResource } from '@dukkan/contract';
import { sql } from 'drizzle-orm';
import { asAuditActor, recordAudit } from './audit-log.ts';
import type { Database } from './client.ts';
import { auditLog, signInEvents, workspaces } from './schema/index.ts';

/*
 * The audit log's retention: each workspace keeps its changes `audit_retention_days` (365 by
 * default), a person's sign-in events are kept a year. Every instance runs the purge; one batch
 * at a time is claimed across them (an advisory lock held by the batch's transaction), so each
 * row is purged once and a second instance finding the claim taken stops its run. A batch is
 * one short transaction of at most `batchSize` rows found, and deleted, through the log's key
 * `(workspace_id, at, id)`: a purge of a million rows never holds a lock that a write waits for
 * more than one batch long.
 */

/** How long a person's sign-ins, failures and password changes are kept. */
export const signInEventRetentionDays = 365;

/** Rows deleted per statement (and per transaction). */
export const purgeBatchSize = 5_000;

const dayMs = 24 * 60 * 60 * 1000;

/** Taken by one purge batch at a time, across every instance on the database. */
const purgeClaim = sql`select pg_try_advisory_xact_lock(hashtext('audit-retention'), 0) as claimed`;

export interface AuditPurgeRun {
  /** Audit rows deleted, by workspace. */
  auditRows: Map<string, number>;
  signInEvents: number;
  /** False when another instance held the claim: this run stopped there. */
  claimed: boolean;
}

/**
 * Deletes, in batches, the audit rows older than each workspace's retention and the sign-in
 * events older than a year. Each batch records what it purged (actor: the system) in the
 * workspace's own log.
 */
export function purgeExpiredAudit(
  db: Database,
  options: { now: Date; batchSize?: number },
): Promise<AuditPurgeRun> {
  return asAuditActor('system', () => purge(db, options));
}

async function purge(db: Database, { now, batchSize = purgeBatchSize }: { now: Date; batchSize?: number }) {
  const run: AuditPurgeRun = { auditRows: new Map(), signInEvents: 0, claimed: true };
  const kept = await db.select({ id: workspaces.id, days: workspaces.auditRetentionDays }).from(workspaces);
  for (const workspace of kept) {
    const cutoff = new Date(now.getTime() - workspace.days * dayMs);
    for (;;) {
      const deleted = await db.transaction(async (tx) => {
        if (!(await claimed(tx))) return null;
        const result = await tx.execute(sql`
          delete from ${auditLog} where workspace_id = ${workspace.id} and (at, id) in (
            select at, id from ${auditLog}
            where workspace_id = ${workspace.id} and at < ${cutoff.toISOString()}
            order by at, id
            limit ${batchSize})`);
        const rows = affected(result);
        if (rows > 0) {
          await recordAudit(tx, [
            {
              workspaceId: workspace.id,
              action: 'purge',
              // The record a purge changes is the workspace's log itself: named by the log's key,
              // as the list's resource filter and the web name it (docs/architecture.md).
              resource: auditLogResource.key,
              recordId: workspace.id,
              changes: { rows: [rows, 0], before: [cutoff.toISOString(), null] },
            },
          ]);
        }
        return rows;
      });
      if (deleted === null) return { ...run, claimed: false };
      if (deleted > 0) run.auditRows.set(workspace.id, (run.auditRows.get(workspace.id) ?? 0) + deleted);
      if (deleted < batchSize) break;
    }
  }
  const signInCutoff = new Date(now.getTime() - signInEventRetentionDays * dayMs);
  for (;;) {
    const deleted = await db.transaction(async (tx) => {
      if (!(await claimed(tx))) return null;
      return affected(
        await tx.execute(sql`
          delete from ${signInEvents} where id in (
            select id from ${signInEvents} where at < ${signInCutoff.toISOString()} order by at limit ${batchSize})`),
      );
    });
    if (deleted === null) return { ...run, claimed: false };
    run.signInEvents += deleted;
    if (deleted < batchSize) break;
  }
  return run;
}

async function claimed(tx: Database): Promise<boolean> {
  const claim = await tx.execute(purgeClaim);
  return (claim as unknown as { rows: { claimed: boolean }[] }).rows[0]?.claimed === true;
}

/** The rows a DELETE removed, as node-postgres and PGlite report it. */
function affected(result: unknown): number {
  const { rowCount, affectedRows } = result as { rowCount?: number | null; affectedRows?: number };
  return Number(rowCount ?? affectedRows ?? 0);
}

/** How often each instance runs the purge. */
const purgeIntervalMs = 60 * 60 * 1000;

interface PurgeLog {
  info(object: unknown, message: string): void;
  error(object: unknown, message: string): void;
}

/**
 * Runs the purge every hour on a timer that never keeps the process alive; a failure is logged.
 * Returns what stops it.
 */
export function startAuditRetention(db: Database, now: () => Date, log: PurgeLog): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    purgeExpiredAudit(db, { now: now() })
      .then((run) => {
        const rows = [...run.auditRows.values()].reduce((sum, n) => sum + n, 0);
        if (rows + run.signInEvents > 0)
          log.info({ auditRows: rows, signInEvents: run.signInEvents }, 'purged the expired audit log');
      })
      .catch((error: unknown) => log.error({ err: error }, 'audit log purge failed'))
      .finally(() => {
        running = false;
      });
  }, purgeIntervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
