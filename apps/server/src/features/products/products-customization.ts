import {
  type AuditedRecipeLine,
  type ProductOption,
  type RecipeLineInput,
  recipeChanges,
  type ValidationIssue,
  type VariantEdit,
  type VariantOption,
} from '@dukkan/contract';
import { eq, sql } from 'drizzle-orm';
import { products, workspaces } from '../../db/schema/index.ts';
import { validationError } from '../../errors.ts';
import { customize } from '../../resource-engine/storage.ts';
import { matchedVariant } from './matched-variant.ts';
import { productExportExpansion, productExportFields } from './product-export.ts';
import { productImportExpansion } from './product-import.ts';
import { resolveOptions, tagIssues } from './product-inputs.ts';
import { loadProductReferences } from './product-references.ts';
import {
  loadVariants,
  planVariants,
  type VariantPlan,
  variantChanges,
  variantSummary,
  writeVariants,
} from './product-variants.ts';
import { auditedRecipe, loadRecipes, recipeIssues, recipeUsers, writeRecipe } from './recipes.ts';

/** The product fields the hooks read, as the contract's schemas leave them (absent on an update: unchanged). */
interface ProductWrite {
  tagIds?: string[];
  price?: number;
  cost?: number | null;
  options?: ProductOption[];
  variants?: VariantEdit[];
  recipe?: RecipeLineInput[];
}

/**
 * What one product's save carries from its check (beforeWrite) to its write: the variant plan
 * afterWrite writes and the answer is made from (reading 2,048 variants back took 46–119 ms on
 * PGlite and 22–45 ms on PostgreSQL, min–median), and the row values it derives (count, codes,
 * price range), written with the product's row; and, for a save that sends a recipe, its lines
 * before and after as the audit row names them.
 */
interface ProductSave {
  plan?: VariantPlan;
  row: Record<string, unknown>;
  recipe?: {
    before: Record<string, AuditedRecipeLine>;
    after?: Record<string, AuditedRecipeLine>;
  };
}

/**
 * What products add to their declaration: the variants and recipe the feature writes with the
 * product, a search that finds a product by a variant's SKU or barcode (and says which variant:
 * `matchedVariant`), a tag filter that finds
 * a tag among a product's tags, and a category filter that takes in the sub-categories.
 */
export const productsCustomization = customize<ProductSave>({
  key: 'products',
  writtenByFeature: ['variants', 'recipe', 'references'],
  exportFields: productExportFields,
  exportExpansion: productExportExpansion,
  importExpansion: productImportExpansion,
  searchedAs: { variants: products.variantCodes },
  foundBySearch: { matchedVariant },
  filteredAs: {
    tagIds: (ids) => sql`${products.tagIds} && (${ids})::uuid[]`,
    // Over an array of the walk's categories, not `in (select …)`: estimating the walk at a few
    // rows, the planner ran the trigram search once per category (a nested loop); over the array
    // it intersects the search's bitmap with the category index's once (bench/README.md, the
    // schema's keys before and after: 61 → 38 ms a page of 100,000 products on PostgreSQL).
    categoryId: (ids, workspaceId) => sql`${products.categoryId} = any(array(
      with recursive tree (id) as (
        select id from "categories" where workspace_id = ${workspaceId} and id = any((${ids})::uuid[])
        union
        select child.id from "categories" child join tree on child.parent_id = tree.id
        where child.workspace_id = ${workspaceId}
      )
      select id from tree))`,
  },
  derivedValues: (_input, save) => save?.row ?? {},
  hooks: {
    /**
     * Every refusal before anything is written, all in one answer (with the engine's refusal of
     * another workspace's images): tags, options (and the count of their combinations), the
     * variant edits (known keys, SKUs and barcodes unique in the workspace) and the recipe. The
     * variant plan it makes is what afterWrite writes.
     */
    async beforeWrite(context, input, existing) {
      const product = input as ProductWrite;
      const productId = existing ? (existing.id as string) : null;
      if (!existing) {
        // A change of the base currency converts every price of the workspace: a new product's
        // prices wait for it (and it for them), or they would stay in the old currency. An
        // update needs no such lock: the change converts the product's row after the save.
        await context.db
          .select({ id: workspaces.id })
          .from(workspaces)
          .where(eq(workspaces.id, context.workspaceId))
          .for('share');
      }
      if (product.tagIds) product.tagIds = [...new Set(product.tagIds)];
      const issues: ValidationIssue[] = [...(product.tagIds ? await tagIssues(context, product.tagIds) : [])];
      let options: VariantOption[] | undefined;
      if (product.options) {
        const resolved = await resolveOptions(context, product.options);
        if (resolved.ok) {
          options = resolved.options;
          product.options = resolved.stored;
        } else issues.push(...resolved.issues);
      }
      const optionsRefused = product.options !== undefined && options === undefined;
      // The product's own price and cost after the save: what a new variant starts at.
      const ownPrice = {
        price: product.price ?? (existing?.price as number | undefined) ?? 0,
        cost: product.cost !== undefined ? product.cost : ((existing?.cost as number | null) ?? null),
      };
      let save: ProductSave | undefined;
      if (!optionsRefused && (options || product.variants)) {
        const { plan, issues: variantIssues } = await planVariants(
          context,
          productId,
          options,
          product.variants ?? [],
          ownPrice,
        );
        issues.push(...variantIssues);
        save = { plan, row: variantSummary(plan, ownPrice.price) };
      } else if (product.price !== undefined && existing?.variantsCount === 0) {
        // Without variants the product sells at its own price: its range is that price.
        save = { row: { priceMin: product.price, priceMax: product.price } };
      }
      if (product.recipe) issues.push(...(await recipeIssues(context, productId, product.recipe)));
      if (issues.length > 0) throw validationError(issues);
      if (product.recipe) {
        // The lines as they were, for the audit row's `recipe` (a new product has none).
        save = {
          row: {},
          ...save,
          recipe: { before: productId ? await auditedRecipe(context, productId) : {} },
        };
      }
      return save;
    },
    async afterWrite(context, id, input, save) {
      if (save?.plan) await writeVariants(context, id, save.plan);
      const { recipe } = input as ProductWrite;
      if (recipe) {
        await writeRecipe(context, id, recipe);
        if (save?.recipe) save.recipe.after = await auditedRecipe(context, id);
      }
    },
    async details(context, ids, written) {
      const plans = new Map<string, VariantPlan>();
      for (const [id, save] of written) if (save.plan) plans.set(id, save.plan);
      const variants = await loadVariants(context, ids, plans);
      const recipes = await loadRecipes(context, ids);
      const references = await loadProductReferences(context, ids);
      return new Map(
        ids.map((id) => [
          id,
          {
            variants: variants.get(id) ?? [],
            recipe: recipes.get(id) ?? [],
            references: references.get(id) ?? {},
          },
        ]),
      );
    },
    usedBy: (context, existing) => recipeUsers(context, existing.id as string),
    auditChanges(save) {
      const variants = save?.plan ? variantChanges(save.plan) : null;
      const recipe = save?.recipe?.after ? recipeChanges(save.recipe.before, save.recipe.after) : null;
      if (!variants && !recipe) return null;
      return { ...(variants ? { variants } : {}), ...(recipe ? { recipe } : {}) };
    },
  },
});
