import {
  type LocalizedText,
  type ProductVariantRecord,
  regenerateVariants,
  type StoredVariant,
  type ValidationIssue,
  type VariantEdit,
  type VariantOption,
  validationCodes,
  variantTitle,
} from '@dukkan/contract';
import { and, asc, eq, inArray, isNotNull, ne, type SQL, sql } from 'drizzle-orm';
import { timeOrderedId } from '../../db/ids.ts';
import { productVariants, recipeLines, variationValues } from '../../db/schema/index.ts';
import { sortCollation } from '../../db/schema/sorting.ts';
import { lockUntilCommit } from '../../db/transaction-lock.ts';
import type { HookContext } from '../../resource-engine/storage.ts';
import { localizedText } from './product-inputs.ts';

/*
 * A product's variants: planned from its options and the save's edits before anything is
 * written (every refusal first), then written in a handful of statements whatever their number
 * (a product may have 2,048): arrays bound as single parameters and unnested by the database.
 * 2,048 variants and 6,144 value links, median of 7 on the shared 2-core machine at load 10:
 * Drizzle's multi-row inserts 2,853 ms on PGlite and 2,558 ms on PostgreSQL, unnest 1,662 and
 * 1,316 ms (building and binding 18,000 parameters is the difference); one statement for both
 * tables (a CTE) measured no better. An UPDATE … FROM unnest of 2,048 rows: 309 / 111 ms, against
 * 692 / 229 ms FROM (VALUES …).
 */

/** An array bound as one parameter (Drizzle would otherwise spread it into a list of parameters). */
const arrayParam = (values: readonly unknown[], type: 'uuid' | 'text' | 'int' | 'bigint') =>
  sql`${sql.param(values)}::${sql.raw(type)}[]`;

type VariantStatus = 'active' | 'inactive';

/** What a variant keeps under its key through a regeneration. */
interface VariantData {
  sku: string | null;
  barcode: string | null;
  /** Minor units of the workspace's base currency. */
  price: number;
  cost: number | null;
  images: string[];
  status: VariantStatus;
}

/** A stored variant as the plan needs it. */
/** The `VariantData` of a row that has more. */
const variantDataOf = (row: VariantData): VariantData => ({
  sku: row.sku,
  barcode: row.barcode,
  price: row.price,
  cost: row.cost,
  images: row.images,
  status: row.status,
});

interface StoredRow extends VariantData {
  id: string;
  key: string;
  position: number;
  usedInRecipe: boolean;
}

/** A variant as the product will have it after the save. */
interface PlannedVariant extends VariantData {
  id: string;
  key: string;
  position: number;
  /** The value ids of the combination, in type order (a new variant's value links). */
  valueIds: string[];
  /** Its title, where the save's options give it (the values' names as they are now). */
  title?: LocalizedText;
  /** Not stored yet: inserted. */
  isNew: boolean;
  /** The stored state of a variant that exists; undefined for a new one. */
  stored?: StoredRow;
  /** The edit of this save that names it (`variants.<index>`), and what it sets. */
  edit?: { index: number; fields: Partial<VariantData> };
}

/** Everything a save does to a product's variants, decided before any write. */
export interface VariantPlan {
  /** The product's variants after the save, in position order. */
  variants: PlannedVariant[];
  /** Stored variants no combination keeps and no recipe uses. */
  removedIds: string[];
  /** Their keys and what they held, for the save's audit row. */
  removed?: { key: string; data: VariantData }[];
}

const variantFields = ['position', 'sku', 'barcode', 'price', 'cost', 'images', 'status'] as const;

/**
 * The save's variant changes for the product's audit row: `variants: [before, after]`, each an
 * object by variant key holding the changed fields of the changed variants only; a new variant
 * is in `after` alone, a removed one in `before` alone (no `null` under 2,048 keys: decision
 * 0031). Null when no variant changed.
 */
