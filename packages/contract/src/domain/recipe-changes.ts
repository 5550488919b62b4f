import { numberFormat } from './format.ts';
import { joinList, type LocalizedText, pickLocalized } from './localized-text.ts';
import { variantDisplayTitle } from './variants.ts';

/*
 * A product save's recipe changes as its audit row holds them (docs/architecture.md, "The audit
 * log"): `recipe: [before, after]`, each an object by line key of the lines that changed, whole —
 * an added line in `after` alone, a removed one in `before` alone, a changed one on both sides.
 * A line names its ingredient, variant, unit and brands as they were at the save, so the row
 * reads the same once they are renamed. Read here into one entry per line and formatted as the
 * product's recipe shows a line: its ingredient's name, the quantity in the ingredient's unit.
 */

/** One recipe line on an audit row. */
export interface AuditedRecipeLine {
  ingredient: LocalizedText;
  /** The ingredient variant's title (its values' names); null for the whole product. */
  variant: LocalizedText | null;
  /** The ingredient's unit symbol ("kg"); null when it has none. */
  unit: string | null;
  quantity: number;
  /** In sorted order; none: every order type. */
  orderTypes: string[];
  /** The brands' names; none: every brand. */
  brands: LocalizedText[];
}

/** A line's fields an audit row compares and shows, in the order they are shown. */
export const auditedRecipeFields = ['quantity', 'orderTypes', 'brands'] as const;
export type AuditedRecipeField = (typeof auditedRecipeFields)[number];

type LineOfRecipe = { ingredientProductId: string; ingredientVariantId: string | null };

/**
 * Each line with its key: its ingredient's id, then '/' and its variant's id for a variant, and
 * '#2', '#3'… for the second and later lines of the same ingredient (lines differing by order
 * types or brands), in the recipe's order.
 */
export function recipeLineKeys<L extends LineOfRecipe>(lines: readonly L[]): [string, L][] {
  const seen = new Map<string, number>();
  return lines.map((line) => {
    const base = line.ingredientVariantId
      ? `${line.ingredientProductId}/${line.ingredientVariantId}`
      : line.ingredientProductId;
    const count = (seen.get(base) ?? 0) + 1;
    seen.set(base, count);
    return [count === 1 ? base : `${base}#${count}`, line];
  });
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

const changedField = (before: AuditedRecipeLine, after: AuditedRecipeLine) =>
  auditedRecipeFields.some((field) => !same(before[field], after[field]));

/**
 * The `recipe` change of a save, `[before, after]` with the added, removed and changed lines
 * (the changed whole on both sides, to be named); null when every line is as it was.
 */
export function recipeChanges(
  before: Record<string, AuditedRecipeLine>,
  after: Record<string, AuditedRecipeLine>,
): [Record<string, AuditedRecipeLine>, Record<string, AuditedRecipeLine>] | null {
  const was: Record<string, AuditedRecipeLine> = {};
  const now: Record<string, AuditedRecipeLine> = {};
  for (const [key, line] of Object.entries(before)) {
    const kept = after[key];
    if (!kept || changedField(line, kept)) was[key] = line;
  }
  for (const [key, line] of Object.entries(after)) {
    const had = before[key];
    if (!had || changedField(had, line)) now[key] = line;
  }
  return Object.keys(was).length + Object.keys(now).length > 0 ? [was, now] : null;
}

/** What a recipe change is shown with: the reader's language and the product page's words. */
export interface RecipeChangeFormat {
  language: string;
  /** An order type's name (Dine-in). */
  orderType(orderType: string): string;
  /** What no order type chosen means ("All order types"). */
  allOrderTypes: string;
  /** What no brand chosen means ("All brands"). */
  allBrands: string;
}

/** One line's change as text: its title, added, removed or changed, and its shown fields before and after. */
export interface FormattedRecipeChange {
  key: string;
  kind: 'added' | 'removed' | 'changed';
  title: string;
  fields: { field: AuditedRecipeField; before: string | null; after: string | null }[];
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isLocalized = (value: unknown): value is LocalizedText =>
  Array.isArray(value) &&
  value.every(
    (entry) => isObject(entry) && typeof entry.locale === 'string' && typeof entry.value === 'string',
  );

const isLine = (value: unknown): value is AuditedRecipeLine =>
  isObject(value) &&
  isLocalized(value.ingredient) &&
  (value.variant === null || isLocalized(value.variant)) &&
  (value.unit === null || typeof value.unit === 'string') &&
  typeof value.quantity === 'number' &&
  Array.isArray(value.orderTypes) &&
  value.orderTypes.every((orderType) => typeof orderType === 'string') &&
  Array.isArray(value.brands) &&
  value.brands.every(isLocalized);

/** A line's field as the product's recipe shows it. */
function formatRecipeValue(line: AuditedRecipeLine, field: AuditedRecipeField, format: RecipeChangeFormat) {
  const { language } = format;
  if (field === 'quantity') {
    const quantity = numberFormat(language).format(line.quantity);
    return line.unit ? `${quantity} ${line.unit}` : quantity;
  }
  if (field === 'orderTypes') {
    return line.orderTypes.length === 0
      ? format.allOrderTypes
      : joinList(line.orderTypes.map(format.orderType), language);
  }
  return line.brands.length === 0
    ? format.allBrands
    : joinList(
        line.brands.map((name) => pickLocalized(name, language)),
        language,
      );
}

/** A line's title: its ingredient's name, and its variant's title after it ("Latte - Large"). */
function recipeLineTitle(line: AuditedRecipeLine, language: string): string {
  return line.variant
    ? variantDisplayTitle(line.ingredient, line.variant, language)
    : pickLocalized(line.ingredient, language);
}

/**
 * A `recipe` change formatted line by line, the removed and changed lines in their old order, then
 * the added: an added or removed line by its quantity and any order types or brands it is limited
 * to, a changed one by its changed fields; null when the pair is not of that shape.
 */
export function formatRecipeChanges(
  pair: unknown,
  format: RecipeChangeFormat,
): FormattedRecipeChange[] | null {
  if (!Array.isArray(pair) || pair.length !== 2) return null;
  const [before, after] = pair.map((side) => (side === null ? {} : side)) as [unknown, unknown];
  if (!isObject(before) || !isObject(after)) return null;
  if (![...Object.values(before), ...Object.values(after)].every(isLine)) return null;
  const sides = [before, after] as [Record<string, AuditedRecipeLine>, Record<string, AuditedRecipeLine>];
  const keys = [...new Set([...Object.keys(sides[0]), ...Object.keys(sides[1])])];
  return keys.map((key) => {
    const was = sides[0][key];
    const now = sides[1][key];
    const kind = was && now ? 'changed' : now ? 'added' : 'removed';
    const line = (now ?? was)!;
    const shown = auditedRecipeFields.filter((field) =>
      was && now
        ? !same(was[field], now[field])
        : field === 'quantity' || (line[field] as unknown[]).length > 0,
    );
    return {
      key,
      kind,
      title: recipeLineTitle(line, format.language),
      fields: shown.map((field) => ({
        field,
        before: was ? formatRecipeValue(was, field, format) : null,
        after: now ? formatRecipeValue(now, field, format) : null,
      })),
    };
  });
}
