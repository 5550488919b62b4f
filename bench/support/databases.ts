/**
 * The databases a benchmark runs on: which to measure, a fresh one for each run (dropped after),
 * migrated from this process, with the benchmark's workspaces. Loads the server's database modules:
 * not for the bare baselines (list-baseline.ts), whose process is measured.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { type Database, openDatabase } from '../../apps/server/src/db/client.ts';
import { appMeta, workspaces } from '../../apps/server/src/db/schema/index.ts';
import type { DatabaseKind, Skipped } from './database-kinds.ts';

/** Where a benchmark's database is, as `openDatabase` takes it. */
export type BenchDatabaseOptions = { kind: 'pglite'; dataDir: string } | { kind: 'postgres'; url: string };

interface FreshDatabase {
  options: BenchDatabaseOptions;
  /** The server's variables for it: DATA_DIR or DATABASE_URL. */
  variables: Record<string, string>;
  /** A temporary folder of the run: on PGlite, the data folder. */
  workDir: string;
  /** On PostgreSQL: a client of the server's default database, and the benchmark's database. */
  postgres?: { admin: pg.Client; name: string };
  /** Removes the folder, and drops the database. */
  cleanup(): Promise<void>;
}

/**
 * A temporary folder (`dukkan-bench-<slug>-…`) and, on PostgreSQL, a fresh database
 * (`dukkan_bench_<slug>_…`) on BENCH_POSTGRES_URL's server (default
 * postgres://postgres@127.0.0.1:5432/postgres), dropped by `cleanup`. Undefined if PostgreSQL is
 * unreachable: the report's `skipped` says why, and so does stdout. Sets the report's PostgreSQL
 * version.
 */
export async function freshDatabase(
  database: DatabaseKind,
  slug: string,
  report: { machine: { postgres?: string }; skipped: Skipped[] },
): Promise<FreshDatabase | undefined> {
  const workDir = mkdtempSync(join(tmpdir(), `dukkan-bench-${slug ? `${slug}-` : ''}`));
  const removeWorkDir = async () => rmSync(workDir, { recursive: true, force: true });
  if (database === 'pglite')
    return {
      options: { kind: 'pglite', dataDir: workDir },
      variables: { DATA_DIR: workDir },
      workDir,
      cleanup: removeWorkDir,
    };
  const adminUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `dukkan_bench_${slug ? `${slug.replaceAll('-', '_')}_` : ''}${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  try {
    await admin.connect();
  } catch (error) {
    report.skipped.push({
      database,
      reason: `PostgreSQL at ${adminUrl} unreachable: ${(error as Error).message}`,
    });
    process.stdout.write(`  postgres skipped: ${adminUrl} unreachable (${(error as Error).message})\n`);
    await removeWorkDir();
    return undefined;
  }
  report.machine.postgres = String((await admin.query('SHOW server_version')).rows[0]?.server_version);
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    options: { kind: 'postgres', url: url.toString() },
    variables: { DATABASE_URL: url.toString() },
    workDir,
    postgres: { admin, name },
    async cleanup() {
      await removeWorkDir();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

/**
 * A fresh database (`freshDatabase`) for `work`, removed after it even when `work` throws; `work`
 * does not run when PostgreSQL is unreachable (the report says why).
 */
export async function withFreshDatabase(
  database: DatabaseKind,
  slug: string,
  report: { machine: { postgres?: string }; skipped: Skipped[] },
  work: (fresh: FreshDatabase) => Promise<void>,
): Promise<void> {
  const fresh = await freshDatabase(database, slug, report);
  if (!fresh) return;
  try {
    await work(fresh);
  } finally {
    await fresh.cleanup();
  }
}

/**
 * Opens the database from this process, migrates it and runs `work` on it, then closes it: before
 * the server starts (PGlite: one process per folder).
 */
export async function migrated<T>(
  options: BenchDatabaseOptions,
  work: (db: Database) => Promise<T>,
): Promise<T> {
  const handle = await openDatabase(options);
  try {
    await handle.migrate();
    return await work(handle.db);
  } finally {
    await handle.close();
  }
}

/**
 * The bootstrap marker (so the server adds no demo workspace), then `count` workspaces named
 * `<label> 001`…; their ids, in order.
 */
export async function benchWorkspaces(db: Database, count: number, label: string): Promise<string[]> {
  await db.insert(appMeta).values({ key: 'bootstrap', value: new Date().toISOString() });
  const created = await db
    .insert(workspaces)
    .values(
      Array.from({ length: count }, (_, index) => ({
        name: `${label} ${String(index + 1).padStart(3, '0')}`,
      })),
    )
    .returning({ id: workspaces.id });
  return created.map((row) => row.id);
}
