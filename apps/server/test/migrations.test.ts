import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { invisibleInCodes, normalizeCode, normalizedPhonePattern, normalizePhone } from '@dukkan/contract';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { migrationsFolder, openDatabase } from '../src/db/client.ts';
import { rows, runScript, useFirstMigrations } from './helpers/migrations.ts';
import { seededRandom } from './helpers/seeded-random.ts';
import { createTestDatabase, type TestDatabase } from './helpers/test-database.ts';

/**
 * 0001_workspaces_and_invites moves workspace admins into memberships. Applied to a database
 * that already has data from 0000, no admin may lose their workspace.
 */
const firstMigrations = useFirstMigrations();
const databases: TestDatabase[] = [];
afterAll(async () => {
  for (const database of databases) await database.close();
});

// Each test starts a database of its own and runs the migrations on it: on a loaded machine that
// took 38 s for PGlite, past the suite's 30 s.
describe('migration 0001: workspace admins become admin memberships', { timeout: 90_000 }, () => {
  it('keeps every admin (also one who held a role) and every member, then drops workspace_admins', async () => {
    const database = await createTestDatabase({ migrated: false });
    databases.push(database);
    await database.migrate(firstMigrations(1));
    await runScript(
      database,
      `
        insert into workspaces (id, name) values
          ('00000000-0000-4000-8000-00000000000a', 'Alpha'), ('00000000-0000-4000-8000-00000000000b', 'Beta');
        insert into users (id, email, name) values
          ('00000000-0000-4000-8000-000000000001', 'owner@a.example', 'Owner'),
          ('00000000-0000-4000-8000-000000000002', 'both@a.example', 'Both'),
          ('00000000-0000-4000-8000-000000000003', 'staff@a.example', 'Staff');
        insert into roles (id, workspace_id, code, title, permissions) values
          ('00000000-0000-4000-8000-0000000000f1', '00000000-0000-4000-8000-00000000000a', 'cashier', 'Cashier', '{viewProducts}');
        insert into workspace_admins (workspace_id, user_id) values
          ('00000000-0000-4000-8000-00000000000a', '00000000-0000-4000-8000-000000000001'),
          ('00000000-0000-4000-8000-00000000000b', '00000000-0000-4000-8000-000000000001'),
          ('00000000-0000-4000-8000-00000000000a', '00000000-0000-4000-8000-000000000002');
        insert into memberships (workspace_id, user_id, role_id, status) values
          ('00000000-0000-4000-8000-00000000000a', '00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-0000000000f1', 'inactive'),
          ('00000000-0000-4000-8000-00000000000a', '00000000-0000-4000-8000-000000000003', '00000000-0000-4000-8000-0000000000f1', 'active');
      `,
    );

    await database.migrate();

    expect(
      await rows(
        database,
        `select workspace_id, user_id, role_id, is_admin, status, code, applications
           from memberships order by workspace_id, user_id`,
      ),
    ).toEqual([
      {
        workspace_id: '00000000-0000-4000-8000-00000000000a',
        user_id: '00000000-0000-4000-8000-000000000001',
        role_id: null,
        is_admin: true,
        status: 'active',
        code: null,
        applications: [],
      },
      {
        workspace_id: '00000000-0000-4000-8000-00000000000a',
        user_id: '00000000-0000-4000-8000-000000000002',
        role_id: '00000000-0000-4000-8000-0000000000f1',
        is_admin: true,
        status: 'active',
        code: null,
        applications: [],
      },
      {
        workspace_id: '00000000-0000-4000-8000-00000000000a',
        user_id: '00000000-0000-4000-8000-000000000003',
        role_id: '00000000-0000-4000-8000-0000000000f1',
        is_admin: false,
        status: 'active',
        code: null,
        applications: [],
      },
      {
        workspace_id: '00000000-0000-4000-8000-00000000000b',
        user_id: '00000000-0000-4000-8000-000000000001',
        role_id: null,
        is_admin: true,
        status: 'active',
        code: null,
        applications: [],
      },
    ]);
    expect(await rows(database, `select to_regclass('public.workspace_admins') as table_name`)).toEqual([
      { table_name: null },
    ]);
    // A second run is a no-op.
    await database.migrate();
  });

  it('the new constraints hold: one staff code per workspace, known statuses, a held role cannot go', async () => {
    const database = await createTestDatabase();
    databases.push(database);
    await runScript(
      database,
      `
        insert into workspaces (id, name) values ('00000000-0000-4000-8000-00000000000a', 'Alpha');
        insert into users (id, email, name) values
          ('00000000-0000-4000-8000-000000000001', 'one@a.example', 'One'),
          ('00000000-0000-4000-8000-000000000002', 'two@a.example', 'Two');
        insert into roles (id, workspace_id, code, title) values
          ('00000000-0000-4000-8000-0000000000f1', '00000000-0000-4000-8000-00000000000a', 'r', 'R');
        insert into memberships (workspace_id, user_id, role_id, code) values
          ('00000000-0000-4000-8000-00000000000a', '00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-0000000000f1', 'E1');
      `,
    );
    await expect(
      database.db.execute(
        sql.raw(`insert into memberships (workspace_id, user_id, code)
                 values ('00000000-0000-4000-8000-00000000000a', '00000000-0000-4000-8000-000000000002', 'E1')`),
      ),
    ).rejects.toMatchObject({ cause: expect.objectContaining({ constraint: 'memberships__code__unique' }) });
    await expect(
      database.db.execute(
        sql.raw(`insert into memberships (workspace_id, user_id, status)
                 values ('00000000-0000-4000-8000-00000000000a', '00000000-0000-4000-8000-000000000002', 'banned')`),
      ),
    ).rejects.toThrow();
    await expect(
      database.db.execute(sql.raw(`delete from roles where id = '00000000-0000-4000-8000-0000000000f1'`)),
    ).rejects.toThrow();
    // Two members without a code are fine.
    await database.db.execute(
      sql.raw(`insert into memberships (workspace_id, user_id)
               values ('00000000-0000-4000-8000-00000000000a', '00000000-0000-4000-8000-000000000002')`),
    );
  });
});

