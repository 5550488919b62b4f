/**
 * What assigning codes costs: a bulk of 500 brands without codes (each takes the next code of the
 * workspace's sequence: the counter row locked, the free codes looked up, the counter advanced)
 * against the same bulk with typed codes (the baseline), taking turns for BENCH_ROUNDS rounds, each
 * in a workspace of its own; every round's generated codes are checked to be BR-0001…BR-0500.
 * Then how long the check of stored codes takes (`findCodeCollisions`, run by `check-codes` and at
 * the server's start) over BENCH_STORED_CODES brands.
 *
 * Run in this process on the server's modules (the engine's create, as the bulk route calls it),
 * on a fresh database per kind. Environment: BENCH_DATABASES (pglite,postgres), BENCH_ROUNDS (7),
 * BENCH_BULK_ROWS (500), BENCH_STORED_CODES (100000), BENCH_POSTGRES_URL (as auth.ts).
 */
import { brandInputSchema } from '@dukkan/contract';
import { sql } from 'drizzle-orm';
import type { Database } from '../apps/server/src/db/client.ts';
import { workspaces } from '../apps/server/src/db/schema/index.ts';
import { findCodeCollisions, storedCodeColumns } from '../apps/server/src/resource-engine/code-collisions.ts';
import { CodeSequence, sequenceCode } from '../apps/server/src/resource-engine/code-sequence.ts';
import { systemCaller } from '../apps/server/src/resource-engine/storage.ts';
import { createAppResources } from '../apps/server/src/resources.ts';
import { benchDatabases, type DatabaseKind, type Skipped } from './support/database-kinds.ts';
import { migrated, withFreshDatabase } from './support/databases.ts';
import { type DatabaseMachine, databaseMachine, machineLine } from './support/machine.ts';
import { type Rounds, roundsOf } from './support/numbers.ts';
import { writeResult } from './support/results.ts';
import { intFromEnv, runAsScript } from './support/script.ts';

/** Milliseconds of each round's bulk create (or check), and their median. */
type Side = Rounds;

interface CodeSequenceReport {
  machine: DatabaseMachine;
  rowsPerBulk: number;
  storedCodes: number;
  results: {
    database: DatabaseKind;
    withoutCodes: Side;
    typedCodes: Side;
    /** The sequence's own statements for one bulk (lock, look, counter), in a transaction. */
    sequenceOnly: Side;
    /** Milliseconds of the stored codes' check, per run. */
    check: Side;
  }[];
  skipped: Skipped[];
}

const engine = createAppResources();

async function workspace(db: Database, name: string): Promise<string> {
  const [created] = await db.insert(workspaces).values({ name }).returning({ id: workspaces.id });
  return created!.id;
}

/** One bulk of `rows` brands, with typed codes or without; its duration, its codes checked. */
async function bulk(db: Database, rows: number, typed: boolean, label: string): Promise<number> {
  const workspaceId = await workspace(db, label);
  const inputs = Array.from(
    { length: rows },
    (_, index) =>
      brandInputSchema.parse({
        ...(typed ? { code: `TYPED-${index + 1}` } : {}),
        name: [{ locale: 'en', value: `Brand ${index + 1}` }],
      }) as Record<string, unknown>,
  );
  const started = performance.now();
  const created = await engine.data('brands').create(db, systemCaller(workspaceId), inputs, true);
  const elapsed = performance.now() - started;
  const expected = inputs.map((_, index) => (typed ? `TYPED-${index + 1}` : sequenceCode('BR', index + 1)));
  if (created.map((record) => record.code).join() !== expected.join())
    throw new Error(`${label}: the codes are not ${expected[0]}…${expected.at(-1)}`);
  return elapsed;
}

/** The sequence alone giving `rows` codes in a new workspace: what a bulk without codes adds. */
async function sequenceOnly(db: Database, rows: number, label: string): Promise<number> {
  const workspaceId = await workspace(db, label);
  const { storage } = engine.data('brands');
  return db.transaction(async (tx) => {
    const started = performance.now();
    const sequence = new CodeSequence(tx, storage.table, storage.columns.code!, 'brands', workspaceId, 'BR');
    await sequence.lock();
    for (let index = 0; index < rows; index++) await sequence.next(rows - index);
    await sequence.finish();
    return performance.now() - started;
  });
}

export async function runCodeSequenceBench(): Promise<{ ok: boolean }> {
  const rounds = intFromEnv('BENCH_ROUNDS', 7);
  const rows = intFromEnv('BENCH_BULK_ROWS', 500);
  const stored = intFromEnv('BENCH_STORED_CODES', 100_000);
  const report: CodeSequenceReport = {
    machine: databaseMachine(),
    rowsPerBulk: rows,
    storedCodes: stored,
    results: [],
    skipped: [],
  };
  for (const database of benchDatabases())
    await withFreshDatabase(database, 'codes', report, async (fresh) => {
      const result = await migrated(fresh.options, async (db) => {
        const generated: number[] = [];
        const typed: number[] = [];
        const alone: number[] = [];
        // One of each first, not counted: the first bulk of a process builds the schemas and plans.
        await bulk(db, rows, false, 'Warm-up generated');
        await bulk(db, rows, true, 'Warm-up typed');
        // Taking turns, so that both sides see the same state of the database and machine.
        for (let round = 0; round < rounds; round++) {
          generated.push(await bulk(db, rows, false, `Generated ${round}`));
          typed.push(await bulk(db, rows, true, `Typed ${round}`));
          alone.push(await sequenceOnly(db, rows, `Sequence ${round}`));
        }
        // The stored codes' check over `stored` brands of one workspace, a few of them colliding.
        const many = await workspace(db, 'Stored codes');
        await db.execute(sql`
          insert into brands (workspace_id, code, name_en)
          select ${many}, 'CODE-' || n || case when n % 10000 = 0 then '\u200b' else '' end, 'Brand ' || n
          from generate_series(1, ${stored}) as n`);
        await db.execute(sql`
          insert into brands (workspace_id, code, name_en)
          select ${many}, 'CODE-' || n, 'Twin ' || n from generate_series(10000, ${stored}, 10000) as n`);
        const checks: number[] = [];
        const columns = storedCodeColumns(engine);
        for (let run = 0; run < 3; run++) {
          const started = performance.now();
          const found = await findCodeCollisions(db, columns);
          checks.push(performance.now() - started);
          if (found.length !== Math.floor(stored / 10_000))
            throw new Error(`the check found ${found.length} groups, not ${Math.floor(stored / 10_000)}`);
        }
        return {
          withoutCodes: roundsOf(generated),
          typedCodes: roundsOf(typed),
          sequenceOnly: roundsOf(alone),
          check: roundsOf(checks),
        };
      });
      report.results.push({ database, ...result });
      process.stdout.write(
        `  ${database}: a bulk of ${rows} brands without codes, median ${result.withoutCodes.median} ms; with typed codes ${result.typedCodes.median} ms; the sequence's own statements ${result.sequenceOnly.median} ms (${rounds} rounds); the stored codes' check over ${stored} brands ${result.check.median} ms\n`,
      );
    });
  process.stdout.write(
    `${machineLine(report.machine)}\nwritten to ${writeResult('code-sequence', report)}\n`,
  );
  return { ok: true };
}

runAsScript(import.meta.url, runCodeSequenceBench);