export function variantChanges(plan: VariantPlan): [unknown, unknown] | null {
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  for (const variant of plan.variants) {
    const stored = variant.stored;
    if (!stored) {
      after[variant.key] = Object.fromEntries(variantFields.map((field) => [field, variant[field]]));
      continue;
    }
    const changed = variantFields.filter(
      (field) => JSON.stringify(stored[field]) !== JSON.stringify(variant[field]),
    );
    if (changed.length === 0) continue;
    before[variant.key] = Object.fromEntries(changed.map((field) => [field, stored[field]]));
    after[variant.key] = Object.fromEntries(changed.map((field) => [field, variant[field]]));
  }
  for (const { key, data } of plan.removed ?? []) before[key] = data;
  return Object.keys(before).length + Object.keys(after).length > 0 ? [before, after] : null;
}

/**
 * `products.variants_count`, `products.variant_codes` (the list's search finds a product by them)
 * and `price_min`/`price_max`: the range over the active variants, null when none is active, or
 * the product's own price (`ownPrice`) when it has no variants.
 */
export function variantSummary(plan: VariantPlan, ownPrice: number) {
  let priceMin: number | null = null;
  let priceMax: number | null = null;
  for (const variant of plan.variants) {
    if (variant.status !== 'active') continue;
    if (priceMin === null || variant.price < priceMin) priceMin = variant.price;
    if (priceMax === null || variant.price > priceMax) priceMax = variant.price;
  }
  if (plan.variants.length === 0) [priceMin, priceMax] = [ownPrice, ownPrice];
  return {
    priceMin,
    priceMax,
    variantsCount: plan.variants.length,
    variantCodes: plan.variants
      .flatMap((variant) => [variant.sku, variant.barcode])
      .filter((code): code is string => !!code)
      .join(' '),
  };
}

/**
 * The combinations in the generator's order (the first type turning slowest, each type's values
 * in the product's order): the plan lists kept and new ones apart.
 */
function inGeneratedOrder<C extends { valueIds: string[] }>(
  options: readonly VariantOption[],
  combinations: C[],
) {
  const indexOf = new Map<string, number>();
  for (const option of options) {
    for (const [index, value] of option.values.entries()) indexOf.set(value.id, index);
  }
  const ranked = combinations.map((combination) => ({
    combination,
    rank: combination.valueIds.map((id) => indexOf.get(id) ?? 0),
  }));
  ranked.sort((a, b) => {
    for (let type = 0; type < a.rank.length; type++) {
      const difference = (a.rank[type] ?? 0) - (b.rank[type] ?? 0);
      if (difference !== 0) return difference;
    }
    return 0;
  });
  return ranked.map((entry) => entry.combination);
}

/** Value ids are UUIDs (36 characters), so a key splits without ambiguity at every 37th. */
function valueIdsOfKey(key: string): string[] {
  const ids: string[] = [];
  for (let start = 0; start < key.length; start += 37) ids.push(key.slice(start, start + 36));
  return ids;
}

/**
 * The variants of the products that a recipe line names: one query on the recipe lines'
 * ingredient index, where an `exists` per variant would probe it 2,048 times.
 */
async function variantsInRecipes({ db, workspaceId }: HookContext, productIds: readonly string[]) {
  const rows = await db
    .selectDistinct({ id: recipeLines.ingredientVariantId })
    .from(recipeLines)
    .where(
      and(
        eq(recipeLines.workspaceId, workspaceId),
        sql`${recipeLines.ingredientProductId} = any(${arrayParam(productIds, 'uuid')})`,
        isNotNull(recipeLines.ingredientVariantId),
      ),
    );
  return new Set(rows.map((row) => row.id));
}

/** The products' stored variants, by product then position, with whether a recipe uses each. */
async function readStoredVariants(context: HookContext, productIds: readonly string[]) {
  const { db, workspaceId } = context;
  const used = await variantsInRecipes(context, productIds);
  const rows = await db
    .select({
      productId: productVariants.productId,
      id: productVariants.id,
      key: productVariants.key,
      position: productVariants.position,
      sku: productVariants.sku,
      barcode: productVariants.barcode,
      price: productVariants.price,
      cost: productVariants.cost,
      images: productVariants.images,
      status: productVariants.status,
    })
    .from(productVariants)
    .where(
      and(eq(productVariants.workspaceId, workspaceId), inArray(productVariants.productId, [...productIds])),
    )
    .orderBy(asc(productVariants.productId), asc(productVariants.position));
  return rows.map((row) => ({ ...row, usedInRecipe: used.has(row.id) }));
}