/**
 * 0011_normalize_stored_phones: phones stored before input was normalized (spaces, hyphens,
 * Arabic-Indic digits) become what `normalizePhone` makes of new input, in every table that
 * keeps phones; a second run changes nothing.
 */
describe('migration 0011: stored phones are normalized', { timeout: 90_000 }, () => {
  it('normalizes users, customers, locations and access requests as normalizePhone does', async () => {
    const database = await createTestDatabase({ migrated: false });
    databases.push(database);
    await database.migrate(firstMigrations(11));
    const typed = ['+20 100 123 4567', '٠١٠٠٢٣٤٥٦٧٨', '(02) 2345-6789', '\u200f+966\u00a0110.000.000'];
    await runScript(
      database,
      `
        insert into workspaces (id, name) values ('00000000-0000-4000-8000-00000000000a', 'Alpha');
        insert into users (id, email, name, phone) values
          ('00000000-0000-4000-8000-000000000001', 'one@a.example', 'One', '${typed[0]}'),
          ('00000000-0000-4000-8000-000000000002', 'two@a.example', 'Two', null),
          ('00000000-0000-4000-8000-000000000003', 'three@a.example', 'Three', '01001234567');
        insert into brands (id, workspace_id, code, name_en) values
          ('00000000-0000-4000-8000-0000000000b1', '00000000-0000-4000-8000-00000000000a', 'B1', 'Brand');
        insert into locations (workspace_id, code, name_en, brand_id, phones) values
          ('00000000-0000-4000-8000-00000000000a', 'L1', 'Downtown', '00000000-0000-4000-8000-0000000000b1',
           '[{"label":"Reception","number":"${typed[1]}"},{"label":"Office","number":"${typed[2]}"}]'),
          ('00000000-0000-4000-8000-00000000000a', 'L2', 'Uptown', '00000000-0000-4000-8000-0000000000b1', '[]');
        insert into customers (workspace_id, code, name, phones, phones_text, source) values
          ('00000000-0000-4000-8000-00000000000a', 'C1', 'Sara', '{"${typed[0]}","${typed[3]}"}', '${typed[0]} ${typed[3]}', 'walkIn');
        insert into access_requests (name, email, phone, company_name, business_category, how_did_you_hear_about_us, created_at) values
          ('First', 'first@a.example', '${typed[0]}', 'Co', 'retail', 'friend', '2026-01-01T00:00:00Z'),
          ('Second', 'second@a.example', '+20-100-123-4567', 'Co', 'retail', 'friend', '2026-01-02T00:00:00Z'),
          ('Third', 'third@a.example', '${typed[1]}', 'Co', 'retail', 'friend', '2026-01-03T00:00:00Z'),
          ('Fourth', 'fourth@a.example', '01002345678', 'Co', 'retail', 'friend', '2026-01-04T00:00:00Z');
      `,
    );

    await database.migrate();

    expect(await rows(database, 'select email, phone from users order by email')).toEqual([
      { email: 'one@a.example', phone: normalizePhone(typed[0]!) },
      { email: 'three@a.example', phone: '01001234567' },
      { email: 'two@a.example', phone: null },
    ]);
    expect(normalizePhone(typed[0]!)).toBe('+201001234567');
    expect(await rows(database, 'select code, phones from locations order by code')).toEqual([
      {
        code: 'L1',
        phones: [
          { label: 'Reception', number: '01002345678' },
          { label: 'Office', number: '0223456789' },
        ],
      },
      { code: 'L2', phones: [] },
    ]);
    expect(await rows(database, 'select phones, phones_text, search_text from customers')).toEqual([
      {
        phones: ['+201001234567', '+966110000000'],
        phones_text: '+201001234567 +966110000000',
        // Code, name and phones folded, parted by the unit separator (migration 0022).
        search_text: ['c1', 'sara', '+201001234567 +966110000000'].join('\u001f'),
      },
    ]);
    for (const number of typed) expect(normalizePhone(number)).toMatch(normalizedPhonePattern);
    // The oldest of two requests that become one number takes it; a number another request
    // already has stays taken by that one.
    expect(await rows(database, 'select name, phone from access_requests order by created_at')).toEqual([
      { name: 'First', phone: '+201001234567' },
      { name: 'Second', phone: '+20-100-123-4567' },
      { name: 'Third', phone: '٠١٠٠٢٣٤٥٦٧٨' },
      { name: 'Fourth', phone: '01002345678' },
    ]);
    // A second run is a no-op.
    await database.migrate();
  });
});

