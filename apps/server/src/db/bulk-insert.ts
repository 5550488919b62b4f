import { type Column, getTableColumns, is, Param, Placeholder, SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Database } from './client.ts';

/*
 * Many rows of one table in as few statements as their size allows, answered as Drizzle's
 * `insert(table).values(rows).returning()` answers them: every column, by field name, in the
 * order of `rows`. Drizzle's multi-row insert binds each value as a parameter of its own: a
 * 500-row chunk of customers is about 6,000 parameters, each wrapped in an object, and a
 * statement of tens of kilobytes written and planned for each chunk (decision 0051). Here each
 * column is one `text[]` parameter of the values as the driver would send them
 * (`mapToDriverValue`: an array column's Postgres literal, a jsonb's JSON), unnested and cast
 * back to the column's type per row: a ragged array column (a customer's one or three phones)
 * cannot be one two-dimensional array, but it can be one array of literals.
 */

/** Rows per statement: each column is one parameter, so only the statement's size bounds them. */
const rowsPerUnnest = 5_000;

/** Parameters of one of Drizzle's multi-row inserts, within PostgreSQL's 65,535. */
const parametersPerValues = 60_000;

/**
 * The type a column's text is cast to: its SQL type without a length, precision or scale, so the
 * insert's own assignment applies them as it does to a bound value (an explicit cast to
 * `varchar(5)` would cut a longer text short instead of refusing it).
 */
const castType = (column: Column) => column.getSQLType().replace(/\s*\([^)]*\)/g, '');

/** A value the statement cannot bind as text (a Drizzle expression): the rows go through Drizzle. */
const isExpression = (value: unknown) =>
  typeof value === 'object' &&
  value !== null &&
  (is(value, SQL) || is(value, Param) || is(value, Placeholder) || is(value, SQL.Aliased));

/**
 * The value as the column's text (null for null), as the driver would send it: undefined where
 * the driver would send something else than a text, a number or a boolean (a Date, a buffer, an
 * object), which this insert leaves to Drizzle.
 */
function driverText(column: Column, value: unknown): string | null | undefined {
  if (value === null) return null;
  const driven = column.mapToDriverValue(value);
  if (driven === null || driven === undefined) return null;
  if (typeof driven === 'string') return driven;
  if (typeof driven === 'number' || typeof driven === 'bigint' || typeof driven === 'boolean') {
    return String(driven);
  }
  return undefined;
}

/**
 * The statement inserting `rows` from one text array per column, or undefined where Drizzle must
 * write them: a value that is an expression or not a plain text, number or boolean once mapped,
 * or a column given in some rows only that has a default (Drizzle writes `default` in the others:
 * one statement cannot say both). A column no row gives is left to the table's default, unless
 * that default is made in JavaScript (`$defaultFn`): each row then gets its own, as with Drizzle.
 */
function unnestInsert(table: PgTable, rows: readonly Record<string, unknown>[]): SQL | undefined {
  const all = Object.entries(getTableColumns(table)) as [string, Column][];
  const given: [string, Column][] = [];
  for (const entry of all) {
    const [field, column] = entry;
    // A generated column is the database's to fill, as Drizzle's insert leaves it out.
    if (column.generated !== undefined && column.generated.type !== 'byDefault') continue;
    const missing = rows.filter((row) => row[field] === undefined).length;
    // A column with a default made in JavaScript (`$defaultFn`, a time-ordered id) gets it here
    // for each row that leaves it out, as Drizzle's insert does. One updated in JavaScript
    // (`$onUpdateFn`) and nothing else is left to Drizzle.
    if (missing > 0 && column.defaultFn === undefined) {
      if (column.onUpdateFn !== undefined) return undefined;
      if (missing === rows.length) continue;
      if (column.hasDefault) return undefined;
    }
    given.push(entry);
  }
  const arrays: (string | null)[][] = [];
  for (const [field, column] of given) {
    const texts: (string | null)[] = new Array(rows.length);
    for (let index = 0; index < rows.length; index++) {
      const stated = rows[index]![field];
      const value = stated === undefined && column.defaultFn ? column.defaultFn() : stated;
      if (isExpression(value)) return undefined;
      const text = driverText(column, value ?? null);
      if (text === undefined) return undefined;
      texts[index] = text;
    }
    arrays.push(texts);
  }
  const names = given.map((_, index) => `c${index}`);
  return sql`insert into ${table} (${sql.join(
    given.map(([, column]) => sql.identifier(column.name)),
    sql`, `,
  )}) select ${sql.join(
    given.map(([, column], index) => sql.raw(`u.${names[index]}::${castType(column)}`)),
    sql`, `,
  )} from unnest(${sql.join(
    arrays.map((texts) => sql`${sql.param(texts)}::text[]`),
    sql`, `,
  )}) with ordinality as u(${sql.raw(names.join(', '))}, n) order by u.n returning ${sql.join(
    all.map(([, column]) => sql.identifier(column.name)),
    sql`, `,
  )}`;
}

/** A row as the database answered it, as Drizzle maps it: each column by field name, null kept. */
function mappedRow(
  columns: readonly [string, Column][],
  raw: Record<string, unknown>,
): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const [field, column] of columns) {
    const value = raw[column.name];
    row[field] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row;
}

/**
 * Inserts `rows` into `table` in `db` and answers them as inserted, in their order — what
 * `db.insert(table).values(rows).returning()` does, in chunks within any statement's limits. One
 * row, or rows the unnest cannot bind (`unnestInsert`), go through Drizzle's insert; the others
 * as one `INSERT … SELECT FROM unnest(…) WITH ORDINALITY` per 5,000 rows, ordered by it.
 */
export async function insertRows(
  db: Database,
  table: PgTable,
  rows: readonly Record<string, unknown>[],
): Promise<Record<string, unknown>[]> {
  const columns = Object.entries(getTableColumns(table)) as [string, Column][];
  const inserted: Record<string, unknown>[] = [];
  const perValues = Math.max(1, Math.floor(parametersPerValues / Math.max(1, columns.length)));
  for (let start = 0; start < rows.length; ) {
    const chunk = rows.slice(start, start + rowsPerUnnest);
    const statement = chunk.length > 1 ? unnestInsert(table, chunk) : undefined;
    if (statement) {
      const result = (await db.execute(statement)) as unknown as { rows: Record<string, unknown>[] };
      for (const raw of result.rows) inserted.push(mappedRow(columns, raw));
      start += chunk.length;
      continue;
    }
    const values = rows.slice(start, start + perValues);
    inserted.push(
      ...((await db
        .insert(table)
        .values(values as (typeof table.$inferInsert)[])
        .returning()) as Record<string, unknown>[]),
    );
    start += values.length;
  }
  return inserted;
}