/** The product's stored variants, in position order, with whether a recipe uses each. */
async function storedVariants(context: HookContext, productId: string): Promise<StoredRow[]> {
  return (await readStoredVariants(context, [productId])).map(({ productId: _product, ...row }) => row);
}

/** Only the fields an edit names (an absent field leaves the variant's own). */
function editedFields(edit: VariantEdit): Partial<VariantData> {
  const fields: Partial<VariantData> = {};
  if (edit.sku !== undefined) fields.sku = edit.sku;
  if (edit.barcode !== undefined) fields.barcode = edit.barcode;
  if (edit.price !== undefined) fields.price = edit.price;
  if (edit.cost !== undefined) fields.cost = edit.cost;
  if (edit.images !== undefined) fields.images = edit.images;
  if (edit.status !== undefined) fields.status = edit.status;
  return fields;
}

const sameImages = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((image, index) => image === b[index]);

/** A stored variant the save changes (its data or its place). */
function isChanged(variant: PlannedVariant): boolean {
  const stored = variant.stored;
  if (!stored) return true;
  return (
    stored.position !== variant.position ||
    stored.sku !== variant.sku ||
    stored.barcode !== variant.barcode ||
    stored.price !== variant.price ||
    stored.cost !== variant.cost ||
    stored.status !== variant.status ||
    !sameImages(stored.images, variant.images)
  );
}

/**
 * SKUs or barcodes the save would give two variants of the workspace: within the product after
 * the save, and against the workspace's other products (one query). One issue per edit row that
 * sets a taken value (`variants.<i>.sku`), whichever row came first. Saves that set codes in one
 * workspace wait for each other first: two products saved at once with the same new SKU would
 * otherwise both pass, and the second would meet the unique index instead of its row's message.
 */
async function uniquenessIssues(
  { db, workspaceId }: HookContext,
  productId: string | null,
  variants: readonly PlannedVariant[],
  field: 'sku' | 'barcode',
  code: string,
): Promise<ValidationIssue[]> {
  const edited = variants.filter((variant) => variant.edit && variant.edit.fields[field] !== undefined);
  const wanted = [...new Set(edited.map((variant) => variant[field]).filter((value) => value !== null))];
  if (wanted.length === 0) return [];
  await lockUntilCommit(db, 'product_variants:codes', workspaceId);

  const holders = new Map<string, number>();
  for (const variant of variants) {
    const value = variant[field];
    if (value !== null) holders.set(value, (holders.get(value) ?? 0) + 1);
  }
  const column = productVariants[field];
  // The same expression as the unique index (`product_variants__<field>__unique`), so it is read.
  const compared: SQL =
    field === 'sku' ? sql`${column} collate ${sql.identifier(sortCollation)}` : sql`${column}`;
  const taken = new Set(
    (
      await db
        .select({ value: column })
        .from(productVariants)
        .where(
          and(
            eq(productVariants.workspaceId, workspaceId),
            sql`${column} is not null`,
            sql`${compared} = any(${sql.param(wanted)}::text[])`,
            productId ? ne(productVariants.productId, productId) : undefined,
          ),
        )
    ).map((row) => row.value),
  );
  return edited.flatMap((variant): ValidationIssue[] => {
    const value = variant[field];
    if (value === null || ((holders.get(value) ?? 0) < 2 && !taken.has(value))) return [];
    return [{ path: `variants.${variant.edit!.index}.${field}`, message: code }];
  });
}

/**
 * What the save does to the product's variants, or every reason to refuse it. With `options`
 * (always on a create) the combinations are generated from them (the server is the authority):
 * a surviving combination keeps its id, SKU, barcode, prices, images and status; a new one is
 * added at the product's own price and cost (`ownPrice`, as the product sold before it had that
 * variant) unless an edit of the save prices it; a dropped one is removed, or made inactive where
 * a recipe uses it. Edits name variants by key.
 */