/**
 * 0013_normalize_stored_codes: codes stored before codes were normalized become what
 * `normalizeCode` makes of them, each where that makes it share its code with no other record of
 * its workspace; codes that would collide, or vanish, are left as they were (and listed by
 * `check-codes`). Its SQL function `normalize_code` is the contract's rule.
 */
describe('migration 0013: stored codes are normalized where nothing collides', { timeout: 90_000 }, () => {
  it('normalizes lone codes of every code column; leaves colliding and empty ones; SQL = normalizeCode', async () => {
    const database = await createTestDatabase({ migrated: false });
    databases.push(database);
    await database.migrate(firstMigrations(13));
    const [alpha, beta] = ['00000000-0000-4000-8000-00000000000a', '00000000-0000-4000-8000-00000000000b'];
    const insert = (table: string, workspaceId: string, codes: string[], extra = '') =>
      database.db.execute(
        sql`insert into ${sql.identifier(table)} (workspace_id, code, name_en${sql.raw(extra ? `, ${extra}` : '')})
            select ${workspaceId}, code, 'Name ' || place${sql.raw(extra ? `, ${extraValues[extra]}` : '')}
            from unnest(${sql.param(codes)}::text[]) with ordinality as typed(code, place)`,
      );
    const extraValues: Record<string, string> = { symbol: `'u'` };
    await runScript(
      database,
      `
        insert into workspaces (id, name) values ('${alpha}', 'Alpha'), ('${beta}', 'Beta');
        insert into users (id, email, name) values ('00000000-0000-4000-8000-000000000001', 'one@a.example', 'One');
      `,
    );
    await insert('brands', alpha, [
      'ABC',
      '\uff21\uff22\uff23',
      'Z\u200bW',
      'CAFE\u0301',
      ' PAD\u00a0',
      '\u200b',
      'plain',
    ]);
    await insert('brands', beta, ['Z\u200bW', 'ZW', 'ABC\u200f']);
    await insert('measurement_units', alpha, ['\uff2b\uff27'], 'symbol');
    await database.db.execute(sql`
      insert into roles (workspace_id, code, title) values (${alpha}, ${'\uff32\uff2f\uff2c\uff25'}, 'Role')`);
    await database.db.execute(sql`
      insert into memberships (workspace_id, user_id, code)
      values (${alpha}, '00000000-0000-4000-8000-000000000001', ${'E\u200b1'})`);
    await database.db.execute(sql`
      insert into products (id, workspace_id, code, name_en, measurement_unit_id)
      select '00000000-0000-4000-8000-0000000000c1', ${alpha}, 'TEA', 'Tea', id from measurement_units limit 1`);
    await database.db.execute(sql`
      insert into product_variants (workspace_id, product_id, key, position, sku) values
        (${alpha}, '00000000-0000-4000-8000-0000000000c1', 'a', 0, ${'\uff33\uff2b\uff35-1'}),
        (${alpha}, '00000000-0000-4000-8000-0000000000c1', 'b', 1, null)`);

    await database.migrate();

    const codes = async (query: string) => (await rows(database, query)).map((row) => Object.values(row)[0]);
    expect(await codes(`select code from brands where workspace_id = '${alpha}' order by name_en`)).toEqual([
      'ABC',
      '\uff21\uff22\uff23',
      'ZW',
      'CAF\u00c9',
      'PAD',
      '\u200b',
      'plain',
    ]);
    expect(await codes(`select code from brands where workspace_id = '${beta}' order by name_en`)).toEqual([
      'Z\u200bW',
      'ZW',
      'ABC',
    ]);
    expect(await codes('select code from measurement_units')).toEqual(['KG']);
    expect(await codes('select code from roles')).toEqual(['ROLE']);
    expect(await codes('select code from memberships')).toEqual(['E1']);
    expect(await codes('select sku from product_variants order by key')).toEqual(['SKU-1', null]);
    expect(
      await codes(`select search_text from brands where code = 'ZW' and workspace_id = '${alpha}'`),
    ).toEqual([['zw', 'name 3', ''].join('\u001f')]);

    // The SQL rule is the contract's, on every invisible range's ends and on random typed codes.
    const random = seededRandom(13);
    const pieces = [
      ...invisibleInCodes.flatMap(([first, last]) => [
        String.fromCodePoint(first),
        String.fromCodePoint(last),
      ]),
      ...'ABCabc019-_ ',
      ...'\uff21\uff41\uff10\u3000\u00a0\u2007\u202f\t\n\u000b\f\r\u1680\u2028\u2029\u0085',
      ...'\u00c9\u0301\u030a\u0327\u1100\u1161\u11a8\ufdfa\u337f\ufb01\u2126\u212b',
      ...'ابتكلمنهوي٠١٢۴',
    ];
    const samples = [
      ...pieces,
      ...Array.from({ length: 300 }, () =>
        Array.from(
          { length: 1 + Math.floor(random() * 12) },
          () => pieces[Math.floor(random() * pieces.length)],
        ).join(''),
      ),
    ];
    const inSql = (
      await rows(
        database,
        `select normalize_code(typed) as code from unnest(array[${samples.map((sample) => `'${sample.replaceAll("'", "''")}'`).join(', ')}]::text[]) with ordinality as samples(typed, place) order by place`,
      )
    ).map((row) => row.code);
    expect(inSql).toEqual(samples.map(normalizeCode));
    // A second run is a no-op.
    await database.migrate();
  });
});

