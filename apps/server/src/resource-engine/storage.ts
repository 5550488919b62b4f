import type { ResourceDefinition, WorkspaceGrant } from '@dukkan/contract';
import { type Column, getTableColumns, is, SQL, sql } from 'drizzle-orm';
import { type AnyPgColumn, getTableConfig, PgDialect, type PgTable } from 'drizzle-orm/pg-core';
import type { Database } from '../db/client.ts';
import { sortCollation } from '../db/schema/sorting.ts';

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
}

/** The system acting in a workspace with an admin's rights: the first start's demo data, the operator's command line. */
export function systemCaller(workspaceId: string): ResourceCaller {
  return { workspaceId, userId: null, grant: { isAdmin: true, tags: new Set() } };
}

/** What a hook is handed: the caller, and the transaction of the write it runs in. */
export interface HookContext extends ResourceCaller {
  db: Database;
}

/** Rules a resource has beyond its declaration, registered by the feature that owns them. */
export interface ResourceHooks {
  /**
   * Before create and update (after validation, inside the write's transaction): refuse or
   * adjust the input. On update `existing` is the stored row, already known to belong to the
   * caller's workspace, and `input` holds only the fields the request names.
   */
  beforeWrite?(
    context: HookContext,
    input: Record<string, unknown>,
    existing?: ResourceRow,
  ): Promise<void> | void;
  /** Before delete, in its transaction, with the row known to be the workspace's: refuse a delete the data still depends on. */
  beforeDelete?(context: HookContext, existing: ResourceRow): Promise<void> | void;
}

/**
 * What a feature adds to a resource the engine cannot derive from its declaration and table.
 * A simple resource has none: its table is `db/schema`'s export named after its key.
 */
export interface ResourceCustomization {
  key: string;
  /** The table, when it is not named after the key (roles back `authorityRoles`). */
  table?: ResourceTable;
  /** Record fields computed in SQL (a count of related rows): selected, and sortable. */
  computed?: Record<string, SQL>;
  /** The column a searched field is found in, when it is not the field's own (phones as one text). */
  searchedAs?: Record<string, AnyPgColumn>;
  /** Row values derived from the input, beside the mapped ones (phones as one text). */
  derivedValues?(input: Record<string, unknown>): Record<string, unknown>;
  hooks?: ResourceHooks;
  /** The feature serves the resource with its own routes (the members of a workspace); the engine registers none. */
  servedByFeature?: boolean;
}

/**
 * How a declared resource is stored, derived from its table: a field is the column of the same
 * name, a localized `name` its `nameEn` and `nameAr` columns, `searchText` the search column; the
 * references are the table's foreign keys to other workspace tables and the unique fields its
 * `<table>__<field>__unique` indexes. Anything the declaration needs and the table lacks is an
 * error when the server starts, naming the resource and the field.
 */
export interface ResourceStorage {
  definition: ResourceDefinition;
  table: ResourceTable;
  /** The table's columns by field name. */
  columns: Record<string, AnyPgColumn>;
  /** What a read selects: the record's columns and computed values (never the search column). */
  selection: Record<string, AnyPgColumn | SQL>;
  /** The column or expression a filter on this field compares. */
  filterColumn(field: string): AnyPgColumn | SQL;
  /** The ORDER BY term of `sort` (`field` or `-field`) for a reader of `locale`. */
  sortTerms(sort: string, locale: ReaderLocale): SQL[];
  searchColumn: AnyPgColumn | undefined;
  /** The SQL columns a search of the field looks in. */
  searchedColumns(field: string): string[];
  /** Input fields naming another record of the workspace → that record's table. */
  references: Record<string, ResourceTable>;
  /** Input fields unique per workspace (checked across a bulk's rows). */
  uniqueFields: readonly string[];
  toRow(input: Record<string, unknown>): Record<string, unknown>;
  toRecord(row: ResourceRow): Record<string, unknown>;
}

/** The languages a reader may sort names in. */
export type ReaderLocale = 'en' | 'ar';

const dialect = new PgDialect();

function isResourceTable(value: unknown): value is ResourceTable {
  if (typeof value !== 'object' || value === null) return false;
  try {
    const columns = getTableColumns(value as PgTable);
    return ['id', 'workspaceId', 'createdAt', 'updatedAt'].every((name) => name in columns);
  } catch {
    return false;
  }
}

/** The resource's table: the customization's, else `db/schema`'s export named after the key. */
export function resourceTableOf(
  definition: ResourceDefinition,
  schema: Record<string, unknown>,
  customization?: ResourceCustomization,
): ResourceTable {
  const table = customization?.table ?? schema[definition.key];
  if (!isResourceTable(table)) {
    throw new Error(
      `Resource ${definition.key}: no table. Export a Drizzle table named ${definition.key} (with id, workspaceId, createdAt, updatedAt) from apps/server/src/db/schema, or register a customization naming its table.`,
    );
  }
  return table;
}

