import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { privateFolderMode, tightenPrivateTree } from '../platform/storage/private-files.ts';
import { typoWordSimilarity } from '../resource-engine/queries.ts';
import { type DataDirLock, lockDataDir } from './lock.ts';
import * as schema from './schema/index.ts';

export type Schema = typeof schema;
/** Both drivers' Drizzle databases share this type: the code never knows which one it has. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;

/** The PostgreSQL pool as node-postgres sees it (the metrics); the embedded database has none. */
export interface PoolStats {
  /** Connections open, idle or in use. */
  total: number;
  idle: number;
  /** Queries waiting for a connection. */
  waiting: number;
  max: number;
}

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  /** PostgreSQL only: the pool's figures now. */
  poolStats?: () => PoolStats;
  /** Runs the migrations in `apps/server/drizzle` (or another folder: the migration tests). */
  migrate(folder?: string): Promise<void>;
  /**
   * The embedded database only: a consistent copy of its folder, a gzipped tar that
   * `restoreEmbeddedDatabase` (db/embedded-backup.ts) puts back. Taken while it serves.
   */
  copy?(): Promise<Blob>;
  close(): Promise<void>;
}

type DatabaseOptions =
  | { kind: 'postgres'; url: string; poolSize?: number }
  /**
   * `dataDir` undefined: an in-memory database (tests), started from `dump` when given (a
   * `dumpDataDir` of another). `whileLocked` runs once the folder's lock is held, before PGlite
   * opens it: a second server is refused before it touches anything there.
   */
  | { kind: 'pglite'; dataDir?: string; dump?: Blob; whileLocked?: () => void };

/** The PostgreSQL pool behind a database, or undefined for the embedded one. */
export function postgresPoolOf(db: Database): pg.Pool | undefined {
  const client = (db as unknown as { $client?: unknown }).$client;
  return client instanceof pg.Pool ? client : undefined;
}

/** The embedded database's folder in DATA_DIR. */
export function pgliteDataPath(dataDir: string): string {
  return join(dataDir, 'pgdata');
}

/** The migrations folder, found from this file whether it runs from `src/` or the bundle in `dist/`. */
export function migrationsFolder(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 5; depth++) {
    const candidate = join(dir, 'drizzle');
    if (existsSync(join(candidate, 'meta', '_journal.json'))) return candidate;
    dir = dirname(dir);
  }
  throw new Error('Migrations folder apps/server/drizzle not found');
}

/** The advisory lock key of the migrations (hashtext('dukkan:migrations')). */
const migrationsLockKey = "hashtext('dukkan:migrations')";

/**
 * Runs the migrations holding a session advisory lock: instances starting together on one
 * database take turns, and those after the first find nothing left to do (drizzle's migrator
 * alone would run the same migration in each, and all but one would fail).
 */
async function migrateOnce(pool: pg.Pool, folder: string): Promise<void> {
  const connection = await pool.connect();
  try {
    await connection.query(`select pg_advisory_lock(${migrationsLockKey})`);
    try {
      await migrateNodePg(drizzleNodePg(connection), { migrationsFolder: folder });
    } finally {
      await connection.query(`select pg_advisory_unlock(${migrationsLockKey})`);
    }
  } finally {
    connection.release();
  }
}

/**
 * What every embedded database runs with, as PostgreSQL's connections do (their pool's `options`):
 * the similarity a misspelt search word needs (pg_trgm's `%>`, which the trigram index serves only
 * at this setting, not at a threshold written into the statement). Anything that opens a PGlite
 * the server's statements run on applies it.
 */
export async function applyPgliteSettings(client: PGlite): Promise<void> {
  await client.exec(`set pg_trgm.word_similarity_threshold = ${typoWordSimilarity}`);
}

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.kind === 'postgres') {
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      // Generic plans of prepared statements defeat trigram indexes on short terms (design brief §6).
      // JIT compiling pays off for long analytic queries, never for these short ones: a product's
      // references query (0.6 ms, its row count overestimated through unnest and jsonb) was
      // compiled on every product answer, 0.76 s each.
      // The similarity a misspelt search word needs (pg_trgm's `%>`, which the trigram index
      // serves only at this setting, not at a threshold written into the statement).
      options: `-c plan_cache_mode=force_custom_plan -c jit=off -c pg_trgm.word_similarity_threshold=${typoWordSimilarity}`,
    });
    // An idle connection the server ends (restart, failover, a dropped database) emits 'error' on
    // the pool; unhandled, that would crash the process. The pool replaces it on the next query.
    pool.on('error', (error) => {
      process.stderr.write(`PostgreSQL connection lost: ${error.message}\n`);
    });
    const db = drizzleNodePg(pool, { schema }) as unknown as Database;
    const max = options.poolSize ?? 10;
    return {
      db,
      kind: 'postgres',
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max }),
      migrate: (folder = migrationsFolder()) => migrateOnce(pool, folder),
      close: () => pool.end(),
    };
  }

  let lock: DataDirLock | undefined;
  if (options.dataDir) lock = await lockDataDir(options.dataDir);
  try {
    options.whileLocked?.();
    // pg_trgm backs the catalogue's search indexes (migration 0002 creates the extension).
    const extensions = { pg_trgm };
    const folder = options.dataDir ? pgliteDataPath(options.dataDir) : undefined;
    if (folder) mkdirSync(folder, { recursive: true, mode: privateFolderMode });
    const client = folder
      ? new PGlite(folder, { extensions })
      : new PGlite({ extensions, loadDataDir: options.dump });
    await client.waitReady;
    await applyPgliteSettings(client);
    // PGlite chmods the files its initdb writes to 0666, and postmaster.pid to 0644 at each
    // start, whatever the umask: they are made private here, every time, without a word.
    if (folder) tightenPrivateTree(folder);
    const db = drizzlePglite(client, { schema }) as unknown as Database;
    return {
      db,
      kind: 'pglite',
      migrate: (folder = migrationsFolder()) =>
        migratePglite(drizzlePglite(client), { migrationsFolder: folder }),
      async copy() {
        // The checkpoint writes what the log holds into the tables' files, so a restored copy
        // starts without replaying it. The copy waits for the transaction under way and keeps
        // the next one waiting (PGlite runs one at a time): it holds whole transactions only.
        await client.exec('CHECKPOINT');
        return client._runExclusiveTransaction(() => client.dumpDataDir('gzip'));
      },
      async close() {
        try {
          await client.close();
        } finally {
          lock?.release();
        }
      },
    };
  } catch (error) {
    lock?.release();
    throw error;
  }
}