/**
 * 0015_localized_tax_title_and_description: a tax's title and a category's or waste category's
 * description become a text in each language. A stored text goes to the language of its letters
 * (Latin only → English, Arabic only → Arabic; both or neither → both languages), so every
 * reader sees, sorts and finds what they did before; search_text covers both columns.
 */
describe('migration 0015: tax titles and descriptions become localized', { timeout: 90_000 }, () => {
  it('keeps every text, in the language its letters are written in', async () => {
    const database = await createTestDatabase({ migrated: false });
    databases.push(database);
    await database.migrate(firstMigrations(15));
    const shop = '00000000-0000-4000-8000-0000000000aa';
    await database.db.execute(sql`insert into workspaces (id, name) values (${shop}, 'Shop')`);
    const texts = {
      latin: 'Value added tax',
      accented: 'Taxe à la valeur ajoutée',
      arabic: 'ضريبة القيمة المضافة',
      mixed: 'VAT ضريبة',
      neither: '14%',
    };
    for (const [code, title] of Object.entries(texts)) {
      await database.db.execute(
        sql`insert into taxes (workspace_id, code, title, country, rate) values (${shop}, ${code}, ${title}, 'EG', 14)`,
      );
      for (const table of ['categories', 'waste_categories'])
        await database.db.execute(
          sql`insert into ${sql.identifier(table)} (workspace_id, code, name_en, description)
              values (${shop}, ${code}, 'Name', ${title})`,
        );
    }

    await database.migrate();

    const expected = [
      { code: 'accented', en: texts.accented, ar: null },
      { code: 'arabic', en: null, ar: texts.arabic },
      { code: 'latin', en: texts.latin, ar: null },
      { code: 'mixed', en: texts.mixed, ar: texts.mixed },
      { code: 'neither', en: texts.neither, ar: texts.neither },
    ];
    expect(
      await rows(database, 'select code, title_en as en, title_ar as ar from taxes order by code'),
    ).toEqual(expected);
    for (const table of ['categories', 'waste_categories'])
      expect(
        await rows(
          database,
          `select code, description_en as en, description_ar as ar from ${table} order by code`,
        ),
        table,
      ).toEqual(expected);
    // Found in either column; the trigram search index is there again. (A text whose letters the
    // search fold keeps as they are: migration 0022 stores `ة` as `ه`.)
    expect(await rows(database, `select code from taxes where search_text like '%القيم%'`)).toEqual([
      { code: 'arabic' },
    ]);
    expect(await rows(database, `select search_text from categories where code = 'latin'`)).toEqual([
      // Its fields folded, parted by the unit separator (migration 0022).
      { search_text: ['latin', 'name', '', 'value added tax', ''].join('\u001f') },
    ]);
    expect(
      (
        await rows(
          database,
          `select indexname from pg_indexes where indexname in ('taxes_search_idx', 'categories_search_idx', 'waste_categories_search_idx', 'taxes_title_en_idx', 'taxes_title_ar_idx') order by indexname`,
        )
      ).map((row) => row.indexname),
    ).toEqual([
      'categories_search_idx',
      'taxes_search_idx',
      'taxes_title_ar_idx',
      'taxes_title_en_idx',
      'waste_categories_search_idx',
    ]);
    await expect(
      database.db.execute(
        sql`insert into taxes (workspace_id, code, country, rate) values (${shop}, 'none', 'EG', 1)`,
      ),
    ).rejects.toMatchObject({ cause: expect.objectContaining({ constraint: 'taxes_title_present' }) });
    // A second run is a no-op.
    await database.migrate();
  });
});