const isTextColumn = (column: Column) => column.columnType === 'PgText' || column.columnType === 'PgVarchar';

/** `<expression> asc|desc`, empty values last either way. */
function ordered(expression: SQL | AnyPgColumn, descending: boolean, notNull: boolean): SQL {
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
  const localized = recordFields.includes('name') && !columns.name && !!columns.nameEn && !!columns.nameAr;
  const searchColumn = columns.searchText;
  const keyOf = new Map(Object.entries(columns).map(([key, column]) => [column, key]));

  for (const field of recordFields) {
    if (!(field in columns) && !(field in computed) && !(field === 'name' && localized)) {
      fail(`record field ${field} has no column ${field} in table ${config.name} and is not computed`);
    }
  }
  for (const field of Object.keys(definition.schemas.create.shape)) {
    if (!(field in columns) && !(field === 'name' && localized)) {
      fail(`input field ${field} has no column ${field} in table ${config.name}`);
    }
  }

  const fieldExpression = (field: string): AnyPgColumn | SQL => {
    if (field in computed) return computed[field]!;
    if (field === 'name' && localized) return columns.nameEn!;
    return columns[field] ?? fail(`field ${field} has no column in table ${config.name}`);
  };
  for (const filter of definition.filters) fieldExpression(filter.field);
  for (const field of definition.sort) fieldExpression(field);

  function sortTerms(sort: string, locale: ReaderLocale): SQL[] {
    const descending = sort.startsWith('-');
    const field = descending ? sort.slice(1) : sort;
    if (!definition.sort.includes(field)) throw new Error(`No sort field ${sort}`);
    if (field === 'name' && localized) {
      // A reader sorts names in their language; an Arabic reader falls back to the English name.
      const name =
        locale === 'ar'
          ? sql`coalesce(${columns.nameAr}, ${columns.nameEn}) collate ${sql.identifier(sortCollation)}`
          : sql`${columns.nameEn} collate ${sql.identifier(sortCollation)}`;
      return [ordered(name, descending, true)];
    }
    const expression = fieldExpression(field);
    if (is(expression, SQL)) return [ordered(expression, descending, false)];
    const column = expression as AnyPgColumn;
    const term = isTextColumn(column) ? sql`${column} collate ${sql.identifier(sortCollation)}` : column;
    return [ordered(term, descending, column.notNull)];
  }

  function searchedColumns(field: string): string[] {
    const source = customization.searchedAs?.[field];
    if (source) return [source.name];
    if (field === 'name' && localized) return [columns.nameEn!.name, columns.nameAr!.name];
    const column = columns[field] ?? fail(`search field ${field} has no column`);
    return [column.name];
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
      if (!isTextColumn(fieldExpression(field) as AnyPgColumn))
        fail(`search field ${field} is not a text column (add a searchText column)`);
    }
  }

  const references: Record<string, ResourceTable> = {};
  for (const foreignKey of config.foreignKeys) {
    const { columns: local, foreignTable } = foreignKey.reference();
    const field = keyOf.get(local[0] as AnyPgColumn);
    if (!field || field === 'workspaceId' || !isResourceTable(foreignTable)) continue;
    references[field] = foreignTable;
  }

  // `<table>__<field>__unique`: the name the error handler reads a unique violation's field from.
  const uniqueFields = config.indexes
    .map((index) => index.config.name?.match(/__([a-z0-9_]+?)__unique$/)?.[1])
    .filter((name): name is string => name !== undefined)
    .map((name) => name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase()))
    .filter((field) => field in columns);

  const recordColumns = Object.fromEntries(
    Object.entries(columns).filter(([key]) => key !== 'searchText' && key !== 'workspaceId'),
  );
  const selection: Record<string, AnyPgColumn | SQL> = { ...recordColumns, ...computed };

  function toRow(input: Record<string, unknown>): Record<string, unknown> {
    const row: Record<string, unknown> = {};
    for (const [field, value] of Object.entries(input)) {
      if (field === 'name' && localized) {
        const names = value as { locale: string; value: string }[];
        row.nameEn = names.find((entry) => entry.locale === 'en')?.value;
        row.nameAr = names.find((entry) => entry.locale === 'ar')?.value ?? null;
      } else row[field] = value;
    }
    return { ...row, ...customization.derivedValues?.(input) };
  }

  function toRecord(row: ResourceRow): Record<string, unknown> {
    const record: Record<string, unknown> = {};
    for (const field of recordFields) {
      if (field === 'name' && localized) {
        record.name = [
          { locale: 'en', value: row.nameEn },
          ...(row.nameAr ? [{ locale: 'ar', value: row.nameAr }] : []),
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
    columns,
    selection,
    filterColumn: fieldExpression,
    sortTerms,
    searchColumn,
    searchedColumns,
    references,
    uniqueFields,
    toRow,
    toRecord,
  };
}
