import { recordStatuses } from '@dukkan/contract';
import { sql } from 'drizzle-orm';
import {
  check,
  date,
  type ExtraConfigColumn,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { workspaces } from './identity.ts';
import { collated, localizedTextIndexes, sortIndex } from './sorting.ts';
import { recordId, workspaceKey, workspaceReference } from './workspace-keys.ts';

/*
 * The catalogue: simple workspace records served by the resource engine. Every table has id,
 * workspace_id, created_at and updated_at; `code` is unique per workspace through an index named
 * `<table>__code__unique` (the error handler answers 'This code must be unique' from that name).
 *
 * Lists search `search_text`, a folded text (`searchText` below) Postgres keeps from the record's
 * code, names in both languages and other searched fields, under a trigram GIN index: `ILIKE '%term%'` stays
 * fast at 100k rows per workspace. Sortable fields have (workspace_id, column) indexes, texts in
 * the collation lists sort by (`sorting.ts`); a localized name has one per reading language.
 *
 * A localized text is two columns, `<field>_en` and `<field>_ar`, at least one of them set
 * (`localizedTextPresent`): a name (`localizedName`), a tax's title, a category's description.
 */

export const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
export const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

export const base = () => ({
  id: recordId(),
  workspaceId: uuid('workspace_id')
    .notNull()
    .references(() => workspaces.id, { onDelete: 'cascade' }),
  code: text('code').notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});
export const status = () => text('status', { enum: recordStatuses }).notNull().default('active');
/**
 * A name in English and in Arabic, at least one of them (`catalogueIndexes` adds the check): the
 * contract's `[{ locale, value }]`.
 */
export const localizedName = () => ({ nameEn: text('name_en'), nameAr: text('name_ar') });

/** The check that a localized text has a value in English or in Arabic: `<table>_<field>_present`. */
export const localizedTextPresent = (
  table: string,
  field: string,
  columns: { en: ExtraConfigColumn; ar: ExtraConfigColumn },
) => check(`${table}_${field}_present`, sql`${columns.en} is not null or ${columns.ar} is not null`);

/**
 * `search_text` from the given columns (by SQL name), maintained by Postgres: folded by
 * `search_fold`, the SQL mirror of the contract's `normalizeSearchText` (migration 0022), as the
 * list folds the typed term. The columns are parted by U+001F (`searchTextSeparator`), which no
 * typed word holds: a search ranks a record whose field is the typed text, or starts with it,
 * before one that merely contains it.
 */
export const searchText = (...columns: string[]) =>
  text('search_text')
    .notNull()
    .generatedAlwaysAs(
      sql.raw(`search_fold(${columns.map((column) => `coalesce(${column}, '')`).join(` || chr(31) || `)})`),
    );

/** What parts the fields of `search_text` (`chr(31)`, the unit separator). */
export const searchTextSeparator = '\u001f';

/**
 * Each workspace's distinct folded words per searched table (`list`, the table's name), under a
 * trigram index: a misspelt search word is first compared with these words, few and short, then
 * the records holding the similar ones are found by the search index (decision 0050). A trigger
 * on every table with `search_text` adds a written record's words, one statement per write
 * (migration 0028, `search_words_add`); words of deleted or edited records stay — a word no record
 * holds any longer finds no record. A word is a stretch of `search_text` between spaces, the field
 * separator, ASCII digits and ASCII punctuation (`search_words_of`): codes and barcodes add none.
 */
export const listWords = pgTable(
  'search_words',
  {
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    list: text('list').notNull(),
    word: text('word').notNull(),
  },
  (table) => [
    primaryKey({ name: 'search_words_pkey', columns: [table.workspaceId, table.list, table.word] }),
    index('search_words_word_idx').using('gin', table.word.op('gin_trgm_ops')).with({ fastupdate: false }),
  ],
);

interface CatalogueColumns {
  id: ExtraConfigColumn;
  workspaceId: ExtraConfigColumn;
  code: ExtraConfigColumn;
  createdAt: ExtraConfigColumn;
  searchText?: ExtraConfigColumn;
  nameEn?: ExtraConfigColumn;
  nameAr?: ExtraConfigColumn;
}
/**
 * The key and indexes every catalogue table has: `(workspace_id, id)`, unique code (which also
 * serves its sort), search, the sorts.
 */
export function catalogueIndexes(name: string, table: CatalogueColumns, sorts: ExtraConfigColumn[] = []) {
  return [
    workspaceKey(name, table.workspaceId, table.id),
    // Equal under ICU's deterministic collation means equal bytes: uniqueness is unchanged.
    uniqueIndex(`${name}__code__unique`).on(table.workspaceId, collated(table.code)),
    index(`${name}_created_idx`).on(table.workspaceId, table.createdAt),
    ...(table.searchText
      ? [
          // fastupdate off: a search never scans a pending list left by bulk inserts (with it on,
          // 100k inserted rows made the index look, and be, 25 times dearer until a vacuum).
          index(`${name}_search_idx`)
            .using('gin', table.searchText.op('gin_trgm_ops'))
            .with({ fastupdate: false }),
        ]
      : []),
    ...(table.nameEn && table.nameAr
      ? [
          ...localizedTextIndexes(name, 'name', {
            workspaceId: table.workspaceId,
            en: table.nameEn,
            ar: table.nameAr,
          }),
          localizedTextPresent(name, 'name', { en: table.nameEn, ar: table.nameAr }),
        ]
      : []),
    ...sorts.map((column) => sortIndex(name, table.workspaceId, column)),
  ];
}

/**
 * The last number each resource's code sequence reached in a workspace (`BR-0007` → 7, the codes
 * it skipped as taken included): the engine reads and advances it under this row's lock, in the
 * transaction that writes the records it assigns codes to (`resource-engine/code-sequence.ts`).
 */
export const codeCounters = pgTable(
  'code_counters',
  {
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    /** The resource's key (`brands`). */
    resource: text('resource').notNull(),
    lastNumber: integer('last_number').notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.workspaceId, table.resource] })],
);

