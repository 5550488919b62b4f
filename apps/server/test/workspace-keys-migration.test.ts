import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { ProductRecord } from '@dukkan/contract';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { api, dataOf } from './helpers/api.ts';
import { rows, useFirstMigrations } from './helpers/migrations.ts';
import { createTestApp } from './helpers/test-app.ts';
import { createTestDatabase, type TestDatabase } from './helpers/test-database.ts';
import { sessionCookie } from './helpers/workspaces.ts';

/**
 * Migration 0018 keys the workspace tables by workspace (`(workspace_id, id)`, foreign keys
 * between them naming the workspace too) for a database sharded by workspace. A database made by
 * the build before it migrates in place with nothing lost: `fixtures/before-workspace-keys.sql.gz`
 * holds every row of one (the demo data, a second workspace with records of every kind, a product
 * with 2,048 variants and a recipe; `fixtures/make-before-workspace-keys.ts` tells how it was
 * made). Loaded into a database migrated to 0017, then migrated, every row of every table is
 * still there, the same; the one change is `product_variant_values.workspace_id`, its variant's.
 */
const firstMigrations = useFirstMigrations();
const fixture = join(import.meta.dirname, 'fixtures', 'before-workspace-keys.sql.gz');
const secondShop = 'Second Shop';

let database: TestDatabase | undefined;
afterAll(async () => {
  await database?.close();
});

/** The fixture's statements, one a line, run in order. */
async function loadFixture(target: TestDatabase) {
  for (const line of gunzipSync(readFileSync(fixture)).toString('utf8').split('\n')) {
    if (line && !line.startsWith('--')) await target.db.execute(sql.raw(line));
  }
}

/** Every row of every table of the public schema, as JSON texts (keys in jsonb's order), sorted. */
async function snapshot(target: TestDatabase): Promise<Record<string, Record<string, unknown>[]>> {
  const tables = await rows(
    target,
    `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = 'public' and c.relkind = 'r' order by c.relname collate "C"`,
  );
  const all: Record<string, Record<string, unknown>[]> = {};
  for (const { name } of tables) {
    all[String(name)] = (await rows(target, `select to_jsonb(t) as row from "${String(name)}" t`)).map(
      (row) => row.row as Record<string, unknown>,
    );
  }
  return all;
}

/** The tables whose rows differ, with their counts and the first rows only one side has. */
function differences(
  before: Record<string, Record<string, unknown>[]>,
  after: Record<string, Record<string, unknown>[]>,
) {
  const found: Record<string, unknown> = {};
  for (const table of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const texts = (list: Record<string, unknown>[] | undefined) =>
      (list ?? []).map((row) => JSON.stringify(row)).sort();
    const [was, is] = [texts(before[table]), texts(after[table])];
    const remaining = new Map<string, number>();
    for (const row of is) remaining.set(row, (remaining.get(row) ?? 0) + 1);
    const missing: string[] = [];
    for (const row of was) {
      const left = remaining.get(row) ?? 0;
      if (left === 0) missing.push(row);
      else remaining.set(row, left - 1);
    }
    const extra = [...remaining].flatMap(([row, left]) => Array<string>(left).fill(row));
    if (missing.length > 0 || extra.length > 0 || !(table in before) || !(table in after)) {
      found[table] = {
        before: was.length,
        after: is.length,
        missing: missing.slice(0, 3),
        extra: extra.slice(0, 3),
      };
    }
  }
  return found;
}

