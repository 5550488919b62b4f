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
 * The share of a typed word's trigrams that a stretch of a record's `search_text` must hold for the
 * word to be found there misspelt (PostgreSQL's `word_similarity`, by pg_trgm's `%>` operator,
 * which the trigram index serves; `openDatabase` sets it as `pg_trgm.word_similarity_threshold`
 * on every connection). 0.5 finds `croisant`, `shawerma` and `مصطفا`; 0.4 also finds `مناقيش`
 * in `مناديل` (decision 0043).
 */
export const typoWordSimilarity = 0.5;

/** The fewest letters a typed word has for a misspelling of it to be searched (decision 0043). */
export const typoWordLength = 5;

/**
 * How a search's words may be found misspelt: each word of letters alone, `typoWordLength` or
 * longer, by its similarity (`similar`, the longest first); the others — short words, codes,
 * numbers — as they are typed, anywhere (`contained`, `LIKE` patterns). None when no word may
 * be misspelt: `احمد` must not find `حمد`, nor `BR-0010` every brand.
 */
export function typoWords(words: readonly string[]): { similar: string[]; contained: string[] } | undefined {
  const misspellable = (word: string) => /^\p{L}+$/u.test(word) && [...word].length >= typoWordLength;
  const similar = words.filter(misspellable).sort((a, b) => [...b].length - [...a].length);
  if (similar.length === 0) return undefined;
  return { similar, contained: words.filter((word) => !misspellable(word)).map(containsPattern) };
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
