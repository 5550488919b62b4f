import type { Locale, ResourceDefinition, ResourceVerb, WorkspaceGrant } from '@dukkan/contract';
import { Column, getTableColumns, is, SQL, sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  getTableConfig,
  PgDialect,
  type PgSelect,
  type PgTable,
} from 'drizzle-orm/pg-core';
import type { Database } from '../db/client.ts';
import type { AuditChanges } from '../db/schema/audit.ts';
import { sortCollation } from '../db/schema/sorting.ts';
import type { ExportContext, ExportExpansion, ExportField } from './export-fields.ts';
import type { ImportContext, ImportExpansion } from './import-expansion.ts';

/** The columns every resource table has. */
export interface ResourceTable extends PgTable {
  id: AnyPgColumn;
  workspaceId: AnyPgColumn;
  createdAt: AnyPgColumn;
  updatedAt: AnyPgColumn;
}

/** A stored row as the engine selects it: the table's columns plus computed values. */
export type ResourceRow = Record<string, unknown>;

/** Who asks, in which workspace: every data operation and hook gets it. */
export interface ResourceCaller {
  workspaceId: string;
  /** Null for the system itself (the first start's demo data, the operator's command line). */
  userId: string | null;
  grant: WorkspaceGrant;
  /** The reader's language: names in refusals are given in it. */
  locale?: ReaderLocale;
}

/** The system acting in a workspace with an admin's rights: the first start's demo data, the operator's command line. */
export function systemCaller(workspaceId: string): ResourceCaller {
  return { workspaceId, userId: null, grant: { isAdmin: true, tags: new Set() } };
}

/** What a hook is handed: the caller, and the transaction of the write it runs in. */
export interface HookContext extends ResourceCaller {
  db: Database;
}

/**
 * Rules a resource has beyond its declaration, registered by the feature that owns them. `W` is
 * what one record's write carries from its check to its write: beforeWrite returns it (a product's
 * variant plan and price range), and the engine hands it to `derivedValues`, afterWrite and the
 * answer's `details` of that same write — never through state kept beside the input.
 */
export interface ResourceHooks<W = unknown> {
  /**
   * Before create and update (after validation, inside the write's transaction): refuse or
   * adjust the input. On update `existing` is the stored row, already known to belong to the
   * caller's workspace, and `input` holds only the fields the request names.
   *
   * Codes: the hook runs before the engine assigns one. A create (or bulk row) whose `code` is
   * absent or empty, or an update that empties it, reaches the hook so; the hook may set
   * `input.code` itself (a variation value takes one from its type). Only a code still empty
   * after the hook gets the next code of the declaration's `codePrefix` sequence — or, for a
   * declaration without a prefix, is refused with CODE_IS_REQUIRED. A code the hook sets is
   * stored as it is: normalize it (`normalizeCode`) and keep it unique.
   *
   * What it returns is this write's state (`W`), handed to the later steps of the same write.
   */
  beforeWrite?(
    context: HookContext,
    input: Record<string, unknown>,
    existing?: ResourceRow,
  ): Promise<W | undefined> | W | undefined;
  /** Before delete, in its transaction, with the row known to be the workspace's: refuse a delete the data still depends on. */
  beforeDelete?(context: HookContext, existing: ResourceRow): Promise<void> | void;
  /**
   * After the row is deleted, in the same transaction: what another table keeps of the records
   * that are left (a count that changed). A throw undoes the delete.
   */
  afterDelete?(context: HookContext, existing: ResourceRow): Promise<void> | void;
  /**
   * After the row is written, in the same transaction: write what the feature keeps in other
   * tables (a product's variants and recipe) from the input's `writtenByFeature` fields. On
   * update `existing` is the row as it was; `written` is what beforeWrite returned. A throw
   * undoes the whole write.
   */
  afterWrite?(
    context: HookContext,
    id: string,
    input: Record<string, unknown>,
    written: W | undefined,
    existing?: ResourceRow,
  ): Promise<void> | void;
  /**
   * The fields a single record's answer (get, create, update) has beyond its row: a product's
   * variants and recipe, too big for every row of a list. By id; `written` holds the states of the
   * records this request has just written (their answer may be made from them, not read back).
   */
  details?(
    context: HookContext,
    ids: readonly string[],
    written: ReadonlyMap<string, W>,
  ): Promise<Map<string, Record<string, unknown>>> | Map<string, Record<string, unknown>>;
  /**
   * Who uses the record (a value's variants' products): a delete of a used record is refused
   * with RECORD_IN_USE naming the count and the first five, instead of the database's bare
   * refusal. Names are picked in the caller's language.
   */
  usedBy?(context: HookContext, existing: ResourceRow): Promise<RecordUsers> | RecordUsers;
  /**
   * The changes of a write beyond its row's columns, for its audit row (a product's variants by
   * key, its recipe's lines), from what beforeWrite returned; null or empty when there are none.
   */
  auditChanges?(written: W | undefined): AuditChanges | null | undefined;
}

