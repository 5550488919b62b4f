import { is, sql } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import type { Database } from './client.ts';

/** The names of the Drizzle tables a module exports (`db/schema`: every table the app reads). */
export function tableNamesOf(schema: Record<string, unknown>): string[] {
  return Object.values(schema)
    .filter((value): value is PgTable => is(value, PgTable))
    .map((table) => getTableConfig(table).name);
}

/** Of these tables, those the database does not have (on its search path): one catalog query. */
async function missingTables(db: Database, names: readonly string[]): Promise<string[]> {
  if (names.length === 0) return [];
  const list = sql.join(
    names.map((name) => sql`${name}`),
    sql`, `,
  );
  const result = await db.execute(
    sql`select name from unnest(array[${list}]::text[]) as name where to_regclass(quote_ident(name)) is null order by name`,
  );
  return (result as unknown as { rows: { name: string }[] }).rows.map((row) => row.name);
}

/**
 * Refuses to start on a database that lacks a table the app uses — a table added to `db/schema`
 * whose migration was not generated (or not committed) — naming each one, instead of answering
 * 500 on the first request that reads it.
 */
export async function assertTablesExist(db: Database, names: readonly string[]): Promise<void> {
  const missing = await missingTables(db, names);
  if (missing.length === 0) return;
  throw new Error(
    `The database has no table ${missing.join(', ')}, which the app uses: its migration is missing. Generate it from apps/server/src/db/schema with \`npm run db:generate -w @dukkan/server -- --name <name>\` and commit the new file in apps/server/drizzle.`,
  );
}
