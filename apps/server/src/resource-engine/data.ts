import {
  addCalendarDays,
  type DateRange,
  dateField,
  instantAt,
  joinList,
  type ListQuery,
  localDate,
  noReference,
  normalizeSearchText,
  pickLocalized,
  type ResourceVerb,
  searchWords,
  type ValidationIssue,
  validationCodes,
} from '@dukkan/contract';
import {
  and,
  count,
  eq,
  getTableName,
  ilike,
  inArray,
  is,
  isNull,
  like,
  or,
  type Placeholder,
  SQL,
  sql,
} from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { type AuditEntry, auditEntry, auditRecorded, recordAudit } from '../db/audit-log.ts';
import { insertRows } from '../db/bulk-insert.ts';
import type { Database } from '../db/client.ts';
import { type AuditChanges, listWords, searchTextSeparator } from '../db/schema/index.ts';
import { workspaceTimeZone } from '../db/workspace-time-zone.ts';
import { writeTransaction } from '../db/write-transaction.ts';
import { AppError, validationError } from '../errors.ts';
import { CodeSequence } from './code-sequence.ts';
import {
  declaredExportFields,
  type ExportContext,
  type ExportExpansion,
  type ExportField,
} from './export-fields.ts';
import { declaredImageFields, foreignImageIssues } from './images.ts';
import type { ImportContext, ImportExpansion } from './import-expansion.ts';
import {
  containsPattern,
  containsWordsPattern,
  isUuid,
  likeLiteral,
  typoWordSimilarity,
  typoWords,
  withinFieldPattern,
} from './queries.ts';
import { schemaFieldsOf, stringsAt } from './schema-fields.ts';
import {
  type HookContext,
  ordered,
  type ReaderLocale,
  type RecordUsers,
  type ResourceCaller,
  type ResourceHooks,
  type ResourceRow,
  type ResourceStorage,
  systemCaller,
} from './storage.ts';

/** A list's page and the total of its matches. */
export interface ResourcePage {
  records: Record<string, unknown>[];
  total: number;
  /** More than the declaration's `countLimit` match: `total` is the limit. */
  capped?: boolean;
}

/**
 * The data operations of one resource — list, find, create one or many, update, delete — with
 * everything that makes a write valid: same-workspace references and images, unique fields across
 * a bulk, the resource's hooks, one transaction per write. The HTTP router, the first start's
 * demo data and the operator's command line all write through here.
 */
export interface ResourceData {
  storage: ResourceStorage;
  /** The declaration's verbs the engine serves: all but those the feature serves itself. */
  engineVerbs: readonly ResourceVerb[];
  list(db: Database, workspaceId: string, query: ListQuery, locale: ReaderLocale): Promise<ResourcePage>;
  /**
   * Every record the list's query matches (its search, filters and sort; `page` and `pageSize`
   * ignored), read `chunkSize` at a time through the list's own statement: an export writes
   * each chunk before the next is read.
   */
  listAll(
    db: Database,
    workspaceId: string,
    query: ListQuery,
    locale: ReaderLocale,
    chunkSize?: number,
  ): AsyncGenerator<Record<string, unknown>[]>;
  /** The fields an export of the list writes (`ExportField`), which its import reads back. */
  exportFields: readonly ExportField[];
  /** An export's rows beyond one per record (a product's variants), where the resource has them. */
  exportExpansion?: (context: ExportContext) => Promise<ExportExpansion>;
  /** An import's rows beyond one per record (a product's variants), where the resource has them. */
  importExpansion?: (context: ImportContext) => Promise<ImportExpansion>;
  /** Values of each filter (and status) with their counts. */
  filterValues(
    db: Database,
    workspaceId: string,
  ): Promise<Record<string, { value: unknown; count: number }[]>>;
  /** One record, with the fields only a single record's answer has (`hooks.details`). */
  find(
    db: Database,
    workspaceId: string,
    id: string,
    caller?: ResourceCaller,
  ): Promise<Record<string, unknown> | null>;
  /**
   * Creates the rows (validated input) all or none; issue paths of a bulk are `<index>.<field>`.
   * Answers the records as a read answers them, or with `answer: 'rows'` the rows as inserted
   * (their columns, no details: an import, which reads only their ids, status and keys).
   */
  create(
    db: Database,
    caller: ResourceCaller,
    inputs: Record<string, unknown>[],
    bulk?: boolean,
    answer?: 'records' | 'rows',
  ): Promise<Record<string, unknown>[]>;
  /** Changes the named fields; null when the record is not the workspace's. */
  update(
    db: Database,
    caller: ResourceCaller,
    id: string,
    input: Record<string, unknown>,
  ): Promise<Record<string, unknown> | null>;
  /** False when the record is not the workspace's. */
  remove(db: Database, caller: ResourceCaller, id: string): Promise<boolean>;
}

const isArrayColumn = (column: AnyPgColumn | SQL) =>
  !is(column, SQL) && (column as AnyPgColumn).columnType === 'PgArray';

function isForeignKeyViolation(error: unknown): boolean {
  let current = error as { code?: string; cause?: unknown } | undefined;
  for (let depth = 0; depth < 5 && current; depth++) {
    if (current.code === '23503') return true;
    current = current.cause as typeof current;
  }
  return false;
}

/** A code left out or empty: the engine assigns one (`assignCode`). */
const isEmptyCode = (code: unknown) => code === undefined || code === null || code === '';

/** How many names a refusal of a used record lists. */
export const inUseNamesShown = 5;

/**
 * The refusal of a delete that other records depend on: RECORD_IN_USE, with — where the
 * resource knows its users — their count and the first five names in the reader's language.
 */
function inUse(users?: RecordUsers, locale: ReaderLocale = 'en'): AppError {
  const issue = users
    ? {
        path: 'id',
        message: validationCodes.RECORD_IN_USE_BY,
        params: {
          count: users.count,
          names: joinList(
            users.names.slice(0, inUseNamesShown).map((name) => pickLocalized(name, locale)),
            locale,
          ),
        },
      }
    : { path: 'id', message: validationCodes.RECORD_IN_USE };
  return new AppError('VALIDATION', 'Other records still refer to this one', { key: 'id', issues: [issue] });
}

