import { orderTypes } from '@dukkan/contract';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import {
  base,
  catalogueIndexes,
  categories,
  createdAt,
  localizedName,
  measurementUnits,
  searchText,
  status,
  taxes,
  updatedAt,
  wasteCategories,
} from './catalogue.ts';
import { workspaces } from './identity.ts';
import { collated } from './sorting.ts';
import { recordId, workspaceKey, workspaceReference } from './workspace-keys.ts';

/*
 * Products and what they are made of: variation types and their values, a product's variants
 * (one per combination of its chosen values, spec §9) and its recipe. The types, values and
 * products are resources of the engine; variants and recipe lines are written with their product.
 */

/** A variation type ("Size"): its values are `variationValues` rows. */
export const variationTypes = pgTable(
  'variation_types',
  {
    ...base(),
    ...localizedName(),
    status: status(),
    searchText: searchText('code', 'name_en', 'name_ar'),
  },
  (table) => catalogueIndexes('variation_types', table),
);

/** A value of a type ("Large"), in the type's order (`position`); its name is the value's text. */
export const variationValues = pgTable(
  'variation_values',
  {
    ...base(),
    ...localizedName(),
    typeId: uuid('type_id').notNull(),
    position: integer('position').notNull().default(0),
    status: status(),
    searchText: searchText('code', 'name_en', 'name_ar'),
  },
  (table) => [
    ...catalogueIndexes('variation_values', table, [table.position]),
    workspaceReference(
      'variation_values',
      { workspaceId: table.workspaceId, column: table.typeId },
      variationTypes,
    ).onDelete('cascade'),
    index('variation_values_type_idx').on(table.typeId, table.position),
    // The same text twice in one type is refused by the resource's hook; these keep it so.
    uniqueIndex('variation_values_type_name_en_unique')
      .on(table.workspaceId, table.typeId, sql`lower(${table.nameEn})`)
      .where(sql`${table.nameEn} is not null`),
    uniqueIndex('variation_values_type_name_ar_unique')
      .on(table.workspaceId, table.typeId, sql`lower(${table.nameAr})`)
      .where(sql`${table.nameAr} is not null`),
  ],
);

/**
 * An amount of money: whole minor units of the workspace's base currency (piastres, fils), at
 * most `maxMoneyMinorUnits`, so a JavaScript number holds it exactly.
 */
const money = (name: string) => bigint(name, { mode: 'number' });

/**
 * A product. Its chosen values (`options`: `[{ typeId, valueIds }]` in the product's type order)
 * make its variants; `variantCodes` holds the variants' SKUs and barcodes as one text so the
 * list's search finds a product by them; `variantsCount` is kept with the variants.
 */
export const products = pgTable(
  'products',
  {
    ...base(),
    ...localizedName(),
    measurementUnitId: uuid('measurement_unit_id').notNull(),
    categoryId: uuid('category_id'),
    wasteCategoryId: uuid('waste_category_id'),
    tagIds: uuid('tag_ids').array().notNull().default(sql`'{}'::uuid[]`),
    images: text('images').array().notNull().default(sql`'{}'::text[]`),
    options: jsonb('options').notNull().default([]),
    variantsCount: integer('variants_count').notNull().default(0),
    variantCodes: text('variant_codes').notNull().default(''),
    price: money('price').notNull().default(0),
    cost: money('cost'),
    taxId: uuid('tax_id'),
    pricesIncludeTax: boolean('prices_include_tax').notNull().default(true),
    // Kept with the variants: over the active ones, or the product's own price without any.
    priceMin: money('price_min'),
    priceMax: money('price_max'),
    status: status(),
    searchText: searchText('code', 'name_en', 'name_ar', 'variant_codes'),
  },
  (table) => [
    ...catalogueIndexes('products', table, [table.variantsCount, table.priceMin]),
    workspaceReference(
      'products',
      { workspaceId: table.workspaceId, column: table.measurementUnitId },
      measurementUnits,
    ),
    workspaceReference('products', { workspaceId: table.workspaceId, column: table.categoryId }, categories),
    workspaceReference(
      'products',
      { workspaceId: table.workspaceId, column: table.wasteCategoryId },
      wasteCategories,
    ),
    workspaceReference('products', { workspaceId: table.workspaceId, column: table.taxId }, taxes),
    // The list sorts by the lowest price with products without one last in both directions
    // (`nulls last`): the ascending order reads the sort index, the descending one this.
    index('products_price_min_desc_idx').on(table.workspaceId, table.priceMin.desc().nullsLast()),
    index('products_tax_idx').on(table.taxId),
    check('products_price_not_negative', sql`${table.price} >= 0 and ${table.cost} >= 0`),
    index('products_unit_idx').on(table.workspaceId, table.measurementUnitId),
    index('products_category_idx').on(table.workspaceId, table.categoryId),
    index('products_waste_category_idx').on(table.wasteCategoryId),
    index('products_tags_idx').using('gin', table.tagIds),
  ],
);

