import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { migrationsFolder } from '../src/db/client.ts';
import { createTestDatabase, type TestDatabase } from './helpers/test-database.ts';

/**
 * 0001_workspaces_and_invites moves workspace admins into memberships. Applied to a database
 * that already has data from 0000, no admin may lose their workspace.
 */
const folders: string[] = [];
const databases: TestDatabase[] = [];
afterAll(async () => {
  for (const database of databases) await database.close();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** A copy of the migrations folder holding only the first `count` migrations. */
function firstMigrations(count: number): string {
  const source = migrationsFolder();
  const folder = mkdtempSync(join(tmpdir(), 'dukkan-migrations-'));
  folders.push(folder);
  const journal = JSON.parse(readFileSync(join(source, 'meta', '_journal.json'), 'utf8')) as {
    entries: { tag: string }[];
  };
  journal.entries = journal.entries.slice(0, count);
  mkdirSync(join(folder, 'meta'));
  writeFileSync(join(folder, 'meta', '_journal.json'), JSON.stringify(journal));
  for (const entry of journal.entries)
    cpSync(join(source, `${entry.tag}.sql`), join(folder, `${entry.tag}.sql`));
  return folder;
}

/** Runs statements separated by `;` one by one (the drivers take one statement per query). */
async function runScript(database: TestDatabase, script: string) {
  for (const statement of script.split(/;\s*\n/).map((part) => part.trim().replace(/;$/, ''))) {
    if (statement) await database.db.execute(sql.raw(statement));
  }
}

async function rows(database: TestDatabase, query: string): Promise<Record<string, unknown>[]> {
  const result = await database.db.execute(sql.raw(query));
  return (result as unknown as { rows: Record<string, unknown>[] }).rows;
}

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