// A fresh database brought to 0017, loaded with the fixture's 8,404 rows (1 s on PGlite, 2 s on
// PostgreSQL) and migrated (1.1–1.3 s, 0.7 s), both snapshots read: 15–21 s for the first test on
// PGlite on a loaded 2-core machine, past the suite's 30 s when the machine is busier.
describe('migration 0018: workspace tables keyed by workspace', { timeout: 180_000 }, () => {
  it('keeps every row of every table; a variant’s value links take its workspace', async () => {
    database = await createTestDatabase({ migrated: false });
    await database.migrate(firstMigrations(18));
    await loadFixture(database);
    const before = await snapshot(database);
    // What the fixture is about is there: the 2,048 variants, their 6,144 links, the recipe.
    expect(
      await rows(
        database,
        `select p.variants_count, (select count(*)::int from product_variants v where v.product_id = p.id) as variants,
                (select count(*)::int from product_variant_values l join product_variants v on v.id = l.variant_id
                  where v.product_id = p.id) as links,
                (select count(*)::int from recipe_lines r where r.product_id = p.id) as recipe,
                (select count(*)::int from recipe_lines r where r.product_id = p.id and r.ingredient_variant_id is not null) as variant_lines
         from products p where p.code = 'BIG'`,
      ),
    ).toEqual([{ variants_count: 2048, variants: 2048, links: 6144, recipe: 2, variant_lines: 1 }]);
    expect(new Set(before.workspaces!.map((row) => row.name))).toEqual(new Set(['Demo Store', secondShop]));
    expect(Object.keys(before).filter((table) => before[table]!.length === 0)).toEqual([]);

    await database.migrate();

    const after = await snapshot(database);
    const workspaceOfVariant = new Map(after.product_variants!.map((row) => [row.id, row.workspace_id]));
    const links = after.product_variant_values!;
    const strayLinks = links.filter(
      (row) =>
        typeof row.workspace_id !== 'string' || row.workspace_id !== workspaceOfVariant.get(row.variant_id),
    );
    expect({ count: strayLinks.length, first: strayLinks.slice(0, 3) }).toEqual({ count: 0, first: [] });
    after.product_variant_values = links.map(({ workspace_id: _added, ...row }) => row);
    // What the later migrations add is not 0018's: 0019's audit log, sign-in events and retention;
    // 0021's second factors, the sessions' id, address, methods and last use, the workspace's
    // requirement and the grants' flag; 0024's import jobs; 0025's payment events; 0026's
    // remembered import mappings; 0028's words of each list (from the records' own search text).
    for (const table of [
      'audit_log',
      'sign_in_events',
      'user_factors',
      'recovery_codes',
      'auth_challenges',
      'import_jobs',
      'payment_events',
      'import_mappings',
      'search_words',
    ]) {
      delete after[table];
    }
    after.workspaces = after.workspaces!.map(
      ({ audit_retention_days: _later, require_second_factor: _required, ...row }) => row,
    );
    after.sessions = after.sessions!.map(
      ({ id: _id, address: _address, factors: _factors, last_seen_at: _seen, ...row }) => row,
    );
    after.oauth_grants = after.oauth_grants!.map(({ multi_factor: _multiFactor, ...row }) => row);
    // 0022 folds `search_text`, a column the database computes from the row's own: compared
    // without it on both sides (the rows it is computed from are compared).
    for (const snapshotOf of [before, after]) {
      for (const [table, tableRows] of Object.entries(snapshotOf)) {
        if (tableRows.some((row) => 'search_text' in row))
          snapshotOf[table] = tableRows.map(({ search_text: _derived, ...row }) => row);
      }
    }
    expect(differences(before, after)).toEqual({});
  });

  it('the keys and references of the workspace tables lead with workspace_id', async () => {
    if (!database) throw new Error('The first test made no database');
    const primaryKeys = await rows(
      database,
      `select c.conrelid::regclass::text as "table",
              array(select a.attname::text from unnest(c.conkey) with ordinality k(num, ord)
                      join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.num order by k.ord) as columns
       from pg_constraint c where c.contype = 'p' and c.connamespace = 'public'::regnamespace
       order by 1`,
    );
    const keyOf = Object.fromEntries(primaryKeys.map((row) => [row.table, row.columns]));
    expect(keyOf).toMatchObject({
      products: ['workspace_id', 'id'],
      product_variants: ['workspace_id', 'id'],
      recipe_lines: ['workspace_id', 'id'],
      categories: ['workspace_id', 'id'],
      uploads: ['workspace_id', 'path'],
      invites: ['workspace_id', 'token_hash'],
      oauth_grants: ['workspace_id', 'grant_id'],
      product_variant_values: ['workspace_id', 'variant_id', 'position'],
    });
    // Every table with a workspace_id: its primary key and its unique indexes start with it.
    const workspaceTables = (
      await rows(
        database,
        `select c.relname as name from pg_class c join pg_attribute a on a.attrelid = c.oid
         where c.relnamespace = 'public'::regnamespace and c.relkind = 'r' and a.attname = 'workspace_id'
           and not a.attisdropped order by 1`,
      )
    ).map((row) => String(row.name));
    expect(workspaceTables).toContain('product_variant_values');
    expect(
      workspaceTables.filter((table) => (keyOf[table] as string[] | undefined)?.[0] !== 'workspace_id'),
    ).toEqual([]);
    expect(
      await rows(
        database,
        `select i.indexrelid::regclass::text as index from pg_index i join pg_class c on c.oid = i.indrelid
         join pg_attribute w on w.attrelid = c.oid and w.attname = 'workspace_id'
         where c.relnamespace = 'public'::regnamespace and i.indisunique and i.indkey[0] <> w.attnum
         order by 1`,
      ),
    ).toEqual([]);
    // A reference from one workspace table to another names the workspace, one column to the other.
    expect(
      await rows(
        database,
        `select c.conname as name from pg_constraint c
         join pg_attribute w on w.attrelid = c.conrelid and w.attname = 'workspace_id'
         join pg_attribute rw on rw.attrelid = c.confrelid and rw.attname = 'workspace_id'
         where c.contype = 'f' and c.connamespace = 'public'::regnamespace
           and (array_position(c.conkey, w.attnum) is null
                or array_position(c.conkey, w.attnum) is distinct from array_position(c.confkey, rw.attnum))
         order by 1`,
      ),
    ).toEqual([]);
  });

  it('the app reads and saves the 2,048-variant product on the migrated database', async () => {
    if (!database) throw new Error('The first test made no database');
    const t = await createTestApp({ database });
    try {
      const [shop] = await rows(database, `select id from workspaces where name = '${secondShop}'`);
      const [admin] = await rows(database, `select id from users where email = 'admin@second.example'`);
      const [big] = await rows(database, `select id from products where code = 'BIG'`);
      const cookie = await sessionCookie(t.db, String(admin!.id));
      const url = `/api/products/${String(big!.id)}?workspaceId=${String(shop!.id)}`;
      const read = async () => dataOf<ProductRecord>(await api(t.app, { url, cookie }));
      const product = await read();
      expect(product.variants).toHaveLength(2048);
      expect(product.variants![2047]!.sku).toBe('BIG-2047');
      expect(product.recipe!.map((line) => line.quantity)).toEqual([0.25, 0.125]);

      const saved = await api(t.app, {
        method: 'PATCH',
        url,
        cookie,
        body: {
          variants: product.variants!.map((variant, index) => ({ key: variant.key, sku: `SAVED-${index}` })),
          recipe: product.recipe!.map((line) => ({
            ingredientProductId: line.ingredientProductId,
            ingredientVariantId: line.ingredientVariantId,
            quantity: line.quantity * 2,
          })),
        },
      });
      expect(saved.status, saved.text).toBe(200);
      const again = await read();
      expect(again.variants!.map((variant) => variant.id)).toEqual(
        product.variants!.map((variant) => variant.id),
      );
      expect(again.variants![2047]!.sku).toBe('SAVED-2047');
      expect(again.recipe!.map((line) => line.quantity)).toEqual([0.5, 0.25]);
    } finally {
      await t.close();
    }
  });
});
