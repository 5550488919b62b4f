import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { type Database, type DatabaseHandle, migrationsFolder, openDatabase } from '../../src/db/client.ts';

/** A migrated database that belongs to one test file. */
export interface TestDatabase {
  db: Database;
  kind: 'pglite' | 'postgres';
  /** The database's connection URL, for kind 'postgres' only (e.g. for a server process of its own). */
  url?: string;
  /** Runs the migrations of a folder (the default: the project's). */
  migrate(folder?: string): Promise<void>;
  /** Closes the connection but keeps the database (simulates an outage); `close()` still cleans up. */
  disconnect(): Promise<void>;
  close(): Promise<void>;
}

/** Connects to the server of DATABASE_URL; falls back to the `postgres` database when its own is missing. */
async function connectAdmin(databaseUrl: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: databaseUrl });
  try {
    await client.connect();
    return client;
  } catch (error) {
    await client.end().catch(() => {});
    if ((error as { code?: string }).code !== '3D000') throw error;
    const fallback = new URL(databaseUrl);
    fallback.pathname = '/postgres';
    const maintenance = new pg.Client({ connectionString: fallback.toString() });
    await maintenance.connect();
    return maintenance;
  }
}

/**
 * A template's file: named by what it holds (`migrated` or `empty`), the migrations and the PGlite
 * version, so a change never reuses a stale one.
 */
function templatePath(kind: TemplateKind): string {
  const hash = createHash('sha256');
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((x, y) =>
      x.name.localeCompare(y.name),
    )) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else hash.update(entry.name).update(readFileSync(path));
    }
  };
  walk(migrationsFolder());
  hash.update(process.versions.node);
  const pglitePackage = join(process.cwd(), 'node_modules', '@electric-sql', 'pglite', 'package.json');
  if (existsSync(pglitePackage)) hash.update(readFileSync(pglitePackage));
  return join(tmpdir(), 'dukkan-test-templates', `pglite-${kind}-${hash.digest('hex').slice(0, 16)}.tar`);
}

/** A migrated database, or an empty one (initdb only) for the tests that migrate it themselves. */
const templateKinds = ['migrated', 'empty'] as const;
type TemplateKind = (typeof templateKinds)[number];

/**
 * A fresh in-memory PGlite takes seconds to create (initdb: 3 s of a core, then 1.7 s to migrate).
 * The first test file to need one of a kind builds it the way the server does (`openDatabase`, then
 * `migrate` for a migrated one) and saves a dump of it; the others start from that dump, which takes
 * a fraction of the time. Same engine, same schema, or none.
 */
async function openPgliteDatabase(kind: TemplateKind): Promise<DatabaseHandle> {
  const template = templatePath(kind);
  if (existsSync(template)) {
    let handle: DatabaseHandle | undefined;
    try {
      handle = await openDatabase({ kind: 'pglite', dump: new Blob([readFileSync(template)]) });
      // Migrating again is a no-op on a good template, and completes one that missed a migration.
      if (kind === 'migrated') await handle.migrate();
      return handle;
    } catch {
      // A damaged template: rebuild it below.
      await handle?.close().catch(() => {});
    }
  }
  const handle = await openDatabase({ kind: 'pglite' });
  if (kind === 'migrated') await handle.migrate();
  const client = (handle.db as unknown as { $client: PGlite }).$client;
  const dump = await client.dumpDataDir('none');
  mkdirSync(dirname(template), { recursive: true });
  const partial = `${template}.${process.pid}.partial`;
  writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
  renameSync(partial, template);
  // Templates of older migrations or PGlite versions (another hash) are never read again.
  const current = new Set(templateKinds.map((other) => basename(templatePath(other))));
  for (const old of readdirSync(dirname(template))) {
    if (old.startsWith('pglite-') && old.endsWith('.tar') && !current.has(old)) {
      rmSync(join(template, '..', old), { force: true });
    }
  }
  return handle;
}

/**
 * In-memory PGlite by default. With DATABASE_URL set, a fresh database on that server: the
 * migrations name `"public"."table"`, so isolation is per database, not per schema.
 * `migrated: false` leaves it empty (the migration tests apply their own folders).
 */
export async function createTestDatabase(options: { migrated?: boolean } = {}): Promise<TestDatabase> {
  const migrated = options.migrated ?? true;
  const databaseUrl = process.env.DATABASE_URL;
  let handle: DatabaseHandle;
  let url: string | undefined;
  let drop: () => Promise<void> = async () => {};

  if (databaseUrl) {
    const name = `dukkan_test_${randomBytes(6).toString('hex')}`;
    const admin = await connectAdmin(databaseUrl);
    try {
      await admin.query(`CREATE DATABASE "${name}"`);
    } finally {
      await admin.end();
    }
    const own = new URL(databaseUrl);
    own.pathname = `/${name}`;
    url = own.toString();
    handle = await openDatabase({ kind: 'postgres', url, poolSize: 4 });
    drop = async () => {
      const cleaner = await connectAdmin(databaseUrl);
      try {
        await cleaner.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await cleaner.end();
      }
    };
    if (migrated) await handle.migrate();
  } else {
    handle = await openPgliteDatabase(migrated ? 'migrated' : 'empty');
  }

  let connected = true;
  const disconnect = async () => {
    if (!connected) return;
    connected = false;
    await handle.close();
  };
  return {
    db: handle.db,
    kind: handle.kind,
    url,
    migrate: (folder) => handle.migrate(folder),
    disconnect,
    async close() {
      await disconnect();
      await drop();
    },
  };
}
