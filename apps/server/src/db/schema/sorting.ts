import { type SQL, sql } from 'drizzle-orm';
import { type ExtraConfigColumn, index } from 'drizzle-orm/pg-core';

/**
 * The collation of every text sort, on both databases: PGlite compares bytes by default and a
 * PostgreSQL server whatever its cluster was created with, but both have ICU's root collation,
 * which orders 'apple' before 'Banana' and Arabic letters in their alphabet's order. Lists sort
 * with it (the resource engine) and the sort indexes are built with it, so an ordered page
 * reads an index.
 */
export const sortCollation = 'und-x-icu';

/** A text column as lists sort it. */
export const collated = (column: ExtraConfigColumn | SQL): SQL =>
  sql`${column} collate ${sql.identifier(sortCollation)}`;

/** `(workspace_id, column)`, a text column in the sort collation. */
export function sortIndex(table: string, workspaceId: ExtraConfigColumn, column: ExtraConfigColumn) {
  const isText = column.columnType === 'PgText';
  return index(`${table}_${column.name}_idx`).on(workspaceId, isText ? collated(column) : column);
}

/**
 * The two orders of a localized text (a name, a tax's title), each falling back to the other
 * language where a record has it in one only: an English reader's list sorts by the English
 * text, an Arabic reader's by the Arabic one. Named `<table>_<field>_en_idx` and `…_ar_idx`.
 */
export function localizedTextIndexes(
  table: string,
  field: string,
  columns: { workspaceId: ExtraConfigColumn; en: ExtraConfigColumn; ar: ExtraConfigColumn },
) {
  return [
    index(`${table}_${field}_en_idx`).on(
      columns.workspaceId,
      collated(sql`coalesce(${columns.en}, ${columns.ar})`),
    ),
    index(`${table}_${field}_ar_idx`).on(
      columns.workspaceId,
      collated(sql`coalesce(${columns.ar}, ${columns.en})`),
    ),
  ];
}
