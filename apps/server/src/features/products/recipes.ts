import {
  type AuditedRecipeLine,
  type LocalizedText,
  pickLocalized,
  type RecipeLineInput,
  type RecipeLineRecord,
  recipeLineKeys,
  type ValidationIssue,
  validationCodes,
  variantTitle,
} from '@dukkan/contract';
import { and, asc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { brands, measurementUnits, products, productVariants, recipeLines } from '../../db/schema/index.ts';
import { collated } from '../../db/schema/sorting.ts';
import { lockUntilCommit } from '../../db/transaction-lock.ts';
import { validationError } from '../../errors.ts';
import type { HookContext, RecordUsers } from '../../resource-engine/storage.ts';

/*
 * A product's recipe: lines of other products (or one of their variants), written with the
 * product. The products feature calls these from its hooks, inside the product's transaction.
 */

/** Both drivers answer `db.execute` with `{ rows }`. */
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** A uuid[] parameter list (drizzle would spread a bare array into `($1, $2)`). */
const uuidArray = (ids: readonly string[]): SQL =>
  sql`array[${sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  )}]::uuid[]`;

type LocalizedName = RecipeLineRecord['ingredient']['name'];
type NameLocale = LocalizedName[number]['locale'];

/** The `[{ locale, value }]` of a name's two columns, only the languages it has. */
function localized(nameEn: string | null | undefined, nameAr: string | null | undefined): LocalizedName {
  return [
    ...(nameEn ? [{ locale: 'en' as const, value: nameEn }] : []),
    ...(nameAr ? [{ locale: 'ar' as const, value: nameAr }] : []),
  ];
}

const isNameLocale = (entry: LocalizedText[number]): entry is { locale: NameLocale; value: string } =>
  entry.locale === 'en' || entry.locale === 'ar';

const unique = <T>(values: Iterable<T>) => [...new Set(values)];

/**
 * The products that use `productId` in their recipes, directly or through other recipes, whose
 * use closes a loop with the new ingredients: by ingredient, the loop's product names from the
 * product back to itself. One recursive query walking up from the product (who uses it, who uses
 * those…): a single start, so at most one expanded row per product and depth, where walking down
 * from each ingredient would follow every path of a shared sub-recipe. A path stops at a product
 * already on it (a loop stored before this check) and at the product itself (its own stored
 * lines are being replaced).
 */
async function recipeLoops(
  context: HookContext,
  productId: string,
  ingredientIds: readonly string[],
): Promise<Map<string, LocalizedText[]>> {
  const { db, workspaceId } = context;
  const result = await db.execute(sql`
    with recursive users (product_id, path, expand) as (
      select ${productId}::uuid, array[${productId}::uuid], true
      union all
      select line.product_id, users.path || line.product_id,
        line.product_id <> all(users.path)
        -- one path per product and depth is enough to name a loop, and keeps the walk small
        and row_number() over (
          partition by line.product_id order by line.product_id = any(users.path), users.path
        ) = 1
      from users
      join ${recipeLines} line
        on line.ingredient_product_id = users.product_id and line.workspace_id = ${workspaceId}
      where users.expand
    ),
    found as (
      select distinct on (product_id) product_id, path
      from users
      where product_id = any(${uuidArray(ingredientIds)})
      order by product_id, cardinality(path), path
    )
    select found.product_id as "ingredientId",
      (select json_agg(json_build_object('en', product.name_en, 'ar', product.name_ar) order by step.n)
       from unnest(found.path) with ordinality as step (id, n)
       join ${products} product on product.id = step.id and product.workspace_id = ${workspaceId}) as names
    from found`);
  const loops = new Map<string, LocalizedText[]>();
  for (const row of rowsOf<{ ingredientId: string; names: { en: string | null; ar: string | null }[] }>(
    result,
  )) {
    // The path runs up from the product to the ingredient; the loop reads down from the product.
    const up = row.names.map((name) => localized(name.en, name.ar));
    loops.set(row.ingredientId, [up[0]!, ...up.slice(1).reverse(), up[0]!]);
  }
  return loops;
}

/**
 * What is wrong with a recipe, every issue at once: an ingredient product or brand that is not
 * the workspace's, a variant that is not one of its ingredient's, the product itself as an
 * ingredient, and a line that closes a loop of recipes at any depth (RECIPE_CYCLE naming its
 * products in the caller's language). `productId` is null for a new product, which nothing uses
 * yet. The ingredients are locked against a delete, and the loop check runs under the
 * workspace's recipe lock: two saves that each close half of a loop would otherwise both pass.
 * For a caller that reports the recipe's issues with its own; `checkRecipe` throws them.
 */
export async function recipeIssues(
  context: HookContext,
  productId: string | null,
  lines: RecipeLineInput[],
): Promise<ValidationIssue[]> {
  if (lines.length === 0) return [];
  const { db, workspaceId } = context;
  const issues: ValidationIssue[] = [];
  const productIds = unique(lines.map((line) => line.ingredientProductId).filter((id) => id !== productId));
  const variantIds = unique(lines.flatMap((line) => line.ingredientVariantId ?? []));
  const brandIds = unique(lines.flatMap((line) => line.brandIds));

  // Locked against a delete before the recipe lock is taken: a save waits for another save's
  // rows before it holds that lock, not while holding it.
  const knownProducts = new Set(
    productIds.length === 0
      ? []
      : (
          await db
            .select({ id: products.id })
            .from(products)
            .where(and(eq(products.workspaceId, workspaceId), inArray(products.id, productIds)))
            .for('key share')
        ).map((row) => row.id),
  );
  const variantProducts = new Map(
    variantIds.length === 0
      ? []
      : (
          await db
            .select({ id: productVariants.id, productId: productVariants.productId })
            .from(productVariants)
            .where(and(eq(productVariants.workspaceId, workspaceId), inArray(productVariants.id, variantIds)))
            .for('key share')
        ).map((row) => [row.id, row.productId]),
  );
  const knownBrands = new Set(
    brandIds.length === 0
      ? []
      : (
          await db
            .select({ id: brands.id })
            .from(brands)
            .where(and(eq(brands.workspaceId, workspaceId), inArray(brands.id, brandIds)))
            .for('key share')
        ).map((row) => row.id),
  );

  const loopStarts = [...knownProducts];
  let loops = new Map<string, LocalizedText[]>();
  if (productId !== null && loopStarts.length > 0) {
    await lockUntilCommit(db, 'recipe_lines', workspaceId);
    loops = await recipeLoops(context, productId, loopStarts);
  }

  const locale = context.locale ?? 'en';
  lines.forEach((line, index) => {
    const at = (field: string) => `recipe.${index}.${field}`;
    if (line.ingredientProductId === productId) {
      issues.push({ path: at('ingredientProductId'), message: validationCodes.RECIPE_USES_ITSELF });
    } else if (!knownProducts.has(line.ingredientProductId)) {
      issues.push({ path: at('ingredientProductId'), message: validationCodes.REFERENCE_NOT_FOUND });
    } else {
      const loop = loops.get(line.ingredientProductId);
      if (loop) {
        issues.push({
          path: at('ingredientProductId'),
          message: validationCodes.RECIPE_CYCLE,
          params: { cycle: loop.map((name) => pickLocalized(name, locale)).join(' → ') },
        });
      }
      if (
        line.ingredientVariantId !== null &&
        variantProducts.get(line.ingredientVariantId) !== line.ingredientProductId
      ) {
        issues.push({ path: at('ingredientVariantId'), message: validationCodes.VARIANT_NOT_FOUND });
      }
    }
    line.brandIds.forEach((brandId, brandIndex) => {
      if (!knownBrands.has(brandId)) {
        issues.push({ path: at(`brandIds.${brandIndex}`), message: validationCodes.REFERENCE_NOT_FOUND });
      }
    });
  });
  return issues;
}

/** Refuses a recipe with `recipeIssues`' issues (one VALIDATION error), inside the product's transaction. */
export async function checkRecipe(
  context: HookContext,
  productId: string | null,
  lines: RecipeLineInput[],
): Promise<void> {
  const issues = await recipeIssues(context, productId, lines);
  if (issues.length > 0) throw validationError(issues);
}

/** Replaces the product's recipe with the lines (checked by `checkRecipe`), in their order. */
export async function writeRecipe(
  context: HookContext,
  productId: string,
  lines: RecipeLineInput[],
): Promise<void> {
  const { db, workspaceId } = context;
  await db
    .delete(recipeLines)
    .where(and(eq(recipeLines.workspaceId, workspaceId), eq(recipeLines.productId, productId)));
  if (lines.length === 0) return;
  await db.insert(recipeLines).values(
    lines.map((line, position) => ({
      workspaceId,
      productId,
      position,
      ingredientProductId: line.ingredientProductId,
      ingredientVariantId: line.ingredientVariantId,
      quantity: line.quantity,
      orderTypes: line.orderTypes,
      brandIds: line.brandIds,
    })),
  );
}

/**
 * The recipes of the products, by product id (a product without lines has an empty one), each
 * line with its ingredient's code, name, unit and, for a variant, its title from its values'
 * names. One query for all the products.
 */
export async function loadRecipes(
  context: HookContext,
  productIds: readonly string[],
): Promise<Map<string, RecipeLineRecord[]>> {
  const recipes = new Map<string, RecipeLineRecord[]>(productIds.map((id) => [id, []]));
  if (productIds.length === 0) return recipes;
  const rows = await context.db
    .select({
      productId: recipeLines.productId,
      id: recipeLines.id,
      ingredientProductId: recipeLines.ingredientProductId,
      ingredientVariantId: recipeLines.ingredientVariantId,
      quantity: recipeLines.quantity,
      orderTypes: recipeLines.orderTypes,
      brandIds: recipeLines.brandIds,
      code: products.code,
      nameEn: products.nameEn,
      nameAr: products.nameAr,
      measurementUnitId: products.measurementUnitId,
      // The variant's values in its type order; null for a line of the whole product.
      variantValues: sql<{ en: string | null; ar: string | null }[] | null>`(
        select json_agg(json_build_object('en', value.name_en, 'ar', value.name_ar) order by link.position)
        from "product_variant_values" link
        join "variation_values" value on value.id = link.value_id and value.workspace_id = link.workspace_id
        where link.variant_id = ${recipeLines.ingredientVariantId} and link.workspace_id = ${recipeLines.workspaceId})`,
    })
    .from(recipeLines)
    .innerJoin(
      products,
      and(
        eq(products.id, recipeLines.ingredientProductId),
        eq(products.workspaceId, recipeLines.workspaceId),
      ),
    )
    .where(
      and(eq(recipeLines.workspaceId, context.workspaceId), inArray(recipeLines.productId, [...productIds])),
    )
    .orderBy(asc(recipeLines.productId), asc(recipeLines.position));
  for (const row of rows) {
    recipes.get(row.productId)?.push({
      id: row.id,
      ingredientProductId: row.ingredientProductId,
      ingredientVariantId: row.ingredientVariantId,
      quantity: Number(row.quantity),
      orderTypes: row.orderTypes,
      brandIds: row.brandIds,
      ingredient: {
        code: row.code,
        name: localized(row.nameEn, row.nameAr),
        measurementUnitId: row.measurementUnitId,
        variantTitle:
          row.ingredientVariantId === null
            ? null
            : variantTitle(
                (row.variantValues ?? []).map((value) => ({ value: localized(value.en, value.ar) })),
              ).filter(isNameLocale),
      },
    });
  }
  return recipes;
}

/**
 * The products whose recipes use this product or one of its variants: how many, and the first
 * five names in code order (what a refused delete names).
 */
export async function recipeUsers(context: HookContext, productId: string): Promise<RecordUsers> {
  const { db, workspaceId } = context;
  const rows = await db
    .select({
      nameEn: products.nameEn,
      nameAr: products.nameAr,
      total: sql<number>`count(*) over ()`.mapWith(Number),
    })
    .from(products)
    .where(
      and(
        eq(products.workspaceId, workspaceId),
        // A line of one of its variants names the product too (checkRecipe makes sure of it).
        sql`${products.id} in (
          select ${recipeLines.productId} from ${recipeLines}
          where ${recipeLines.workspaceId} = ${workspaceId} and ${recipeLines.ingredientProductId} = ${productId})`,
      ),
    )
    .orderBy(collated(sql`${products.code}`), asc(products.id))
    .limit(5);
  return { count: rows[0]?.total ?? 0, names: rows.map((row) => localized(row.nameEn, row.nameAr)) };
}

/** Which of the variants a recipe line uses (such a variant is kept, made inactive, when its value goes). */
export async function variantsUsedInRecipes(
  context: HookContext,
  variantIds: readonly string[],
): Promise<Set<string>> {
  if (variantIds.length === 0) return new Set();
  const rows = await context.db
    .selectDistinct({ id: recipeLines.ingredientVariantId })
    .from(recipeLines)
    .where(
      and(
        eq(recipeLines.workspaceId, context.workspaceId),
        inArray(recipeLines.ingredientVariantId, [...variantIds]),
      ),
    );
  return new Set(rows.flatMap((row) => row.id ?? []));
}

/**
 * The product's recipe lines as its audit row names them (`AuditedRecipeLine`, the contract's
 * `recipe-changes.ts`): each by its key, with its ingredient's name (and variant's title), unit
 * symbol and brands' names as they are at the save. Read before and after a save that sends a
 * recipe, in its transaction; one query for the lines (`loadRecipes`), one for units and brands.
 */
export async function auditedRecipe(
  context: HookContext,
  productId: string,
): Promise<Record<string, AuditedRecipeLine>> {
  const lines = (await loadRecipes(context, [productId])).get(productId) ?? [];
  const { db, workspaceId } = context;
  const unitIds = unique(lines.flatMap((line) => line.ingredient.measurementUnitId ?? []));
  const brandIds = unique(lines.flatMap((line) => line.brandIds));
  const symbols = new Map(
    unitIds.length === 0
      ? []
      : (
          await db
            .select({ id: measurementUnits.id, symbol: measurementUnits.symbol })
            .from(measurementUnits)
            .where(and(eq(measurementUnits.workspaceId, workspaceId), inArray(measurementUnits.id, unitIds)))
        ).map((row) => [row.id, row.symbol]),
  );
  const brandNames = new Map(
    brandIds.length === 0
      ? []
      : (
          await db
            .select({ id: brands.id, nameEn: brands.nameEn, nameAr: brands.nameAr })
            .from(brands)
            .where(and(eq(brands.workspaceId, workspaceId), inArray(brands.id, brandIds)))
        ).map((row) => [row.id, localized(row.nameEn, row.nameAr)]),
  );
  return recipeLineKeys(lines).reduce<Record<string, AuditedRecipeLine>>((audited, [key, line]) => {
    audited[key] = {
      ingredient: line.ingredient.name,
      variant: line.ingredient.variantTitle,
      unit: line.ingredient.measurementUnitId
        ? (symbols.get(line.ingredient.measurementUnitId) ?? null)
        : null,
      quantity: line.quantity,
      orderTypes: [...line.orderTypes].sort(),
      brands: line.brandIds.map((id) => brandNames.get(id) ?? []),
    };
    return audited;
  }, {});
}