export async function planVariants(
  context: HookContext,
  productId: string | null,
  options: readonly VariantOption[] | undefined,
  edits: readonly VariantEdit[],
  ownPrice: Pick<VariantData, 'price' | 'cost'>,
): Promise<{ plan: VariantPlan; issues: ValidationIssue[] }> {
  const stored = productId ? await storedVariants(context, productId) : [];
  const issues: ValidationIssue[] = [];

  const editsByKey = new Map<string, { index: number; fields: Partial<VariantData> }>();
  edits.forEach((edit, index) => {
    if (editsByKey.has(edit.key)) {
      issues.push({ path: `variants.${index}.key`, message: validationCodes.VALUE_MUST_BE_UNIQUE });
    } else editsByKey.set(edit.key, { index, fields: editedFields(edit) });
  });

  const variants: PlannedVariant[] = [];
  const removedIds: string[] = [];
  const removed: { key: string; data: VariantData }[] = [];
  if (options) {
    const regeneration = regenerateVariants<VariantData>(
      stored.map(
        (row): StoredVariant<VariantData> => ({
          id: row.id,
          key: row.key,
          data: variantDataOf(row),
          usedByRecipe: row.usedInRecipe,
        }),
      ),
      options,
      (key) => editsByKey.get(key)?.fields,
    );
    const storedById = new Map(stored.map((row) => [row.id, row]));
    const kept = new Map(regeneration.kept.map((variant) => [variant.key, variant]));
    for (const combination of inGeneratedOrder(options, [
      ...regeneration.kept.map((variant) => variant.combination),
      ...regeneration.inserted,
    ])) {
      const keptVariant = kept.get(combination.key);
      const data = keptVariant?.data ?? combination;
      variants.push({
        id: keptVariant?.id ?? timeOrderedId(),
        key: combination.key,
        position: variants.length,
        valueIds: combination.valueIds,
        title: combination.title,
        sku: data.sku ?? null,
        barcode: data.barcode ?? null,
        price: data.price ?? ownPrice.price,
        cost: data.cost !== undefined ? data.cost : ownPrice.cost,
        images: data.images ?? [],
        status: data.status ?? 'active',
        isNew: !keptVariant,
        stored: keptVariant ? storedById.get(keptVariant.id) : undefined,
        edit: editsByKey.get(combination.key),
      });
    }
    // A dropped combination a recipe uses stays, inactive; an edit of this save still applies to
    // its SKU, barcode and images (the page lists it until the save answers).
    for (const variant of regeneration.deactivated) {
      const row = storedById.get(variant.id)!;
      const edit = editsByKey.get(row.key);
      variants.push({
        ...row,
        ...edit?.fields,
        position: variants.length,
        valueIds: valueIdsOfKey(row.key),
        status: 'inactive',
        isNew: false,
        stored: row,
        edit,
      });
    }
    removedIds.push(...regeneration.removed.map((variant) => variant.id));
    removed.push(
      ...regeneration.removed.map((variant) => {
        const row = storedById.get(variant.id)!;
        return { key: row.key, data: { position: row.position, ...variantDataOf(row) } };
      }),
    );
  } else {
    for (const row of stored) {
      const edit = editsByKey.get(row.key);
      variants.push({
        ...row,
        ...edit?.fields,
        valueIds: valueIdsOfKey(row.key),
        isNew: false,
        stored: row,
        edit,
      });
    }
  }

  const known = new Set(variants.filter((variant) => variant.edit).map((variant) => variant.key));
  for (const [key, edit] of editsByKey) {
    if (!known.has(key)) {
      issues.push({ path: `variants.${edit.index}.key`, message: validationCodes.VARIANT_NOT_FOUND });
    }
  }
  issues.push(
    ...(await uniquenessIssues(context, productId, variants, 'sku', validationCodes.SKU_MUST_BE_UNIQUE)),
    ...(await uniquenessIssues(
      context,
      productId,
      variants,
      'barcode',
      validationCodes.BARCODE_MUST_BE_UNIQUE,
    )),
  );
  return { plan: { variants, removedIds, removed }, issues };
}