/**
 * A hook's refusal of one row of a bulk names the row (`<index>.<field>`), as the engine's own
 * issues do; a single create's stays as the hook gave it.
 */
async function namingRow(index: number | undefined, run: () => Promise<void> | void): Promise<void> {
  try {
    await run();
  } catch (error) {
    if (index === undefined || !(error instanceof AppError) || error.code !== 'VALIDATION') throw error;
    const issues = (error.details.issues ?? []).map((issue) => ({
      ...issue,
      path: issue.path ? `${index}.${issue.path}` : `${index}`,
    }));
    throw validationError(issues, error.message, error.statusCode);
  }
}

/** What a list statement's SQL depends on; requests of one shape share one prepared statement. */
interface ListShape {
  search: boolean;
  /** Searched with words that may be misspelt (`typoWords`): also found by their similarity. */
  typos: boolean;
  /** Per present filter: has ids, has `none`; a date range: has a start, has an end. */
  filters: { field: string; ids: boolean; none: boolean; from?: boolean; to?: boolean }[];
  status: boolean;
  sort: string;
  /** Searched with no sort given: by relevance first (`searchedStatement`), then `sort`. */
  ranked: boolean;
  locale: ReaderLocale;
}

const shapeKey = (shape: ListShape) =>
  JSON.stringify([
    shape.search,
    shape.typos,
    shape.filters.map((filter) => [filter.field, filter.ids, filter.none, filter.from, filter.to]),
    shape.status,
    shape.sort,
    shape.ranked,
    shape.locale,
  ]);

let preparedCount = 0;

/** The first instant of a calendar day (`YYYY-MM-DD`) in a time zone. */
function startOfDay(day: string, timeZone: string): Date {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return instantAt({ year, month, day: date, hour: 0, minute: 0, second: 0, millisecond: 0 }, timeZone);
}

/** The column of a searched page's rows that carries the total (named apart from any field). */
const searchedTotal = '__total';

/** The column of an export chunk's rows that carries a ranked search's relevance. */
const chunkRank = '__rank';