/**
 * A variant of a product: one combination of its chosen values, keyed by their ids in type
 * order joined with '-' (spec §9), so renaming a value keeps it. SKU and barcode are unique per
 * workspace among the non-empty ones.
 *
 * No reference of its own to `workspaces`: a variant goes with its product, whose reference
 * (`(workspace_id, product_id)`) already names a workspace that exists. A product's variants
 * are read by `(workspace_id, product_id)` through the key's unique index and put in position
 * order by the reader: no index of `(product_id, position)` beside it. Each saved a save of
 * 2,048 variants about 3 % on PGlite (decision 0053).
 */
export const productVariants = pgTable(
  'product_variants',
  {
    id: recordId(),
    workspaceId: uuid('workspace_id').notNull(),
    productId: uuid('product_id').notNull(),
    key: text('key').notNull(),
    position: integer('position').notNull(),
    sku: text('sku'),
    barcode: text('barcode'),
    price: money('price').notNull().default(0),
    cost: money('cost'),
    images: text('images').array().notNull().default(sql`'{}'::text[]`),
    status: status(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    workspaceKey('product_variants', table.workspaceId, table.id),
    workspaceReference(
      'product_variants',
      { workspaceId: table.workspaceId, column: table.productId },
      products,
    ).onDelete('cascade'),
    check('product_variants_price_not_negative', sql`${table.price} >= 0 and ${table.cost} >= 0`),
    uniqueIndex('product_variants_product_key_unique').on(table.workspaceId, table.productId, table.key),
    uniqueIndex('product_variants__sku__unique')
      .on(table.workspaceId, collated(table.sku))
      .where(sql`${table.sku} is not null`),
    uniqueIndex('product_variants__barcode__unique')
      .on(table.workspaceId, table.barcode)
      .where(sql`${table.barcode} is not null`),
  ],
);

/**
 * The values a variant is made of: a value in use cannot be deleted (the engine's in-use refusal).
 *
 * No reference of its own to `workspaces`: a link goes with its variant (the cascade below), and
 * each link's check of a workspace row cost PGlite's save of 2,048 variants (6,144 links) about a
 * fifth (decision 0048). The reference to the variation value is checked at commit
 * (`DEFERRABLE INITIALLY DEFERRED`, set by migration 0027's hand-written line: drizzle-kit cannot
 * declare it), so a workspace's removal, which reaches the values before it reaches the links
 * through products and variants, finds the links gone when it is checked.
 */
export const productVariantValues = pgTable(
  'product_variant_values',
  {
    workspaceId: uuid('workspace_id').notNull(),
    variantId: uuid('variant_id').notNull(),
    valueId: uuid('value_id').notNull(),
    position: integer('position').notNull(),
  },
  (table) => [
    // One value at each of the variant's type positions (the save writes them from the key, one
    // per type, and a value belongs to one type). Its last column an integer rather than a
    // third uuid: PGlite's save of 2,048 variants writes 6,144 of these keys (decision 0053).
    primaryKey({
      name: 'product_variant_values_pkey',
      columns: [table.workspaceId, table.variantId, table.position],
    }),
    workspaceReference(
      'product_variant_values',
      { workspaceId: table.workspaceId, column: table.variantId },
      productVariants,
    ).onDelete('cascade'),
    workspaceReference(
      'product_variant_values',
      { workspaceId: table.workspaceId, column: table.valueId },
      variationValues,
    ),
    index('product_variant_values_value_idx').on(table.valueId),
  ],
);

/**
 * A line of a product's recipe: a quantity of another product, or of one of its variants, in
 * that product's unit; for the order types and brands listed (all when none are).
 */
export const recipeLines = pgTable(
  'recipe_lines',
  {
    id: recordId(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    productId: uuid('product_id').notNull(),
    position: integer('position').notNull(),
    ingredientProductId: uuid('ingredient_product_id').notNull(),
    ingredientVariantId: uuid('ingredient_variant_id'),
    quantity: numeric('quantity', { precision: 18, scale: 6, mode: 'number' }).notNull(),
    orderTypes: text('order_types', { enum: orderTypes }).array().notNull().default(sql`'{}'::text[]`),
    brandIds: uuid('brand_ids').array().notNull().default(sql`'{}'::uuid[]`),
  },
  (table) => [
    workspaceKey('recipe_lines', table.workspaceId, table.id),
    workspaceReference(
      'recipe_lines',
      { workspaceId: table.workspaceId, column: table.productId },
      products,
    ).onDelete('cascade'),
    workspaceReference(
      'recipe_lines',
      { workspaceId: table.workspaceId, column: table.ingredientProductId },
      products,
    ),
    workspaceReference(
      'recipe_lines',
      { workspaceId: table.workspaceId, column: table.ingredientVariantId },
      productVariants,
    ),
    index('recipe_lines_product_idx').on(table.productId, table.position),
    index('recipe_lines_ingredient_idx').on(table.ingredientProductId),
    index('recipe_lines_ingredient_variant_idx').on(table.ingredientVariantId),
    check('recipe_lines_quantity_positive', sql`${table.quantity} > 0`),
    check('recipe_lines_not_itself', sql`${table.ingredientProductId} <> ${table.productId}`),
  ],
);