/** A `text[]` literal of one row's images, for an array of arrays bound as one `text[]` parameter. */
function textArrayLiteral(items: readonly string[]): string {
  return `{${items.map((item) => `"${item.replace(/[\\"]/g, (character) => `\\${character}`)}"`).join(',')}}`;
}

/** Each variant column as an array parameter: its SQL type and its value. */
const variantColumns: Record<
  'id' | 'key' | 'position' | 'sku' | 'barcode' | 'price' | 'cost' | 'images' | 'status',
  readonly ['uuid' | 'text' | 'int' | 'bigint', (variant: PlannedVariant) => unknown]
> = {
  id: ['uuid', (variant: PlannedVariant) => variant.id],
  key: ['text', (variant: PlannedVariant) => variant.key],
  position: ['int', (variant: PlannedVariant) => variant.position],
  sku: ['text', (variant: PlannedVariant) => variant.sku],
  barcode: ['text', (variant: PlannedVariant) => variant.barcode],
  price: ['bigint', (variant: PlannedVariant) => variant.price],
  cost: ['bigint', (variant: PlannedVariant) => variant.cost],
  images: ['text', (variant: PlannedVariant) => textArrayLiteral(variant.images)],
  status: ['text', (variant: PlannedVariant) => variant.status],
};

/**
 * `unnest($1::uuid[], …) as e(<columns>)`: the variants as rows of the named columns, one array
 * parameter per column — 2,048 rows in one statement, within any parameter limit.
 */
function unnestVariants(variants: readonly PlannedVariant[], names: (keyof typeof variantColumns)[]): SQL {
  const arrays = names.map((name) => {
    const [type, value] = variantColumns[name];
    return arrayParam(
      variants.map((variant) => value(variant)),
      type,
    );
  });
  return sql`unnest(${sql.join(arrays, sql`, `)}) as e(${sql.raw(names.join(', '))})`;
}

/**
 * Writes the plan in the save's transaction: removes the dropped variants, updates the changed
 * ones in one UPDATE … FROM unnest, inserts the new ones and their value links in one statement
 * each. A SKU or barcode passed from one of the product's variants to another is first cleared
 * on the one giving it up: the unique indexes are checked row by row, not at the statement's end.
 */
export async function writeVariants({ db, workspaceId }: HookContext, productId: string, plan: VariantPlan) {
  const ofProduct = and(
    eq(productVariants.workspaceId, workspaceId),
    eq(productVariants.productId, productId),
  );
  if (plan.removedIds.length > 0) {
    await db
      .delete(productVariants)
      .where(and(ofProduct, sql`${productVariants.id} = any(${arrayParam(plan.removedIds, 'uuid')})`));
  }

  const changed = plan.variants.filter((variant) => !variant.isNew && isChanged(variant));
  if (changed.length > 0) {
    const given = (field: 'sku' | 'barcode') => {
      const values = new Set(
        plan.variants.map((variant) => variant[field]).filter((value) => value !== null),
      );
      return changed
        .filter((variant) => {
          const before = variant.stored![field];
          return before !== null && before !== variant[field] && values.has(before);
        })
        .map((variant) => variant.id);
    };
    const skuGivers = given('sku');
    const barcodeGivers = given('barcode');
    if (skuGivers.length + barcodeGivers.length > 0) {
      await db.execute(sql`update ${productVariants}
        set sku = case when id = any(${arrayParam(skuGivers, 'uuid')}) then null else sku end,
            barcode = case when id = any(${arrayParam(barcodeGivers, 'uuid')}) then null else barcode end
        where workspace_id = ${workspaceId} and product_id = ${productId}
          and id = any(${arrayParam([...skuGivers, ...barcodeGivers], 'uuid')})`);
    }
    await db.execute(sql`update ${productVariants} as v
      set position = e.position, sku = e.sku, barcode = e.barcode, price = e.price, cost = e.cost,
          images = e.images::text[], status = e.status, updated_at = now()
      from ${unnestVariants(changed, ['id', 'position', 'sku', 'barcode', 'price', 'cost', 'images', 'status'])}
      where v.id = e.id and v.workspace_id = ${workspaceId} and v.product_id = ${productId}`);
  }

  const inserted = plan.variants.filter((variant) => variant.isNew);
  if (inserted.length > 0) {
    await db.execute(sql`insert into ${productVariants}
        (id, workspace_id, product_id, key, position, sku, barcode, price, cost, images, status)
      select e.id, ${workspaceId}, ${productId}, e.key, e.position, e.sku, e.barcode, e.price, e.cost,
        e.images::text[], e.status
      from ${unnestVariants(inserted, ['id', 'key', 'position', 'sku', 'barcode', 'price', 'cost', 'images', 'status'])}`);
    await db.execute(sql`insert into product_variant_values (workspace_id, variant_id, value_id, position)
      select ${workspaceId}, link.* from unnest(
        ${arrayParam(
          inserted.flatMap((variant) => variant.valueIds.map(() => variant.id)),
          'uuid',
        )},
        ${arrayParam(
          inserted.flatMap((variant) => variant.valueIds),
          'uuid',
        )},
        ${arrayParam(
          inserted.flatMap((variant) => variant.valueIds.map((_, position) => position)),
          'int',
        )}
      ) as link`);
  }
}

