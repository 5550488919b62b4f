import { type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { z } from 'zod';

const uuid = z.uuid();

/** Path ids that are not uuids never reach a query: they simply do not exist (404). */
export function isUuid(value: unknown): value is string {
  return uuid.safeParse(value).success;
}

/** Escapes LIKE wildcards so a search for `50%` means the text "50%". */
export function containsPattern(term: string): string {
  return `%${likeLiteral(term)}%`;
}

/** A text a `LIKE` pattern matches literally: its `\\`, `%` and `_` escaped. */
export function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/**
 * A regular expression (PostgreSQL's) finding the words in their order within one field of
 * `search_text`, whose fields U+001F parts: `cafe[^\u001f]*latte`. Every character but a letter or
 * a digit is escaped, so each word is taken literally.
 */
export function withinFieldPattern(words: readonly string[]): string {
  return words.map((word) => word.replace(/[^\p{L}\p{N}]/gu, (char) => `\\${char}`)).join('[^\u001f]*');
}

/**
 * A `LIKE` pattern finding the words in their order with anything between them (`%cafe%latte%`),
 * each taken literally.
 */
export function containsWordsPattern(words: readonly string[]): string {
  return `%${words.map(likeLiteral).join('%')}%`;
}

/**
 * `sort=field` / `sort=-field` → an ORDER BY term. Empty values go last either way, so a list
 * sorted by, say, last login starts with people who have logged in.
 */
export function sortTerm(sort: string, fields: Record<string, AnyPgColumn | SQL>): SQL {
  const descending = sort.startsWith('-');
  const field = fields[descending ? sort.slice(1) : sort];
  if (!field) throw new Error(`No column for sort field ${sort}`);
  return descending ? sql`${field} desc nulls last` : sql`${field} asc nulls last`;
}

/**
 * The parsed input restricted to the keys the request actually sent: a PATCH changes only the
 * fields it names, even where the schema (a `.partial()` of the create schema) has defaults.
 */
export function namedFieldsOnly(parsed: Record<string, unknown>, raw: unknown): Record<string, unknown> {
  const sent = typeof raw === 'object' && raw !== null ? raw : {};
  return Object.fromEntries(Object.entries(parsed).filter(([key]) => Object.hasOwn(sent, key)));
}