/**
 * A record read from its table joined to others (a member is a membership, its account and its
 * role): the joined tables' values are `computed` fields, sorted and searched like the table's own.
 */
export interface ResourceSource {
  /** The record's id, when the table has no `id` of its own (a member is their account's id). */
  id: AnyPgColumn;
  /** The other tables, joined to a select from the resource's table. */
  join(query: PgSelect): PgSelect;
}

/** What uses a record: how many, and the names of the first five. */
export interface RecordUsers {
  count: number;
  names: { locale: string; value: string }[][];
}

/**
 * A searched list's patterns as its statement's parameters: `pattern`, the `LIKE` pattern of the
 * folded words in their order (`%w1%w2%`), and `within`, the regular expression holding them in
 * one field (null for one word). A text matches the search where
 * `text like pattern and (within is null or text ~ within)`.
 */
export interface SearchPatterns {
  pattern: SQL;
  within: SQL;
}

/**
 * What a feature adds to a resource the engine cannot derive from its declaration and table.
 * A simple resource has none: its table is `db/schema`'s export named after its key.
 */
export interface ResourceCustomization<W = unknown> {
  key: string;
  /** The table, when it is not named after the key (roles back `authorityRoles`). */
  table?: ResourceTable;
  /**
   * Record fields computed in SQL (a count of related rows) or read from a joined table's column
   * (`source`): selected, sortable, searchable and filtered like the table's own.
   */
  computed?: Record<string, SQL | AnyPgColumn>;
  /** Tables joined to the resource's own for its reads (lists and single records). */
  source?: ResourceSource;
  /** The column a searched field is found in, when it is not the field's own (phones as one text). */
  searchedAs?: Record<string, AnyPgColumn>;
  /**
   * Record fields saying what a search found the record by (the variant of a product whose SKU or
   * barcode matched): computed in a searched list's one statement for its page's rows, from the
   * search's patterns (`SearchPatterns`); null in every other read (a list without a search, an
   * export, a single record).
   */
  foundBySearch?: Record<string, (search: SearchPatterns) => SQL>;
  /**
   * The condition of a filter that is not `column = any(values)`: a tag among an array of tags,
   * a category with its sub-categories. Given the chosen ids (a text[] parameter) and the
   * workspace's id (a parameter).
   */
  filteredAs?: Record<string, (ids: SQL, workspaceId: SQL) => SQL>;
  /**
   * Input and record fields the feature stores itself (`hooks.afterWrite`, `hooks.details`)
   * rather than in the table's columns: a product's variants and recipe, a new variation type's
   * values (whose record field of the same name is `computed`).
   */
  writtenByFeature?: readonly string[];
  /**
   * Row values derived from the input, beside the mapped ones (phones as one text), or from the
   * write's state (a product's variant count and price range).
   */
  derivedValues?(input: Record<string, unknown>, written: W | undefined): Record<string, unknown>;
  hooks?: ResourceHooks<W>;
  /** The fields an export writes, when they are not the list's declared columns. */
  exportFields?: readonly ExportField[];
  /**
   * An export's rows beyond one per record (a product's row per variant) and their columns
   * (`ExportExpansion`).
   */
  exportExpansion?(context: ExportContext): Promise<ExportExpansion>;
  /**
   * An import's rows beyond one per record (a product's row per variant) and their columns
   * (`ImportExpansion`): the export's expansion read back.
   */
  importExpansion?(context: ImportContext): Promise<ImportExpansion>;
  /**
   * The verbs the feature serves with its own routes (a member is invited, not created, and
   * changed under the admin rules of the users feature); the engine serves the others.
   */
  featureVerbs?: readonly ResourceVerb[];
}

/**
 * A customization whose hooks share a typed write state `W`, as the engine holds every
 * customization (the engine passes each write's state back to the hooks that made it).
 */
export function customize<W>(customization: ResourceCustomization<W>): ResourceCustomization {
  return customization as ResourceCustomization;
}

/**
 * How a declared resource is stored, derived from its table: a field is the column of the same
 * name, a localized text (a `name`, a tax's `title`) its `<field>En` and `<field>Ar` columns,
 * `searchText` the search column; the
 * references are the table's foreign keys to other workspace tables and the unique fields its
 * `<table>__<field>__unique` indexes. Anything the declaration needs and the table lacks is an
 * error when the server starts, naming the resource and the field.
 */