/**
 * 0023_audit_purge_resource: a retention purge's row names the log by its key, `auditLog`, which
 * the Activity page's resource filter offers; rows written before named it `audit-log`.
 */
describe('migration 0023: purge rows filed under the audit log key', { timeout: 90_000 }, () => {
  it("renames the purge rows' resource and leaves every other row as it was", async () => {
    const database = await createTestDatabase({ migrated: false });
    databases.push(database);
    await database.migrate(firstMigrations(23));
    const shop = '00000000-0000-4000-8000-0000000000bb';
    await database.db.execute(sql`insert into workspaces (id, name) values (${shop}, 'Shop')`);
    for (const [action, resource] of [
      ['purge', 'audit-log'],
      ['update', 'audit-log'],
      ['create', 'brands'],
    ])
      await database.db.execute(
        sql`insert into audit_log (workspace_id, actor_kind, action, resource, record_id, changes)
            values (${shop}, 'system', ${action}, ${resource}, ${shop}, '{}'::jsonb)`,
      );

    await database.migrate();

    expect(await rows(database, 'select action, resource from audit_log order by action')).toEqual([
      { action: 'create', resource: 'brands' },
      { action: 'purge', resource: 'auditLog' },
      { action: 'update', resource: 'audit-log' },
    ]);
  });
});

