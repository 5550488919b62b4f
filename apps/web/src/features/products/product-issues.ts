import type { ValidationIssue } from '@dukkan/contract';
import { isApiError } from '../../lib/api-client.ts';

/*
 * Where a refused save's issues go on the product page. The server names them by the input's
 * paths: `variants.<i>.sku` is the i-th variant the save sent (by key, not the grid's i-th
 * row), `recipe.<i>.<field>` the i-th line sent, `name.<i>` the i-th name sent.
 */

/** The fields of the details section a server issue can name. */
const detailFields = new Set([
  'code',
  'measurementUnitId',
  'categoryId',
  'wasteCategoryId',
  'tagIds',
  'images',
  'price',
  'cost',
  'taxId',
  'pricesIncludeTax',
  'status',
]);

/** What one recipe line's control an issue is about; null for the line as a whole. */
export type RecipeLineField = 'ingredient' | 'quantity' | 'orderTypes' | 'brandIds' | null;

export interface PlacedIssues {
  /** Form paths of the details section and their codes. */
  fields: { path: string; message: string }[];
  /** By variant key: the SKU's, barcode's, price's and cost's issues. */
  variants: Map<string, Partial<Record<'sku' | 'barcode' | 'price' | 'cost', ValidationIssue>>>;
  /** By the line's page key. */
  recipe: Map<string, { field: RecipeLineField; issue: ValidationIssue }[]>;
  /**
   * The variants section's own (TOO_MANY_VARIANTS, a repeated type) and a variant's other than
   * its SKU or barcode (an image), with the variant's key when the issue names one.
   */
  variantsSection: (ValidationIssue & { variantKey?: string })[];
  /** The recipe as a whole (too many lines). */
  recipeSection: ValidationIssue[];
  /** Anything else: shown above the form. */
  other: ValidationIssue[];
}

/** What the save sent, to read the issues' indexes against. */
export interface SentInput {
  variantKeys: readonly string[];
  recipeLineIds: readonly string[];
  nameLocales: readonly string[];
}

const lineField = (field: string | undefined): RecipeLineField => {
  if (field === 'ingredientProductId' || field === 'ingredientVariantId') return 'ingredient';
  if (field === 'quantity' || field === 'orderTypes' || field === 'brandIds') return field;
  return null;
};

/** No issue anywhere on the page. */
export function noPlacedIssues(): PlacedIssues {
  return {
    fields: [],
    variants: new Map(),
    recipe: new Map(),
    variantsSection: [],
    recipeSection: [],
    other: [],
  };
}

/** The issues of a refused save, each where the page shows it. */
export function placeIssues(error: unknown, sent: SentInput): PlacedIssues {
  const placed = noPlacedIssues();
  if (!isApiError(error)) return placed;
  if (error.code === 'DB') {
    const target = error.body?.target;
    if (target === 'code') placed.fields.push({ path: 'code', message: 'CODE_MUST_BE_UNIQUE' });
    else placed.other.push({ path: target ?? '', message: error.message });
    return placed;
  }
  if (error.code !== 'VALIDATION') return placed;
  const issues: ValidationIssue[] = error.body?.issues?.length
    ? error.body.issues
    : [{ path: error.body?.key ?? '', message: error.message }];

  for (const issue of issues) {
    const [head = '', index, field] = issue.path.split('.');
    const at = index === undefined ? undefined : Number(index);
    if (head === 'name') {
      const locale = at === undefined ? 'en' : (sent.nameLocales[at] ?? 'en');
      placed.fields.push({ path: `name.${locale}`, message: issue.message });
    } else if (detailFields.has(head)) {
      placed.fields.push({ path: head, message: issue.message });
    } else if (head === 'variants') {
      const key = at === undefined ? undefined : sent.variantKeys[at];
      if (key && (field === 'sku' || field === 'barcode' || field === 'price' || field === 'cost')) {
        placed.variants.set(key, { ...placed.variants.get(key), [field]: issue });
      } else placed.variantsSection.push({ ...issue, variantKey: key });
    } else if (head === 'options') {
      placed.variantsSection.push(issue);
    } else if (head === 'recipe') {
      const lineId = at === undefined ? undefined : sent.recipeLineIds[at];
      if (lineId) {
        placed.recipe.set(lineId, [...(placed.recipe.get(lineId) ?? []), { field: lineField(field), issue }]);
      } else placed.recipeSection.push(issue);
    } else placed.other.push(issue);
  }
  return placed;
}