export interface ResourceStorage {
  definition: ResourceDefinition;
  table: ResourceTable;
  /** The record's id: the table's `id`, or the source's. */
  idColumn: AnyPgColumn;
  /** A select from the table with the source's joins (the table alone without a source). */
  joined<Q extends PgSelect>(query: Q): Q;
  /** The table's columns by field name. */
  columns: Record<string, AnyPgColumn>;
  /** What a read selects: the record's columns and computed values (never the search column). */
  selection: Record<string, AnyPgColumn | SQL>;
  /** What a searched list's page selects beyond `selection`: the fields a search computes (`foundBySearch`). */
  searchedSelection(search: SearchPatterns): Record<string, SQL>;
  /** The column or expression a filter on this field compares. */
  filterColumn(field: string): AnyPgColumn | SQL;
  /** The ORDER BY term of `sort` (`field` or `-field`) for a reader of `locale`. */
  sortTerms(sort: string, locale: ReaderLocale): SQL[];
  /**
   * What `sortTerms` orders by: the expression (collated where it is a text), its direction and
   * whether it can be empty (empty values sort last either way). An export pages by it (keyset).
   */
  sortKey(sort: string, locale: ReaderLocale): { expression: SQL; descending: boolean; notNull: boolean };
  searchColumn: AnyPgColumn | undefined;
  /** The SQL columns a search of the field looks in. */
  searchedColumns(field: string): string[];
  /** Input fields naming another record of the workspace → that record's table. */
  references: Record<string, ResourceTable>;
  /** Input fields unique per workspace (checked across a bulk's rows). */
  uniqueFields: readonly string[];
  /** The filter's condition where the customization gives one (else `column = any(ids)`). */
  filterCondition(field: string, ids: SQL, workspaceId: SQL): SQL | undefined;
  toRow(input: Record<string, unknown>, written?: unknown): Record<string, unknown>;
  toRecord(row: ResourceRow): Record<string, unknown>;
}

/** The languages a reader may sort names in: the contract's (`Locale`). */
export type ReaderLocale = Locale;

const dialect = new PgDialect();

/**
 * Whether the table has what the engine reads and writes: a workspace, an id (unless a source
 * gives it) and — where the engine writes — the timestamps it stamps. A table read only (an
 * append-only log with its own time column) needs no timestamps.
 */
function isResourceTable(value: unknown, keyed = true, written = true): value is ResourceTable {
  if (typeof value !== 'object' || value === null) return false;
  try {
    const columns = getTableColumns(value as PgTable);
    return [...(keyed ? ['id'] : []), 'workspaceId', ...(written ? ['createdAt', 'updatedAt'] : [])].every(
      (name) => name in columns,
    );
  } catch {
    return false;
  }
}

/** Whether the engine serves a write of the resource (create, bulk or update), not a feature. */
function engineWrites(definition: ResourceDefinition, customization?: ResourceCustomization): boolean {
  return (['create', 'bulk', 'update', 'delete'] as const).some(
    (verb) => definition.verbs.includes(verb) && !customization?.featureVerbs?.includes(verb),
  );
}

/** The resource's table: the customization's, else `db/schema`'s export named after the key. */
export function resourceTableOf(
  definition: ResourceDefinition,
  schema: Record<string, unknown>,
  customization?: ResourceCustomization,
): ResourceTable {
  const table = customization?.table ?? schema[definition.key];
  // A record from a source has the source's id; its table needs none of its own. A resource the
  // engine never writes (its verbs are reads) needs no timestamps.
  const written = engineWrites(definition, customization);
  if (!isResourceTable(table, !customization?.source, written)) {
    throw new Error(
      `Resource ${definition.key}: no table. Export a Drizzle table named ${definition.key} (with id, workspaceId${written ? ', createdAt, updatedAt' : ''}) from apps/server/src/db/schema, or register a customization naming its table.`,
    );
  }
  return table;
}

const isTextColumn = (column: Column) => column.columnType === 'PgText' || column.columnType === 'PgVarchar';

/** `<expression> asc|desc`, empty values last either way. */
export function ordered(expression: SQL | AnyPgColumn, descending: boolean, notNull: boolean): SQL {
  // A column that cannot be empty needs no NULLS clause, and without one a descending sort is
  // the index read backwards; 'nulls last' on a descending sort would need an index of its own.
  if (notNull) return descending ? sql`${expression} desc` : sql`${expression} asc`;
  return descending ? sql`${expression} desc nulls last` : sql`${expression} asc nulls last`;
}