/** A variant row as an answer needs it, from the database or from a save's plan. */
interface VariantRow extends VariantData {
  productId: string;
  id: string;
  key: string;
  position: number;
  title?: LocalizedText;
  usedInRecipe: boolean;
}

/**
 * The variants of the products, as a single product's answer shows them: in position order, with
 * their value ids (read from the key), their titles from the values' names and whether a recipe
 * uses them. A product just saved in this transaction is answered from its plan (`planned`)
 * instead of reading its 2,048 variants back.
 */
export async function loadVariants(
  context: HookContext,
  productIds: readonly string[],
  planned: ReadonlyMap<string, VariantPlan> = new Map(),
): Promise<Map<string, ProductVariantRecord[]>> {
  const { db, workspaceId } = context;
  const byProduct = new Map<string, ProductVariantRecord[]>(productIds.map((id) => [id, []]));
  const rows: VariantRow[] = [];
  for (const [productId, plan] of planned) {
    if (!byProduct.has(productId)) continue;
    for (const variant of plan.variants) {
      rows.push({ ...variant, productId, usedInRecipe: variant.stored?.usedInRecipe ?? false });
    }
  }
  const unread = productIds.filter((id) => !planned.has(id));
  if (unread.length > 0) {
    rows.push(...(await readStoredVariants(context, unread)));
  }
  if (rows.length === 0) return byProduct;

  const untitled = [...new Set(rows.flatMap((row) => (row.title ? [] : valueIdsOfKey(row.key))))];
  const names = new Map(
    untitled.length === 0
      ? []
      : (
          await db
            .select({
              id: variationValues.id,
              nameEn: variationValues.nameEn,
              nameAr: variationValues.nameAr,
            })
            .from(variationValues)
            .where(
              and(
                eq(variationValues.workspaceId, workspaceId),
                sql`${variationValues.id} = any(${arrayParam(untitled, 'uuid')})`,
              ),
            )
        ).map((value) => [value.id, localizedText(value.nameEn, value.nameAr)]),
  );
  for (const row of rows) {
    const valueIds = valueIdsOfKey(row.key);
    byProduct.get(row.productId)?.push({
      id: row.id,
      key: row.key,
      position: row.position,
      valueIds,
      title: (row.title ??
        variantTitle(
          valueIds.map((id) => ({ value: names.get(id) ?? [] })),
        )) as ProductVariantRecord['title'],
      ...variantDataOf(row),
      usedInRecipe: row.usedInRecipe,
    });
  }
  return byProduct;
}