/** The data operations of a bound resource (see `ResourceData`); `now` stamps `updatedAt`. */
export function createResourceData(
  storage: ResourceStorage,
  {
    hooks = {},
    now = () => new Date(),
    featureVerbs = [],
    exportFields,
    exportExpansion,
    importExpansion,
  }: {
    hooks?: ResourceHooks;
    now?: () => Date;
    featureVerbs?: readonly ResourceVerb[];
    exportFields?: readonly ExportField[];
    exportExpansion?: (context: ExportContext) => Promise<ExportExpansion>;
    importExpansion?: (context: ImportContext) => Promise<ImportExpansion>;
  } = {},
): ResourceData {
  const { definition, table, columns, selection } = storage;
  /** The table's name, which its words in `search_words` are kept under (`list`). */
  const listName = getTableName(table);
  const inWorkspace = (workspaceId: string | Placeholder) => eq(table.workspaceId, workspaceId);
  const statusColumn = definition.hasStatus ? columns.status : undefined;
  const imageFields = declaredImageFields(definition);
  const dateFields = schemaFieldsOf(definition.schemas.create, dateField);
  const inputFields = Object.keys(definition.schemas.create.shape);
  // A record with a code may leave it empty: the sequence of `codePrefix` assigns one, else
  // (no prefix) the resource's hook must, or the write is refused with CODE_IS_REQUIRED.
  const codeColumn = inputFields.includes('code') ? columns.code : undefined;
  const codePrefix = codeColumn ? definition.codePrefix : undefined;

  /** The sequence a write assigns codes from, or undefined for a resource without one. */
  function codeSequence(db: Database, workspaceId: string, reserved?: ReadonlySet<string>) {
    return codePrefix && codeColumn
      ? new CodeSequence(db, table, codeColumn, definition.key, workspaceId, codePrefix, reserved)
      : undefined;
  }

  /**
   * After the resource's hook (which may have given the code itself): a code still empty gets the
   * sequence's next one, or — without a sequence — is refused as required.
   */
  async function assignCode(
    input: Record<string, unknown>,
    sequence: CodeSequence | undefined,
    pathPrefix: string,
    expected: number,
  ) {
    if (!codeColumn || !isEmptyCode(input.code)) return;
    if (!sequence) {
      throw validationError([{ path: `${pathPrefix}code`, message: validationCodes.CODE_IS_REQUIRED }]);
    }
    input.code = await sequence.next(expected);
  }

  /**
   * The search's words found as typed: in their order in the search column (`search`) and, for
   * several words, all in one field (`within`, a pattern that does not cross U+001F; null for one
   * word, and a custom plan drops the test).
   */
  function containedCondition(column: AnyPgColumn): SQL {
    return and(
      like(column, sql.placeholder('search')),
      sql`(${sql.placeholder('within')}::text is null or ${column} ~ ${sql.placeholder('within')}::text)`,
    )!;
  }

  /**
   * The search's words found misspelt (`typoWords`): each word that may be misspelt similar to a
   * stretch of the search column (pg_trgm's `%>` at `typoWordSimilarity`), the words that may not
   * be misspelt contained anywhere, and one word at least not there as typed: a record that holds
   * every word as typed but out of order or across fields (`ب ضريبة` in `ي ضريبة`) stays unfound
   * (decision 0043). The records looked at are those holding, as typed, a word of the workspace's
   * list (`search_words`) similar to the longest word (`typo.lead`): the words are compared first,
   * few and short, and the records found by the search index (`like any`), so the similarity is
   * computed for them alone, not for every record sharing a trigram with the word (decision 0050).
   * A word holds no `%`, `_` or `\\` (ASCII punctuation parts words): it is its own pattern.
   */
  function typoCondition(column: AnyPgColumn): SQL {
    const similarWords = sql`array(select '%' || ${listWords.word} || '%' from ${listWords}
      where ${listWords.workspaceId} = ${sql.placeholder('workspaceId')}
        and ${listWords.list} = ${listName}
        and ${listWords.word} %> ${sql.placeholder('typo.lead')}::text)`;
    // `word_similarity(…) >= typoWordSimilarity` is `%>` at the threshold every connection is
    // given, written out: the records come from the index already, and the planner estimates `%>`
    // by computing it over the column's statistics sample — 10 ms of planning per statement over
    // long texts (products' variant codes) — where it estimates a function call for nothing.
    const threshold = sql.raw(String(typoWordSimilarity));
    return sql`(${column} like any(${similarWords})
      and word_similarity(${sql.placeholder('typo.lead')}::text, ${column}) >= ${threshold}
      and not exists (select from unnest(${sql.placeholder('typo.others')}::text[]) as other
        where word_similarity(other, ${column}) < ${threshold})
      and ${column} like all(${sql.placeholder('typo.contained')}::text[])
      and not ${column} like all(${sql.placeholder('typo.literal')}::text[]))`;
  }

  function conditions(shape: ListShape): SQL | undefined {
    const placeholder = (name: string) => sql.placeholder(name);
    const all: (SQL | undefined)[] = [inWorkspace(placeholder('workspaceId'))];
    if (shape.search) {
      // The search column is stored folded: a plain LIKE on the folded words matches the same
      // rows as ILIKE, and its recheck of each candidate row costs a third as much. Words that may
      // be misspelt also find a record by their similarity (a second scan of the trigram index).
      all.push(
        storage.searchColumn
          ? shape.typos
            ? or(containedCondition(storage.searchColumn), typoCondition(storage.searchColumn))
            : containedCondition(storage.searchColumn)
          : or(
              ...definition.search.map((field) =>
                ilike(storage.filterColumn(field) as AnyPgColumn, placeholder('search')),
              ),
            ),
      );
    }
    for (const filter of shape.filters) {
      const column = storage.filterColumn(filter.field);
      if (filter.from !== undefined || filter.to !== undefined) {
        // A date range: instants of the workspace's calendar days, the end's next midnight excluded.
        if (filter.from) all.push(sql`${column} >= ${placeholder(`filter.${filter.field}.from`)}`);
        if (filter.to) all.push(sql`${column} < ${placeholder(`filter.${filter.field}.to`)}`);
        continue;
      }
      const ids = placeholder(`filter.${filter.field}`);
      all.push(
        or(
          filter.ids
            ? (storage.filterCondition(filter.field, sql`${ids}`, sql`${placeholder('workspaceId')}`) ??
                sql`${column} = any(${ids})`)
            : undefined,
          filter.none ? isNull(column) : undefined,
        ),
      );
    }
    if (shape.status && statusColumn) all.push(sql`${statusColumn} = any(${placeholder('status')})`);
    return and(...all);
  }

  // Statements built once per database and shape: Drizzle rebuilding the same SQL took about
  // 1 ms of CPU per list request, as much as the rest of the engine. (PostgreSQL connections
  // plan every execution anew — plan_cache_mode — so trigram searches never get a generic plan.)
  const prepared = new WeakMap<Database, Map<string, ListStatements>>();
  type PreparedList = { execute(params: Record<string, unknown>): Promise<ResourceRow[]> };
  type PreparedCount = { execute(params: Record<string, unknown>): Promise<{ total: number }[]> };
  /**
   * A list shape's page and total; a searched shape also has `searched`, the page with the total
   * on each of its rows (decision 0040).
   */
  type ListStatements = { page: PreparedList; total: PreparedCount; searched?: PreparedList };

  /**
   * A ranked shape's relevance of a match: 0 where a field of `search_text` (parted by U+001F) is
   * the typed words, 1 where one starts with them, 2 where it holds them, else (found misspelt
   * only) 3. None for a shape that is not ranked.
   */
  function rankOf(shape: ListShape): SQL<number> | undefined {
    if (!shape.ranked || !storage.searchColumn) return undefined;
    const separated = sql`(chr(31) || ${storage.searchColumn} || chr(31))`;
    const like = (name: string) => sql`${separated} like ${sql.placeholder(name)}`;
    const rest = shape.typos
      ? sql`when ${containedCondition(storage.searchColumn)} then 2 else 3`
      : sql`else 2`;
    return sql<number>`(case when ${like('rank.exact')} or ${like('rank.typedExact')} then 0
      when ${like('rank.prefix')} or ${like('rank.typedPrefix')} then 1 ${rest} end)`;
  }

  /**
   * A searched list's page and total in one statement. The search's matches are read once (a
   * common table expression read twice is materialized): their count, and their sort values and
   * ids ordered for the page, whose full rows alone are then read by key. Two statements would read
   * the matches twice, as a search's page can seldom stop early (its index lists matches in no
   * useful order) and its count cannot.
   */
  function searchedStatement(db: Database, shape: ListShape, where: SQL | undefined, name: string) {
    const { expression, descending, notNull } = storage.sortKey(shape.sort, shape.locale);
    const rank = rankOf(shape) ?? sql<number>`0`;
    const matches = db.$with('matches').as(
      storage
        .joined(
          db
            .select({
              matchId: sql<string>`${storage.idColumn}`.as('match_id'),
              rank: rank.as('rank'),
              sortValue: sql`${expression}`.as('sort_value'),
            })
            .from(table)
            .$dynamic(),
        )
        .where(where),
    );
    const page = db.$with('page').as(
      db
        .select({ matchId: matches.matchId, rank: matches.rank })
        .from(matches)
        .orderBy(
          sql`${matches.rank} asc`,
          ordered(sql`${matches.sortValue}`, descending, notNull),
          sql`${matches.matchId} asc`,
        )
        .limit(sql.placeholder('limit'))
        .offset(sql.placeholder('offset')),
    );
    return storage
      .joined(
        db
          .with(matches, page)
          .select({
            ...selection,
            // What the search found each of the page's rows by (a product's variant), for its rows alone.
            ...(storage.searchColumn
              ? storage.searchedSelection({
                  pattern: sql`${sql.placeholder('search')}::text`,
                  within: sql`${sql.placeholder('within')}::text`,
                })
              : {}),
            [searchedTotal]: sql<number>`(select count(*) from ${matches})`,
          })
          .from(table)
          .$dynamic(),
      )
      .innerJoin(page, eq(storage.idColumn, page.matchId))
      .where(inWorkspace(sql.placeholder('workspaceId')))
      .orderBy(
        sql`${page.rank} asc`,
        ...storage.sortTerms(shape.sort, shape.locale),
        sql`${storage.idColumn} asc`,
      )
      .prepare(name) as unknown as PreparedList;
  }

  /**
   * An export's chunks of a list shape, by keyset: the first chunk, the chunk after a record whose
   * sort value is `after.value` (and id `after.id`), and — the sort value being empty, as empty
   * values sort last either way — the chunk after it among the empty ones. The list's conditions
   * and order, each chunk found from the index where the last one stopped rather than by
   * skipping the rows before it (an offset reads every earlier row again).
   */
  const preparedChunks = new WeakMap<Database, Map<string, ChunkStatements>>();
  type ChunkStatements = { first: PreparedList; after: PreparedList; afterEmpty: PreparedList };

  function chunkStatementsFor(db: Database, shape: ListShape): ChunkStatements {
    let byShape = preparedChunks.get(db);
    if (!byShape) {
      byShape = new Map();
      preparedChunks.set(db, byShape);
    }
    const key = shapeKey(shape);
    let statements = byShape.get(key);
    if (!statements) {
      const where = conditions(shape);
      const { expression, descending, notNull } = storage.sortKey(shape.sort, shape.locale);
      const value = sql.placeholder('after.value');
      const id = storage.idColumn;
      const afterId = sql.placeholder('after.id');
      const beyond = descending ? sql`${expression} < ${value}` : sql`${expression} > ${value}`;
      const later = sql`(${beyond} or (${expression} = ${value} and ${id} > ${afterId})${notNull ? sql`` : sql` or ${expression} is null`})`;
      const laterEmpty = sql`${expression} is null and ${id} > ${afterId}`;
      // Ranked (a search with no sort given): by relevance first, as the list shows it; the chunk
      // after a record is then after its rank, or of its rank and after it by the sort.
      const rank = rankOf(shape);
      const afterRank = sql.placeholder('after.rank');
      const ranked = (condition: SQL) =>
        rank ? sql`(${rank} > ${afterRank} or (${rank} = ${afterRank} and ${condition}))` : condition;
      const select = (name: string, extra?: SQL) =>
        storage
          .joined(
            db
              .select({
                ...selection,
                sortValue: sql<string | null>`(${expression})::text`,
                ...(rank ? { [chunkRank]: rank } : {}),
              })
              .from(table)
              .$dynamic(),
          )
          .where(extra ? and(where, extra) : where)
          .orderBy(
            ...(rank ? [sql`${rank} asc`] : []),
            ...storage.sortTerms(shape.sort, shape.locale),
            sql`${id} asc`,
          )
          .limit(sql.placeholder('limit'))
          .prepare(name) as unknown as PreparedList;
      preparedCount += 1;
      statements = {
        first: select(`chunk_${preparedCount}`),
        after: select(`chunk_after_${preparedCount}`, ranked(later)),
        afterEmpty: select(`chunk_empty_${preparedCount}`, ranked(laterEmpty)),
      };
      byShape.set(key, statements);
    }
    return statements;
  }

  function statementsFor(db: Database, shape: ListShape) {
    let byShape = prepared.get(db);
    if (!byShape) {
      byShape = new Map();
      prepared.set(db, byShape);
    }
    const key = shapeKey(shape);
    let statements = byShape.get(key);
    if (!statements) {
      const where = conditions(shape);
      preparedCount += 1;
      statements = {
        page: storage
          .joined(db.select(selection).from(table).$dynamic())
          .where(where)
          .orderBy(...storage.sortTerms(shape.sort, shape.locale), sql`${storage.idColumn} asc`)
          .limit(sql.placeholder('limit'))
          .offset(sql.placeholder('offset'))
          .prepare(`list_${preparedCount}`) as unknown as PreparedList,
        // With a count limit, the count stops after the limit's next row: the first 1,001 of a
        // million audit rows, not all of them.
        total: (definition.countLimit
          ? db.select({ total: count() }).from(
              storage
                .joined(
                  db
                    .select({ one: sql`1`.as('one') })
                    .from(table)
                    .$dynamic(),
                )
                .where(where)
                .limit(definition.countLimit + 1)
                .as('counted'),
            )
          : storage.joined(db.select({ total: count() }).from(table).$dynamic()).where(where)
        ).prepare(`count_${preparedCount}`) as unknown as PreparedCount,
        // A count limit stops the count early, which a count of the materialized matches cannot.
        searched:
          shape.search && !definition.countLimit
            ? searchedStatement(db, shape, where, `searched_${preparedCount}`)
            : undefined,
      };
      byShape.set(key, statements);
    }
    return statements;
  }

  /** The list's statement shape and parameters for a query (without its page or chunk). */
  async function listStatement(db: Database, workspaceId: string, query: ListQuery, locale: ReaderLocale) {
    const values = query as ListQuery & Record<string, unknown>;
    const params: Record<string, unknown> = { workspaceId };
    const sort = query.sort ?? definition.defaultSort;
    /** The same query with its words also found misspelt; undefined where none may be. */
    let misspelt: (() => { shape: ListShape; params: Record<string, unknown> }) | undefined;
    const shape: ListShape = {
      search: false,
      typos: false,
      filters: [],
      status: false,
      sort,
      ranked: false,
      locale,
    };
    // The search column holds its text folded (`search_fold`): the typed words are folded alike
    // and found in their order, each without its article (`searchWords`), so `احمد` finds `أحمد`,
    // `٠١٠٠` finds `0100` and `مخبز ذهبي` finds `المخبز الذهبي`. Marks alone are no search.
    if (query.search && storage.searchColumn) {
      const words = searchWords(query.search);
      if (words.length > 0) {
        shape.search = true;
        params.search = containsWordsPattern(words);
        params.within = words.length > 1 ? withinFieldPattern(words) : null;
        // Words of letters long enough to be misspelt may find a record where they are similar
        // to its words (`croisant` finds `croissant`): asked by `misspelt` when the words as typed
        // find nothing (decision 0043).
        const typos = typoWords(words);
        if (typos) {
          misspelt = () => ({
            shape: { ...shape, typos: true },
            params: {
              ...params,
              'typo.lead': typos.similar[0],
              'typo.others': typos.similar.slice(1),
              'typo.contained': typos.contained,
              'typo.literal': typos.similar.map(containsPattern),
            },
          });
        }
        // No sort given: a record with a field that is the typed words comes first, then one with
        // a field that starts with them (`search_text` parts its fields by the separator) — the
        // words as searched (without an article) or as typed (`القهوة` is a field `القهوة`).
        if (!query.sort && !definition.countLimit) {
          shape.ranked = true;
          const searched = likeLiteral(words.join(' '));
          const typed = likeLiteral(
            normalizeSearchText(query.search).split(/\s+/u).filter(Boolean).join(' '),
          );
          const field = (phrase: string) => `%${searchTextSeparator}${phrase}${searchTextSeparator}%`;
          const fieldStart = (phrase: string) => `%${searchTextSeparator}${phrase}%`;
          Object.assign(params, {
            'rank.exact': field(searched),
            'rank.prefix': fieldStart(searched),
            'rank.typedExact': field(typed),
            'rank.typedPrefix': fieldStart(typed),
          });
        }
      }
    } else if (query.search) {
      shape.search = true;
      params.search = containsPattern(query.search);
    }
    let timeZone: Promise<string> | undefined;
    for (const filter of definition.filters) {
      if (filter.kind === 'dateRange') {
        const range = values[filter.field] as DateRange | undefined;
        if (!range) continue;
        timeZone ??= workspaceTimeZone(db, workspaceId);
        const zone = await timeZone;
        shape.filters.push({
          field: filter.field,
          ids: false,
          none: false,
          from: !!range.from,
          to: !!range.to,
        });
        if (range.from) params[`filter.${filter.field}.from`] = startOfDay(range.from, zone).toISOString();
        if (range.to) {
          params[`filter.${filter.field}.to`] = addCalendarDays(
            startOfDay(range.to, zone),
            1,
            zone,
          ).toISOString();
        }
        continue;
      }
      const chosen = values[filter.field] as string[] | undefined;
      if (!chosen) continue;
      const ids = chosen.filter((value) => value !== noReference);
      const none = filter.kind === 'reference' && chosen.includes(noReference);
      shape.filters.push({ field: filter.field, ids: ids.length > 0, none });
      if (ids.length > 0) params[`filter.${filter.field}`] = ids;
    }
    const statuses = values.status as string[] | undefined;
    if (statuses && statusColumn) {
      shape.status = true;
      params.status = statuses;
    }
    return { shape, params, misspelt };
  }

  async function list(
    db: Database,
    workspaceId: string,
    query: ListQuery,
    locale: ReaderLocale,
  ): Promise<ResourcePage> {
    const statement = await listStatement(db, workspaceId, query, locale);
    const found = await listPage(db, statement.shape, statement.params, query);
    // Nothing found as typed: the words that may be misspelt are looked for by their similarity.
    // Only then — the similarity of a common word is computed for every record sharing its
    // trigrams, ten times the search as typed (decision 0043).
    if (found.total === 0 && statement.misspelt) {
      const { shape, params } = statement.misspelt();
      return listPage(db, shape, params, query);
    }
    return found;
  }

  /** A page of a list statement and the total of its matches. */
  async function listPage(
    db: Database,
    shape: ListShape,
    filters: Record<string, unknown>,
    query: ListQuery,
  ): Promise<ResourcePage> {
    const statements = statementsFor(db, shape);
    const params = { ...filters, limit: query.pageSize, offset: (query.page - 1) * query.pageSize };
    if (statements.searched) {
      const rows = await statements.searched.execute(params);
      // A page past the last match has no row to carry the total; the first page's is 0.
      const total =
        rows.length > 0
          ? Number(rows[0]![searchedTotal])
          : query.page === 1
            ? 0
            : Number((await statements.total.execute(params))[0]?.total ?? 0);
      return { records: rows.map(storage.toRecord), total };
    }
    // Without a search, the page and the total apart: a window count would make every page read
    // every matching row, where the page alone stops after `offset + pageSize` rows of an ordered
    // index (the first page of 100k customers: 105 ms with the window, 14 ms as two statements).
    const [rows, [counted]] = await Promise.all([
      statements.page.execute(params),
      statements.total.execute(params),
    ]);
    const total = Number(counted?.total ?? 0);
    const limit = definition.countLimit;
    if (limit !== undefined && total > limit)
      return { records: rows.map(storage.toRecord), total: limit, capped: true };
    return { records: rows.map(storage.toRecord), total };
  }

  async function* listAll(
    db: Database,
    workspaceId: string,
    query: ListQuery,
    locale: ReaderLocale,
    chunkSize = 1000,
  ): AsyncGenerator<Record<string, unknown>[]> {
    const statement = await listStatement(db, workspaceId, query, locale);
    let { shape, params } = statement;
    let statements = chunkStatementsFor(db, shape);
    // Ordered by the sort (after the relevance, when ranked) and then the id, each chunk starting
    // after the last record of the one before: no record is read twice or left out while the
    // records stay as they are.
    let rows = await statements.first.execute({ ...params, limit: chunkSize });
    // As the list: the words found misspelt only where nothing is found as typed.
    if (rows.length === 0 && statement.misspelt) {
      ({ shape, params } = statement.misspelt());
      statements = chunkStatementsFor(db, shape);
      rows = await statements.first.execute({ ...params, limit: chunkSize });
    }
    for (;;) {
      if (rows.length > 0) yield rows.map(storage.toRecord);
      const last = rows.at(-1);
      if (rows.length < chunkSize || !last) return;
      const after = {
        ...params,
        limit: chunkSize,
        'after.id': last.id,
        'after.value': last.sortValue,
        'after.rank': last[chunkRank],
      };
      rows = await (last.sortValue === null ? statements.afterEmpty : statements.after).execute(after);
    }
  }

  async function filterValues(db: Database, workspaceId: string) {
    const fields = [
      // Ids of any record and date ranges have no values to count.
      ...definition.filters
        .filter((filter) => filter.kind === 'enum' || filter.kind === 'reference')
        .map((filter) => ({
          field: filter.field,
          column: storage.filterColumn(filter.field),
        })),
      ...(statusColumn ? [{ field: 'status', column: statusColumn as AnyPgColumn | SQL }] : []),
    ];
    const entries = await Promise.all(
      fields.map(async ({ field, column }) => {
        if (isArrayColumn(column)) {
          // A list of ids (a product's tags): each id counts the records that have it.
          const { rows } = (await db.execute(sql`
            select value, count(*)::int as count
            from ${table}, unnest(${column}) as value
            where ${inWorkspace(workspaceId)}
            group by value order by value`)) as unknown as { rows: { value: unknown; count: number }[] };
          return [field, rows] as const;
        }
        const values = await db
          .select({ value: column, count: count() })
          .from(table)
          .where(inWorkspace(workspaceId))
          .groupBy(column)
          .orderBy(column);
        return [field, values] as const;
      }),
    );
    return Object.fromEntries(entries);
  }

  async function findRows(db: Database, workspaceId: string, ids: string[]): Promise<ResourceRow[]> {
    if (ids.length === 0) return [];
    return (await storage
      .joined(db.select(selection).from(table).$dynamic())
      .where(and(inWorkspace(workspaceId), inArray(storage.idColumn, ids)))) as ResourceRow[];
  }

  /**
   * Records of the rows with the fields only a single record's answer has (`hooks.details`);
   * `written`: the states of the records this request has just written.
   */
  async function detailedRecords(
    db: Database,
    caller: ResourceCaller,
    rows: ResourceRow[],
    written: ReadonlyMap<string, unknown> = new Map(),
  ) {
    const records = rows.map(storage.toRecord);
    if (!hooks.details || records.length === 0) return records;
    const details = await hooks.details(
      { ...caller, db },
      records.map((record) => record.id as string),
      written,
    );
    return records.map((record) => ({ ...record, ...details.get(record.id as string) }));
  }

  async function find(
    db: Database,
    workspaceId: string,
    id: string,
    caller?: ResourceCaller,
    written?: ReadonlyMap<string, unknown>,
  ) {
    if (!isUuid(id)) return null;
    const [row] = await findRows(db, workspaceId, [id]);
    if (!row) return null;
    const [record] = await detailedRecords(db, caller ?? systemCaller(workspaceId), [row], written);
    return record!;
  }

  /**
   * The row, locked for the rest of the transaction, if it is this workspace's. An update never
   * changes the id, so it takes the weaker lock that still lets other writes reference the row
   * (saving recipe A with B while B is saved with A would otherwise deadlock: each insert of a
   * line waits for a key-share lock on the other's row).
   */
  async function lockRow(
    db: Database,
    workspaceId: string,
    id: string,
    strength: 'update' | 'no key update',
  ): Promise<ResourceRow | null> {
    if (!isUuid(id)) return null;
    const [row] = await db
      .select(columns)
      .from(table)
      .where(and(inWorkspace(workspaceId), eq(table.id, id)))
      .for(strength);
    return (row as ResourceRow | undefined) ?? null;
  }

  /**
   * Ids the input gives for other records (`brandId`, `parentId`) must be records of this
   * workspace: another workspace's id is refused exactly like one that does not exist. A record
   * cannot be its own parent (PARENT_IS_DESCENDANT; a resource whose records form a tree refuses
   * its deeper descendants in its own hook). A disabled record cannot be newly chosen
   * (REFERENCE_IS_DISABLED), but a reference the edited row already holds may stay: disabling a
   * brand must not make its locations unsaveable.
   */
  /** What a write's references name: per reference field, each id found in the workspace and its status. */
  type FoundReferences = Map<string, Map<string, string | null>>;

  /**
   * The records `inputs` reference, one query per reference field for all of them (a bulk of 500
   * rows asks once, not 500 times): each id found in the workspace, with its status where its
   * table has one.
   */
  async function findReferences(
    db: Database,
    workspaceId: string,
    inputs: readonly Record<string, unknown>[],
  ): Promise<FoundReferences> {
    const found: FoundReferences = new Map();
    for (const [field, referenced] of Object.entries(storage.references)) {
      const ids = [
        ...new Set(
          inputs.map((input) => input[field]).filter((value): value is string => typeof value === 'string'),
        ),
      ].filter(isUuid);
      const byId = new Map<string, string | null>();
      found.set(field, byId);
      if (ids.length === 0) continue;
      const status = (referenced as Partial<Record<'status', AnyPgColumn>>).status;
      const rows = await db
        .select({ id: referenced.id, ...(status ? { status } : {}) })
        .from(referenced)
        .where(and(eq(referenced.workspaceId, workspaceId), inArray(referenced.id, ids)));
      for (const row of rows)
        byId.set(row.id as string, ((row as { status?: string }).status ?? null) as string | null);
    }
    return found;
  }

  async function checkReferences(
    db: Database,
    workspaceId: string,
    input: Record<string, unknown>,
    pathPrefix: string,
    existing?: ResourceRow,
    references?: FoundReferences,
  ) {
    const found = references ?? (await findReferences(db, workspaceId, [input]));
    const issues: { path: string; message: string }[] = [];
    for (const field of Object.keys(storage.references)) {
      const value = input[field];
      if (typeof value !== 'string') continue;
      if (value === existing?.id) {
        issues.push({ path: `${pathPrefix}${field}`, message: validationCodes.PARENT_IS_DESCENDANT });
        continue;
      }
      const byId = found.get(field);
      if (!byId?.has(value))
        issues.push({ path: `${pathPrefix}${field}`, message: validationCodes.REFERENCE_NOT_FOUND });
      else if (byId.get(value) === 'inactive' && existing?.[field] !== value)
        issues.push({ path: `${pathPrefix}${field}`, message: validationCodes.REFERENCE_IS_DISABLED });
    }
    if (issues.length > 0) throw validationError(issues);
  }

  /**
   * A bulk's rows whose unique fields (`code`) repeat an earlier row of the same bulk: one issue
   * per row, `<index>.<field>`, before anything is written. A value already stored is the
   * database's to refuse (`DB`, target `code`), and the bulk then writes nothing either.
   */
  function refuseRepeatedUniques(inputs: Record<string, unknown>[]) {
    const issues: { path: string; message: string }[] = [];
    for (const field of storage.uniqueFields) {
      const seen = new Set<unknown>();
      inputs.forEach((input, index) => {
        const value = input[field];
        // An empty code is none: the engine assigns each its own.
        if (typeof value !== 'string' || value === '') return;
        if (seen.has(value))
          issues.push({ path: `${index}.${field}`, message: validationCodes.CODE_MUST_BE_UNIQUE });
        seen.add(value);
      });
    }
    if (issues.length > 0) throw validationError(issues);
  }

  /** Issues in the order of the input's fields (stable within a field), by each path's first segment. */
  function inFieldOrder(issues: ValidationIssue[]): ValidationIssue[] {
    const rank = (path: string) => {
      const index = inputFields.indexOf(path.split('.')[0]!);
      return index === -1 ? inputFields.length : index;
    };
    return issues.sort((a, b) => rank(a.path) - rank(b.path));
  }

  /**
   * The workspace's today (`YYYY-MM-DD` in its time zone), looked up at most once per write and
   * only when the write has a date to compare with it.
   */
  function workspaceToday(db: Database, workspaceId: string): () => Promise<string> {
    let today: Promise<string> | undefined;
    return () => {
      today ??= workspaceTimeZone(db, workspaceId).then((zone) => localDate(now(), zone));
      return today;
    };
  }

  /**
   * A date field (`dateField`) holds no day after the workspace's today: the schema only refused
   * days after today anywhere on Earth (UTC+14), not knowing whose today it is.
   */
  async function futureDateIssues(
    input: Record<string, unknown>,
    today: () => Promise<string>,
  ): Promise<ValidationIssue[]> {
    const dates = dateFields.flatMap((field) => stringsAt(input, field.split('.')));
    if (dates.length === 0) return [];
    const limit = await today();
    return dates
      .filter(({ value }) => value > limit)
      .map(({ path }) => ({ path, message: validationCodes.DATE_IN_FUTURE }));
  }

  /**
   * The checks every write's input gets from its declaration, then the resource's own hook: each
   * stored image must be a file of this workspace (`foreignImageIssues`, for every image field the
   * declaration has), and no date may be after the workspace's today (`futureDateIssues`). These
   * are refused together with the hook's own refusals, in the order of the input's fields, so one
   * answer names every field to fix.
   */
  async function beforeWrite(
    context: HookContext,
    input: Record<string, unknown>,
    today: () => Promise<string>,
    existing?: ResourceRow,
  ): Promise<unknown> {
    const issues = inFieldOrder([
      ...foreignImageIssues(context.workspaceId, input, imageFields),
      ...(await futureDateIssues(input, today)),
    ]);
    let written: unknown;
    try {
      written = await hooks.beforeWrite?.(context, input, existing);
    } catch (error) {
      if (issues.length === 0 || !(error instanceof AppError) || error.code !== 'VALIDATION') throw error;
      throw validationError(
        inFieldOrder([...issues, ...(error.details.issues ?? [])]),
        error.message,
        error.statusCode,
      );
    }
    if (issues.length > 0) throw validationError(issues);
    return written;
  }

  /**
   * The audit entry of one record's write: its row before and after (`null` when created or
   * deleted), with what the resource's hook adds (a product's variants by key).
   */
  function auditOf(
    workspaceId: string,
    id: string,
    before: ResourceRow | null,
    after: ResourceRow | null,
    written: unknown,
  ): AuditEntry {
    const extra: AuditChanges | null | undefined = after ? hooks.auditChanges?.(written) : undefined;
    return auditEntry(table, workspaceId, definition.key, id, before, after, extra);
  }

  async function create(
    db: Database,
    caller: ResourceCaller,
    inputs: Record<string, unknown>[],
    bulk = false,
    answer: 'records' | 'rows' = 'records',
  ): Promise<Record<string, unknown>[]> {
    refuseRepeatedUniques(inputs);
    // All or nothing: one transaction, so a failing row (a duplicate code) writes nothing.
    return writeTransaction(db, async (tx) => {
      const typedCodes = new Set(
        inputs.map((input) => input.code).filter((code): code is string => !isEmptyCode(code)),
      );
      const sequence = codeSequence(tx, caller.workspaceId, typedCodes);
      // Rows still without a code from each index on: how many codes the sequence is asked for.
      const stillEmpty = inputs.map((input) => (isEmptyCode(input.code) ? 1 : 0) as number);
      for (let index = stillEmpty.length - 2; index >= 0; index--)
        stillEmpty[index]! += stillEmpty[index + 1]!;
      // The sequence's lock before any row is written: a write holding a row another waits for
      // must not then wait for the lock that other write holds.
      if (sequence && (stillEmpty[0]! > 0 || [...typedCodes].some((code) => sequence.looksSequenced(code)))) {
        await sequence.lock();
      }
      const today = workspaceToday(tx, caller.workspaceId);
      const references = await findReferences(tx, caller.workspaceId, inputs);
      // A resource with write hooks writes each row after its checks and before the next row's,
      // so that a hook sees the rows before it (a value's text repeated, its place last, a
      // product's SKUs). Without them, every row is checked and given its code in turn, then all
      // are written in one insert (in chunks within PostgreSQL's parameters).
      const oneByOne = hooks.beforeWrite !== undefined || hooks.afterWrite !== undefined;
      const created: Record<string, unknown>[] = [];
      const ids: string[] = [];
      const writtenById = new Map<string, unknown>();
      const audited: AuditEntry[] = [];
      /** What follows a row's insert: its id, its own writes (`afterWrite`) and its audit row. */
      const written = async (index: number, stored: Record<string, unknown>, wrote: unknown) => {
        const id = stored.id as string;
        ids.push(id);
        if (wrote !== undefined) writtenById.set(id, wrote);
        await namingRow(bulk ? index : undefined, () =>
          hooks.afterWrite?.({ ...caller, db: tx }, id, inputs[index]!, wrote),
        );
        // Not even built where nothing is recorded (an import's dry run): 500 rows' changes a chunk.
        if (auditRecorded())
          audited.push(auditOf(caller.workspaceId, id, null, stored as ResourceRow, wrote));
      };
      const rows: Record<string, unknown>[] = [];
      const writtenOf: unknown[] = [];
      for (const [index, input] of inputs.entries()) {
        const row = bulk ? index : undefined;
        await checkReferences(tx, caller.workspaceId, input, bulk ? `${index}.` : '', undefined, references);
        let wrote: unknown;
        await namingRow(row, async () => {
          wrote = await beforeWrite({ ...caller, db: tx }, input, today);
        });
        await assignCode(input, sequence, bulk ? `${index}.` : '', stillEmpty[index] || 1);
        // The workspace comes last: no input can place a row in another workspace.
        const values = { ...storage.toRow(input, wrote), workspaceId: caller.workspaceId };
        if (!oneByOne) {
          rows.push(values);
          writtenOf.push(wrote);
          continue;
        }
        const [stored] = (await tx
          .insert(table)
          .values(values as typeof table.$inferInsert)
          .returning()) as Record<string, unknown>[];
        created.push(stored!);
        await written(index, stored!, wrote);
      }
      // Rows come back in the order of `rows` (`insertRows`: one column an array, unnested).
      if (rows.length > 0) created.push(...(await insertRows(tx, table, rows)));
      if (!oneByOne)
        for (const [index, stored] of created.entries()) await written(index, stored, writtenOf[index]);
      await sequence?.finish();
      await recordAudit(tx, audited);
      if (answer === 'rows') return created;
      const byId = new Map(
        (await findRows(tx, caller.workspaceId, ids)).map((row) => [row.id as string, row]),
      );
      return detailedRecords(
        tx,
        caller,
        ids.map((id) => byId.get(id)!),
        writtenById,
      );
    });
  }

  async function update(db: Database, caller: ResourceCaller, id: string, input: Record<string, unknown>) {
    const { workspaceId } = caller;
    if (!isUuid(id)) return null;
    return writeTransaction(db, async (tx) => {
      // A code the update empties gets the sequence's next one; as on create, the sequence's
      // lock is taken before the row's.
      const code = input.code;
      const sequence = typeof code === 'string' ? codeSequence(tx, workspaceId) : undefined;
      if (sequence && (code === '' || sequence.looksSequenced(code as string))) await sequence.lock();
      const existing = await lockRow(tx, workspaceId, id, 'no key update');
      if (!existing) return null;
      await checkReferences(tx, workspaceId, input, '', existing);
      const written = await beforeWrite(
        { ...caller, db: tx },
        input,
        workspaceToday(tx, workspaceId),
        existing,
      );
      if (input.code === '') await assignCode(input, sequence, '', 1);
      await sequence?.finish();
      const [updated] = await tx
        .update(table)
        .set({ ...storage.toRow(input, written), updatedAt: now() } as Partial<typeof table.$inferInsert>)
        .where(and(inWorkspace(workspaceId), eq(table.id, id)))
        .returning();
      await hooks.afterWrite?.({ ...caller, db: tx }, id, input, written, existing);
      if (auditRecorded()) await recordAudit(tx, [auditOf(workspaceId, id, existing, updated!, written)]);
      return find(tx, workspaceId, id, caller, written === undefined ? undefined : new Map([[id, written]]));
    });
  }

  async function remove(db: Database, caller: ResourceCaller, id: string): Promise<boolean> {
    const { workspaceId } = caller;
    return writeTransaction(db, async (tx) => {
      const existing = await lockRow(tx, workspaceId, id, 'update');
      if (!existing) return false;
      await hooks.beforeDelete?.({ ...caller, db: tx }, existing);
      const users = await hooks.usedBy?.({ ...caller, db: tx }, existing);
      if (users && users.count > 0) throw inUse(users, caller.locale);
      try {
        await tx.delete(table).where(and(inWorkspace(workspaceId), eq(table.id, id)));
      } catch (error) {
        if (isForeignKeyViolation(error)) throw inUse();
        throw error;
      }
      await hooks.afterDelete?.({ ...caller, db: tx }, existing);
      await recordAudit(tx, [auditOf(workspaceId, id, existing, null, undefined)]);
      return true;
    });
  }

  const engineVerbs = definition.verbs.filter((verb) => !featureVerbs.includes(verb));
  return {
    storage,
    engineVerbs,
    exportFields: exportFields ?? declaredExportFields(definition),
    exportExpansion,
    importExpansion,
    list,
    listAll,
    filterValues,
    find,
    create,
    update,
    remove,
  };
}