export const brands = pgTable(
  'brands',
  {
    ...base(),
    ...localizedName(),
    logo: text('logo'),
    creationDate: date('creation_date', { mode: 'string' }),
    currencies: text('currencies').array().notNull().default(sql`'{}'::text[]`),
    status: status(),
    searchText: searchText('code', 'name_en', 'name_ar'),
  },
  (table) => catalogueIndexes('brands', table, [table.creationDate]),
);

export const locations = pgTable(
  'locations',
  {
    ...base(),
    ...localizedName(),
    brandId: uuid('brand_id').notNull(),
    openingDate: date('opening_date', { mode: 'string' }),
    workingHours: jsonb('working_hours').notNull().default([]),
    address: text('address').notNull().default(''),
    phones: jsonb('phones').notNull().default([]),
    status: status(),
    searchText: searchText('code', 'name_en', 'name_ar', 'address'),
  },
  (table) => [
    ...catalogueIndexes('locations', table, [table.openingDate]),
    workspaceReference('locations', { workspaceId: table.workspaceId, column: table.brandId }, brands),
    index('locations_brand_idx').on(table.brandId),
  ],
);

export const taxes = pgTable(
  'taxes',
  {
    ...base(),
    titleEn: text('title_en'),
    titleAr: text('title_ar'),
    country: text('country').notNull(),
    rate: numeric('rate', { precision: 7, scale: 4, mode: 'number' }).notNull(),
    status: status(),
    searchText: searchText('code', 'title_en', 'title_ar', 'country'),
  },
  (table) => [
    ...catalogueIndexes('taxes', table, [table.country, table.rate]),
    ...localizedTextIndexes('taxes', 'title', {
      workspaceId: table.workspaceId,
      en: table.titleEn,
      ar: table.titleAr,
    }),
    localizedTextPresent('taxes', 'title', { en: table.titleEn, ar: table.titleAr }),
    check('taxes_rate_range', sql`${table.rate} >= 0 and ${table.rate} <= 100`),
  ],
);

export const measurementUnits = pgTable(
  'measurement_units',
  {
    ...base(),
    ...localizedName(),
    symbol: text('symbol').notNull(),
    status: status(),
    searchText: searchText('code', 'name_en', 'name_ar', 'symbol'),
  },
  (table) => catalogueIndexes('measurement_units', table, [table.symbol]),
);

const categoryColumns = () => ({
  ...base(),
  ...localizedName(),
  descriptionEn: text('description_en'),
  descriptionAr: text('description_ar'),
  status: status(),
  searchText: searchText('code', 'name_en', 'name_ar', 'description_en', 'description_ar'),
});

export const categories = pgTable(
  'categories',
  {
    ...categoryColumns(),
    parentId: uuid('parent_id'),
  },
  (table) => [
    ...catalogueIndexes('categories', table),
    workspaceReference('categories', { workspaceId: table.workspaceId, column: table.parentId }, table),
    localizedTextPresent('categories', 'description', { en: table.descriptionEn, ar: table.descriptionAr }),
    index('categories_parent_idx').on(table.parentId),
  ],
);

export const wasteCategories = pgTable(
  'waste_categories',
  {
    ...categoryColumns(),
    parentId: uuid('parent_id'),
  },
  (table) => [
    ...catalogueIndexes('waste_categories', table),
    workspaceReference('waste_categories', { workspaceId: table.workspaceId, column: table.parentId }, table),
    localizedTextPresent('waste_categories', 'description', {
      en: table.descriptionEn,
      ar: table.descriptionAr,
    }),
    index('waste_categories_parent_idx').on(table.parentId),
  ],
);

export const productTags = pgTable(
  'product_tags',
  {
    ...base(),
    ...localizedName(),
    status: status(),
    searchText: searchText('code', 'name_en', 'name_ar'),
  },
  (table) => catalogueIndexes('product_tags', table),
);

export const customers = pgTable(
  'customers',
  {
    ...base(),
    name: text('name').notNull(),
    phones: text('phones').array().notNull(),
    /** The phones as one text (array_to_string is not immutable, so it cannot feed search_text). */
    phonesText: text('phones_text').notNull().default(''),
    source: text('source').notNull(),
    /** Cleared when the brand is deleted (by the delete: `workspace-keys.ts`). */
    brandId: uuid('brand_id'),
    status: status(),
    searchText: searchText('code', 'name', 'phones_text'),
  },
  (table) => [
    ...catalogueIndexes('customers', table, [table.name, table.source]),
    workspaceReference('customers', { workspaceId: table.workspaceId, column: table.brandId }, brands),
    index('customers_brand_idx').on(table.brandId),
  ],
);

export const exchangeRates = pgTable(
  'exchange_rates',
  {
    id: recordId(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    currency: text('currency').notNull(),
    rate: numeric('rate', { precision: 24, scale: 8, mode: 'number' }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    workspaceKey('exchange_rates', table.workspaceId, table.id),
    uniqueIndex('exchange_rates__currency__unique').on(table.workspaceId, collated(table.currency)),
    index('exchange_rates_rate_idx').on(table.workspaceId, table.rate),
    index('exchange_rates_created_idx').on(table.workspaceId, table.createdAt),
    check('exchange_rates_rate_positive', sql`${table.rate} > 0`),
  ],
);
