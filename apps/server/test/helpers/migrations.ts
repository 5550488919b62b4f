import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { migrationsFolder } from '../../src/db/client.ts';
import { useTempDirsAndChildren } from './temp-dirs.ts';
import type { TestDatabase } from './test-database.ts';

/**
 * For a migration test file: `firstMigrations(count)` makes a copy of the migrations folder
 * holding only the first `count` migrations (removed after the file's tests), to bring a database
 * to the schema a migration starts from.
 */
export function useFirstMigrations(): (count: number) => string {
  const { tempDir } = useTempDirsAndChildren('dukkan-migrations-');
  return (count) => {
    const source = migrationsFolder();
    const folder = tempDir();
    const journal = JSON.parse(readFileSync(join(source, 'meta', '_journal.json'), 'utf8')) as {
      entries: { tag: string }[];
    };
    journal.entries = journal.entries.slice(0, count);
    mkdirSync(join(folder, 'meta'));
    writeFileSync(join(folder, 'meta', '_journal.json'), JSON.stringify(journal));
    for (const entry of journal.entries)
      cpSync(join(source, `${entry.tag}.sql`), join(folder, `${entry.tag}.sql`));
    return folder;
  };
}

/** Runs statements separated by `;` one by one (the drivers take one statement per query). */
export async function runScript(database: TestDatabase, script: string) {
  for (const statement of script.split(/;\s*\n/).map((part) => part.trim().replace(/;$/, ''))) {
    if (statement) await database.db.execute(sql.raw(statement));
  }
}

export async function rows(database: TestDatabase, query: string): Promise<Record<string, unknown>[]> {
  const result = await database.db.execute(sql.raw(query));
  return (result as unknown as { rows: Record<string, unknown>[] }).rows;
}