/** Binds a declared resource to its table; throws, naming the field, where they disagree. */
export function bindStorage(
  definition: ResourceDefinition,
  table: ResourceTable,
  customization: ResourceCustomization = { key: definition.key },
): ResourceStorage {
  const fail = (message: string): never => {
    throw new Error(`Resource ${definition.key}: ${message}`);
  };
  const columns = getTableColumns(table) as Record<string, AnyPgColumn>;
  const config = getTableConfig(table);
  const computed = customization.computed ?? {};
  const recordFields = Object.keys(definition.schemas.record.shape);
  // A record field stored in `<field>En` and `<field>Ar` (no column of its own): a localized text.
  const localizedColumns = new Map<string, { en: AnyPgColumn; ar: AnyPgColumn }>();
  for (const field of recordFields) {
    const [en, ar] = [columns[`${field}En`], columns[`${field}Ar`]];
    if (!columns[field] && en && ar) localizedColumns.set(field, { en, ar });
  }
  const searchColumn = columns.searchText;
  const keyOfName = new Map(Object.entries(columns).map(([key, column]) => [column.name, key]));

  const featureFields = new Set(customization.writtenByFeature ?? []);
  const foundBySearch = customization.foundBySearch ?? {};
  for (const field of recordFields) {
    if (featureFields.has(field) || field === 'id' || field in foundBySearch) continue;
    if (!(field in columns) && !(field in computed) && !localizedColumns.has(field)) {
      fail(`record field ${field} has no column ${field} in table ${config.name} and is not computed`);
    }
  }
  // The input is the engine's to store only where it serves a write (a member is invited by
  // the users feature, never created by the engine).
  const storesInput = (['create', 'bulk', 'update'] as const).some(
    (verb) => definition.verbs.includes(verb) && !customization.featureVerbs?.includes(verb),
  );
  for (const field of storesInput ? Object.keys(definition.schemas.create.shape) : []) {
    if (featureFields.has(field)) continue;
    if (!(field in columns) && !localizedColumns.has(field)) {
      fail(`input field ${field} has no column ${field} in table ${config.name}`);
    }
  }

  const fieldExpression = (field: string): AnyPgColumn | SQL => {
    if (field in computed) return computed[field]!;
    const localized = localizedColumns.get(field);
    if (localized) return localized.en;
    return columns[field] ?? fail(`field ${field} has no column in table ${config.name}`);
  };
  for (const filter of definition.filters) fieldExpression(filter.field);
  for (const field of definition.sort) fieldExpression(field);

  function sortKey(sort: string, locale: ReaderLocale) {
    const descending = sort.startsWith('-');
    const field = descending ? sort.slice(1) : sort;
    if (!definition.sort.includes(field)) throw new Error(`No sort field ${sort}`);
    const localized = localizedColumns.get(field);
    if (localized) {
      // A reader sorts names (and titles) in their language, a record named only in the other by
      // that name. The expressions of the localized indexes (`localizedTextIndexes`), so an
      // ordered page reads one; never null (the `<table>_<field>_present` check), so no NULLS clause.
      const [first, second] = locale === 'ar' ? [localized.ar, localized.en] : [localized.en, localized.ar];
      const text = sql`coalesce(${first}, ${second}) collate ${sql.identifier(sortCollation)}`;
      return { expression: text, descending, notNull: true };
    }
    const expression = fieldExpression(field);
    if (!is(expression, Column)) return { expression: sql`${expression}`, descending, notNull: false };
    const column = expression as AnyPgColumn;
    const term = isTextColumn(column)
      ? sql`${column} collate ${sql.identifier(sortCollation)}`
      : sql`${column}`;
    return { expression: term, descending, notNull: column.notNull };
  }

  function sortTerms(sort: string, locale: ReaderLocale): SQL[] {
    const { expression, descending, notNull } = sortKey(sort, locale);
    return [ordered(expression, descending, notNull)];
  }

  function searchedColumns(field: string): string[] {
    const source = customization.searchedAs?.[field];
    if (source) return [source.name];
    const localized = localizedColumns.get(field);
    if (localized) return [localized.en.name, localized.ar.name];
    const expression = fieldExpression(field);
    return is(expression, Column) ? [expression.name] : [];
  }
  if (searchColumn) {
    // The search column must hold exactly the declared search fields: one left out is never
    // found, one too many finds records by a text the list does not show.
    const generated = (searchColumn as unknown as { generated?: { as?: unknown } }).generated?.as;
    if (!is(generated, SQL)) fail(`searchText must be a generated column`);
    const text = dialect.sqlToQuery(generated as SQL).sql;
    const inExpression = Object.values(columns)
      .filter((column) => column !== searchColumn && new RegExp(`\\b${column.name}\\b`).test(text))
      .map((column) => column.name)
      .sort();
    const declared = [...new Set(definition.search.flatMap(searchedColumns))].sort();
    if (inExpression.join() !== declared.join()) {
      fail(
        `search_text holds ${inExpression.join(', ')} but the declared search fields are stored in ${declared.join(', ')}`,
      );
    }
  } else {
    for (const field of definition.search) {
      // A computed text (a member's shown name) is searched as it is computed.
      const expression = fieldExpression(field);
      if (is(expression, Column) && !isTextColumn(expression))
        fail(`search field ${field} is not a text column (add a searchText column)`);
    }
  }

  const references: Record<string, ResourceTable> = {};
  for (const foreignKey of config.foreignKeys) {
    // A reference inside the workspace is (workspace_id, column) → (workspace_id, id): its field
    // is the column that points at the record's id.
    const { columns: local, foreignColumns, foreignTable } = foreignKey.reference();
    const pointing = local[foreignColumns.findIndex((column) => column.name === 'id')];
    const field = pointing && keyOfName.get(pointing.name);
    if (!field || field === 'workspaceId' || !isResourceTable(foreignTable)) continue;
    references[field] = foreignTable;
  }

  // `<table>__<field>__unique`: the name the error handler reads a unique violation's field from.
  const uniqueFields = config.indexes
    .map((index) => index.config.name?.match(/__([a-z0-9_]+?)__unique$/)?.[1])
    .filter((name): name is string => name !== undefined)
    .map((name) => name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase()))
    .filter((field) => field in columns);

  // Only what a record shows: a column kept for search alone (a product's variant codes, up to
  // 40 KB at 2,048 variants) is not read with every listed row.
  const localizedColumnKeys = new Set(
    [...localizedColumns.keys()].flatMap((field) => [`${field}En`, `${field}Ar`]),
  );
  const recordColumns = Object.fromEntries(
    Object.entries(columns).filter(
      ([key]) => key === 'id' || recordFields.includes(key) || localizedColumnKeys.has(key),
    ),
  );
  const idColumn = customization.source?.id ?? table.id;
  const selection: Record<string, AnyPgColumn | SQL> = {
    ...recordColumns,
    id: idColumn,
    ...computed,
    ...Object.fromEntries(Object.keys(foundBySearch).map((field) => [field, sql`null`])),
  };
  const searchedSelection = (search: SearchPatterns) =>
    Object.fromEntries(Object.entries(foundBySearch).map(([field, found]) => [field, found(search)]));

  function toRow(input: Record<string, unknown>, written?: unknown): Record<string, unknown> {
    const row: Record<string, unknown> = {};
    for (const [field, value] of Object.entries(input)) {
      if (featureFields.has(field)) continue;
      if (localizedColumns.has(field)) {
        // The list is the whole text: a language it leaves out is cleared, on update too.
        const texts = value as { locale: string; value: string }[];
        row[`${field}En`] = texts.find((entry) => entry.locale === 'en')?.value ?? null;
        row[`${field}Ar`] = texts.find((entry) => entry.locale === 'ar')?.value ?? null;
      } else row[field] = value;
    }
    return { ...row, ...customization.derivedValues?.(input, written) };
  }

  function toRecord(row: ResourceRow): Record<string, unknown> {
    const record: Record<string, unknown> = {};
    for (const field of recordFields) {
      // A feature's input field may share its name with a computed one of the record (a type
      // is created with `values`, and its record lists them): the computed value is read.
      if (featureFields.has(field) && !(field in computed)) continue;
      if (localizedColumns.has(field)) {
        const [en, ar] = [row[`${field}En`], row[`${field}Ar`]];
        record[field] = [
          ...(en ? [{ locale: 'en', value: en }] : []),
          ...(ar ? [{ locale: 'ar', value: ar }] : []),
        ];
        continue;
      }
      const value = row[field];
      record[field] = value instanceof Date ? value.toISOString() : value;
    }
    return record;
  }

  return {
    definition,
    table,
    idColumn,
    joined: <Q extends PgSelect>(query: Q) => (customization.source?.join(query) as Q | undefined) ?? query,
    columns,
    selection,
    searchedSelection,
    filterColumn: fieldExpression,
    sortTerms,
    sortKey,
    searchColumn,
    searchedColumns,
    references,
    uniqueFields,
    filterCondition: (field, ids, workspaceId) => customization.filteredAs?.[field]?.(ids, workspaceId),
    toRow,
    toRecord,
  };
}
