/**
 * `npm run bench:audit-insert -w @dukkan/bench`: writing a write's audit rows, the way the server
 * writes them (`recordAudit`: past one row, one `INSERT … SELECT FROM json_to_recordset(…)`, the
 * columns the rows share bound once) against the way it wrote them before (one `INSERT … SELECT
 * FROM unnest(…)`, each column one text array), on each database, in one
 * process, the two taking turns (the order alternating every round).
 *
 * Each timed write is one transaction adding the rows of brands created, as the engine records
 * them, to a migrated database: for each count of BENCH_AUDIT_ROWS (1, 10, 50 and 500 — a single
 * create, and the 500-brand bulk create of `audit-log.ts`). The cost part of `audit-log.ts` measures the whole
 * request with and without the log; this one isolates the statement it changed.
 *
 * Environment: BENCH_DATABASES (pglite,postgres), BENCH_AUDIT_ROWS (1,10,50,500), BENCH_WRITES
 * (timed writes per side of each count: 200 for a count up to 50, else 30), BENCH_POSTGRES_URL.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { type AuditEntry, recordAudit } from '../apps/server/src/db/audit-log.ts';
import type { Database } from '../apps/server/src/db/client.ts';
import { auditLog, workspaces } from '../apps/server/src/db/schema/index.ts';
import { benchDatabases, databaseName, type Skipped } from './support/database-kinds.ts';
import { freshDatabase, migrated } from './support/databases.ts';
import { databaseMachine, machineLine } from './support/machine.ts';
import { median, round1, round2 } from './support/numbers.ts';
import { writeResult } from './support/results.ts';
import { intFromEnv, runAsScript } from './support/script.ts';

type Side = 'arrays' | 'json';

const percentile = (samples: number[], share: number) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))]!;
};

/** `count` entries of brands created, as the engine records them. */
function entries(workspaceId: string, count: number): AuditEntry[] {
  return Array.from({ length: count }, (_, index) => ({
    workspaceId,
    action: 'create',
    resource: 'brands',
    recordId: randomUUID(),
    changes: {
      code: [null, `BR-${String(index).padStart(4, '0')}`],
      nameEn: [null, `Brand ${index}`],
      nameAr: [null, `علامة ${index}`],
      status: [null, 'active'],
    },
  }));
}

/** One column of the rows as a single array parameter of `type`. */
const column = (values: readonly unknown[], type: 'uuid' | 'text') =>
  sql`${sql.param(values)}::${sql.raw(type)}[]`;

/** The rows as `recordAudit` wrote them before: one text array per column, unnested. */
async function insertArrays(db: Database, written: AuditEntry[]) {
  await db.execute(sql`
    insert into ${auditLog} (id, workspace_id, actor_kind, actor_user_id, request_id, address,
      user_agent, action, resource, record_id, changes)
    select e.id, e.workspace_id, 'member', e.actor_user_id, null, null, null, e.action, e.resource,
      e.record_id, e.changes::json
    from unnest(
      ${column(
        written.map(() => randomUUID()),
        'uuid',
      )},
      ${column(
        written.map((entry) => entry.workspaceId),
        'uuid',
      )},
      ${column(
        written.map(() => null),
        'uuid',
      )},
      ${column(
        written.map((entry) => entry.action),
        'text',
      )},
      ${column(
        written.map((entry) => entry.resource),
        'text',
      )},
      ${column(
        written.map((entry) => entry.recordId),
        'text',
      )},
      ${column(
        written.map((entry) => JSON.stringify(entry.changes)),
        'text',
      )}
    ) as e(id, workspace_id, actor_user_id, action, resource, record_id, changes)`);
}

const write: Record<Side, (db: Database, written: AuditEntry[]) => Promise<void>> = {
  arrays: insertArrays,
  json: (db, written) => recordAudit(db, written),
};

async function measure(db: Database, workspaceId: string, rows: number, writes: number) {
  const samples: Record<Side, number[]> = { arrays: [], json: [] };
  for (let round = 0; round < writes + 2; round++) {
    const order: Side[] = round % 2 === 0 ? ['arrays', 'json'] : ['json', 'arrays'];
    for (const side of order) {
      const written = entries(workspaceId, rows);
      const started = performance.now();
      await db.transaction((tx) => write[side](tx as unknown as Database, written));
      // The first two rounds warm each statement's plan and the table's pages up.
      if (round >= 2) samples[side].push(performance.now() - started);
    }
  }
  const summary = (side: Side) => ({
    p50: round2(median(samples[side])),
    p95: round2(percentile(samples[side], 0.95)),
  });
  return { rows, writes, arrays: summary('arrays'), json: summary('json') };
}

async function run() {
  const machine = databaseMachine();
  const report = { machine, skipped: [] as Skipped[], results: [] as unknown[] };
  const counts = (process.env.BENCH_AUDIT_ROWS ?? '1,10,50,500').split(',').map(Number);
  if (counts.some((count) => !Number.isInteger(count) || count <= 0))
    throw new Error('BENCH_AUDIT_ROWS must list positive integers');
  const writesOf = (count: number) => intFromEnv('BENCH_WRITES', count <= 50 ? 200 : 30);
  const lines: string[] = [];
  for (const database of benchDatabases()) {
    const fresh = await freshDatabase(database, 'audit-insert', report);
    if (!fresh) continue;
    try {
      await migrated(fresh.options, async (db) => {
        const [workspace] = await db
          .insert(workspaces)
          .values({ name: 'Audit insert', baseCurrency: 'EGP' } as typeof workspaces.$inferInsert)
          .returning({ id: workspaces.id });
        for (const count of counts) {
          const result = await measure(db, workspace!.id, count, writesOf(count));
          report.results.push({ database, ...result });
          lines.push(
            `| ${databaseName(database)} | ${count} | ${result.arrays.p50} / ${result.arrays.p95} ms | ${result.json.p50} / ${result.json.p95} ms | ${round1(result.arrays.p50 / result.json.p50)} |`,
          );
        }
      });
    } finally {
      await fresh.cleanup();
    }
  }
  process.stdout.write(
    [
      `\nWriting audit rows: ${machineLine(machine)}`,
      `${counts.map((count) => `${writesOf(count)} writes of ${count}`).join(', ')} rows per side, the sides in turn\n`,
      '| database | rows a write | a text array a column: p50 / p95 | `recordAudit` (JSON past one row): p50 / p95 | p50 ÷ |',
      '|---|---:|---:|---:|---:|',
      ...lines,
      '',
    ].join('\n'),
  );
  process.stdout.write(`Results: ${writeResult('audit-insert', report)}\n`);
  return { ok: true };
}

runAsScript(import.meta.url, run);