/**
 * 0033_audit_log_changes_as_json: `changes` becomes `json` (decision 0060). Every row written as
 * `jsonb` keeps its changes, nested, null and Arabic values alike.
 */
describe('migration 0033: audit changes as json', { timeout: 90_000 }, () => {
  it("keeps every row's changes on a database of 0032, now json", async () => {
    const database = await createTestDatabase({ migrated: false });
    databases.push(database);
    await database.migrate(firstMigrations(33));
    const shop = '00000000-0000-4000-8000-0000000000cc';
    await database.db.execute(sql`insert into workspaces (id, name) values (${shop}, 'Shop')`);
    const written = [
      { nameEn: [null, 'Acme'], nameAr: [null, 'أكمي'] },
      { variants: [{ a: { price: '1.50', sku: null } }, { a: { price: '2.00', sku: 'S-1' } }] },
      { status: ['active', 'inactive'] },
    ];
    for (const [index, changes] of written.entries())
      await database.db.execute(
        sql`insert into audit_log (workspace_id, actor_kind, action, resource, record_id, changes)
            values (${shop}, 'system', 'update', 'brands', ${String(index)}, ${JSON.stringify(changes)}::jsonb)`,
      );

    await database.migrate();

    expect(
      await rows(
        database,
        `select format_type(atttypid, atttypmod) as type from pg_attribute
         where attrelid = 'audit_log'::regclass and attname = 'changes'`,
      ),
    ).toEqual([{ type: 'json' }]);
    const kept = await rows(
      database,
      'select record_id, changes::text as changes from audit_log order by record_id',
    );
    expect(kept.map((row) => JSON.parse(row.changes as string))).toEqual(written);
  });
});

/**
 * 0024_import_jobs: the imports' jobs, a workspace table keyed `(workspace_id, id)` whose status
 * is one of the five and whose rows go with their workspace.
 */
describe('migration 0024: import jobs', { timeout: 90_000 }, () => {
  it('adds the table on a database of 0023, keyed by workspace, refusing an unknown status', async () => {
    const database = await createTestDatabase({ migrated: false });
    databases.push(database);
    await database.migrate(firstMigrations(24));
    const shop = '00000000-0000-4000-8000-0000000000cc';
    const member = '00000000-0000-4000-8000-0000000000c1';
    await database.db.execute(sql`insert into workspaces (id, name) values (${shop}, 'Shop')`);
    await database.db.execute(
      sql`insert into users (id, email, name) values (${member}, 'm@c.example', 'M')`,
    );

    await database.migrate();

    const insert = (status: string) =>
      database.db.execute(
        sql`insert into import_jobs (workspace_id, resource, dry_run, status, format, rows_total, locale, created_by)
            values (${shop}, 'customers', true, ${status}, 'csv', 3, 'en', ${member})`,
      );
    await insert('queued');
    await expect(insert('paused')).rejects.toMatchObject({
      cause: expect.objectContaining({ constraint: 'import_jobs_status_check' }),
    });
    expect(await rows(database, 'select status, rows_done, file_key, report from import_jobs')).toEqual([
      { status: 'queued', rows_done: 0, file_key: null, report: null },
    ]);
    expect(
      await rows(
        database,
        `select array(select a.attname::text from unnest(c.conkey) with ordinality k(num, ord)
                join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.num order by k.ord) as columns
         from pg_constraint c where c.conrelid = 'import_jobs'::regclass and c.contype = 'p'`,
      ),
    ).toEqual([{ columns: ['workspace_id', 'id'] }]);
    await database.db.execute(sql`delete from workspaces where id = ${shop}`);
    expect(await rows(database, 'select count(*)::int as jobs from import_jobs')).toEqual([{ jobs: 0 }]);
  });
});

/**
 * 0026_import_mappings: the mapping each workspace remembers per list, keyed `(workspace_id,
 * resource)` and gone with its workspace, and the job's mapping as a column. A job queued before
 * keeps a null mapping, which the worker ends as interrupted (`import-jobs.test.ts`).
 */
describe('migration 0026: remembered import mappings', { timeout: 90_000 }, () => {
  it('adds the table and the job column on a database of 0025, a queued job left without a mapping', async () => {
    const database = await createTestDatabase({ migrated: false });
    databases.push(database);
    await database.migrate(firstMigrations(26));
    const shop = '00000000-0000-4000-8000-0000000000dd';
    const member = '00000000-0000-4000-8000-0000000000d1';
    await database.db.execute(sql`insert into workspaces (id, name) values (${shop}, 'Shop')`);
    await database.db.execute(
      sql`insert into users (id, email, name) values (${member}, 'm@d.example', 'M')`,
    );
    await database.db.execute(
      sql`insert into import_jobs (workspace_id, resource, dry_run, status, format, rows_total, locale, created_by)
          values (${shop}, 'customers', true, 'queued', 'csv', 3, 'en', ${member})`,
    );

    await database.migrate();

    expect(await rows(database, 'select status, mapping from import_jobs')).toEqual([
      { status: 'queued', mapping: null },
    ]);
    const remember = (resource: string) =>
      database.db.execute(
        sql`insert into import_mappings (workspace_id, resource, mapping, updated_by)
            values (${shop}, ${resource}, '{"Ref":"code","Notes":null}'::jsonb, ${member})`,
      );
    await remember('customers');
    await remember('products');
    await expect(remember('customers')).rejects.toMatchObject({
      cause: expect.objectContaining({ constraint: 'import_mappings_pkey' }),
    });
    expect(
      await rows(
        database,
        `select array(select a.attname::text from unnest(c.conkey) with ordinality k(num, ord)
                join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.num order by k.ord) as columns
         from pg_constraint c where c.conrelid = 'import_mappings'::regclass and c.contype = 'p'`,
      ),
    ).toEqual([{ columns: ['workspace_id', 'resource'] }]);
    // The member who saved it may go; the mapping stays, its workspace's.
    await database.db.execute(sql`delete from users where id = ${member}`);
    expect(
      await rows(database, 'select resource, mapping, updated_by from import_mappings order by resource'),
    ).toEqual([
      { resource: 'customers', mapping: { Ref: 'code', Notes: null }, updated_by: null },
      { resource: 'products', mapping: { Ref: 'code', Notes: null }, updated_by: null },
    ]);
    await database.db.execute(sql`delete from workspaces where id = ${shop}`);
    expect(await rows(database, 'select count(*)::int as kept from import_mappings')).toEqual([{ kept: 0 }]);
  });
});

/**
 * 0028_search_words: each workspace's distinct folded words per searched table, keyed by
 * workspace, backfilled from the records there and kept by a trigger per write statement; codes,
 * numbers and punctuation add none, and the words go with their workspace.
 */
describe('migration 0028: the words of each list', { timeout: 90_000 }, () => {
  it("backfills the words of a database of 0027, adds a written record's, and goes with the workspace", async () => {
    const database = await createTestDatabase({ migrated: false });
    databases.push(database);
    await database.migrate(firstMigrations(28));
    const shop = '00000000-0000-4000-8000-0000000000ee';
    await database.db.execute(sql`insert into workspaces (id, name) values (${shop}, 'Shop')`);
    await database.db.execute(
      sql`insert into brands (workspace_id, code, name_en, name_ar)
          values (${shop}, 'BR-0010', 'Croissant House (2)', 'بيت الكرواسان')`,
    );

    await database.migrate();

    const words = async (list: string) =>
      (
        await rows(
          database,
          `select word from search_words where workspace_id = '${shop}' and list = '${list}' order by word`,
        )
      ).map((row) => row.word);
    expect(await words('brands')).toEqual(['br', 'croissant', 'house', 'الكرواسان', 'بيت']);
    // One statement of several rows; an edit adds the new words, the old ones stay.
    await database.db.execute(
      sql`insert into brands (workspace_id, code, name_en) values (${shop}, 'B-1', 'Pistachio'), (${shop}, 'B-2', 'Zaatar 500g')`,
    );
    await database.db.execute(sql`update brands set name_en = 'Butter Croissants' where code = 'BR-0010'`);
    expect(await words('brands')).toEqual([
      'b',
      'br',
      'butter',
      'croissant',
      'croissants',
      'g',
      'house',
      'pistachio',
      'zaatar',
      'الكرواسان',
      'بيت',
    ]);
    expect(
      await rows(
        database,
        `select array(select a.attname::text from unnest(c.conkey) with ordinality k(num, ord)
                join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.num order by k.ord) as columns
         from pg_constraint c where c.conrelid = 'search_words'::regclass and c.contype = 'p'`,
      ),
    ).toEqual([{ columns: ['workspace_id', 'list', 'word'] }]);
    await database.db.execute(sql`delete from workspaces where id = ${shop}`);
    expect(await rows(database, 'select count(*)::int as kept from search_words')).toEqual([{ kept: 0 }]);
  });
});

describe.runIf(process.env.DATABASE_URL)(
  'instances starting together (PostgreSQL only)',
  { timeout: 180_000 },
  () => {
    it('three instances migrating one empty database at once take turns, and all succeed', async () => {
      const empty = await createTestDatabase({ migrated: false });
      databases.push(empty);
      const instances = await Promise.all(
        [1, 2, 3].map(() => openDatabase({ kind: 'postgres', url: empty.url!, poolSize: 2 })),
      );
      try {
        const outcomes = await Promise.allSettled(instances.map((instance) => instance.migrate()));
        expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
        const journal = JSON.parse(
          readFileSync(join(migrationsFolder(), 'meta', '_journal.json'), 'utf8'),
        ) as {
          entries: unknown[];
        };
        expect(
          await rows(empty, 'select count(*)::int as applied from drizzle.__drizzle_migrations'),
        ).toEqual([{ applied: journal.entries.length }]);
      } finally {
        await Promise.all(instances.map((instance) => instance.close()));
      }
    });
  },
);
