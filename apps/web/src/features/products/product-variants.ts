import {
  checkVariantCount,
  generateVariants,
  type ProductVariantRecord,
  pickLocalized,
  type VariantCountCheck,
  type VariantEdit,
  type VariantOption,
  type VariantRow,
  type VariationTypeRecord,
} from '@dukkan/contract';
import type { OptionFormValues } from './product-form.ts';

/*
 * The product page's variants: the combinations of the chosen values (the contract's generator,
 * the server's own rule), merged with the stored variants by key, and the page's edits on top.
 * A save sends the edits only, by key — never all 2,048 variants.
 */

/** What an edit may change of a variant. */
export type VariantChanges = Partial<
  Pick<VariantRow, 'sku' | 'barcode' | 'price' | 'cost' | 'images' | 'status'>
>;
const editableFields = ['sku', 'barcode', 'price', 'cost', 'images', 'status'] as const;

/**
 * The chosen options as the generator takes them, the values in the order chosen. Null while a
 * chosen type is unknown (not loaded, or not visible to the user): the combinations cannot be told.
 */
export function variantOptionsOf(
  chosen: readonly OptionFormValues[],
  types: ReadonlyMap<string, VariationTypeRecord>,
): VariantOption[] | null {
  const options: VariantOption[] = [];
  for (const option of chosen) {
    const type = types.get(option.typeId);
    if (!type) return null;
    const values = option.valueIds.flatMap((id) => {
      const value = type.values.find((candidate) => candidate.id === id);
      return value ? [{ id: value.id, value: value.name }] : [];
    });
    options.push({ id: type.id, name: type.name, values });
  }
  return options;
}

/** The live count of the combinations, against the limit. */
export const countCheck = (options: readonly VariantOption[]): VariantCountCheck =>
  checkVariantCount(options);

/**
 * One grid row per combination, in the generator's order, with what is stored under its key
 * (SKU, barcode, price, cost, images, status); a new combination starts empty, active, at the
 * product's own price and cost (`own`: what the server gives it too). Call only within the limit
 * (see `countCheck`).
 */
export function variantRows(
  options: readonly VariantOption[],
  stored: readonly ProductVariantRecord[],
  language: string,
  own: { price: number; cost: number | null } = { price: 0, cost: null },
): VariantRow[] {
  const byKey = new Map(stored.map((variant) => [variant.key, variant]));
  return generateVariants(options).map((combination) => {
    const variant = byKey.get(combination.key);
    return {
      id: combination.key,
      key: combination.key,
      title: pickLocalized(combination.title, language),
      sku: variant?.sku ?? null,
      barcode: variant?.barcode ?? null,
      price: variant ? variant.price : own.price,
      cost: variant ? variant.cost : own.cost,
      images: variant ? [...variant.images] : [],
      status: variant?.status ?? 'active',
    };
  });
}

/** The stored variants as rows, as the server titled them (when the combinations cannot be told). */
export function storedVariantRows(stored: readonly ProductVariantRecord[], language: string): VariantRow[] {
  return [...stored]
    .sort((a, b) => a.position - b.position)
    .map((variant) => ({
      id: variant.key,
      key: variant.key,
      title: pickLocalized(variant.title, language),
      sku: variant.sku,
      barcode: variant.barcode,
      price: variant.price,
      cost: variant.cost,
      images: [...variant.images],
      status: variant.status,
    }));
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** What a row changes of its base; null when nothing. */
function changesOf(base: VariantRow, row: VariantRow): VariantChanges | null {
  const changes: Record<string, unknown> = {};
  for (const field of editableFields) if (!same(base[field], row[field])) changes[field] = row[field];
  return Object.keys(changes).length > 0 ? (changes as VariantChanges) : null;
}

/** The rows with the page's edits over them; a row without edits stays the same object. */
export function withEdits(
  rows: readonly VariantRow[],
  edits: ReadonlyMap<string, VariantChanges>,
): VariantRow[] {
  if (edits.size === 0) return rows as VariantRow[];
  return rows.map((row) => {
    const changes = edits.get(row.key);
    return changes ? { ...row, ...changes } : row;
  });
}

/**
 * The edits after the grid (or the bulk bar) changed rows: each changed row's difference from
 * its base, by key; a row edited back to its base is no edit any more.
 */
export function nextEdits(
  edits: ReadonlyMap<string, VariantChanges>,
  base: readonly VariantRow[],
  shown: readonly VariantRow[],
  next: readonly VariantRow[],
): Map<string, VariantChanges> {
  const result = new Map(edits);
  const baseByKey = new Map(base.map((row) => [row.key, row]));
  next.forEach((row, index) => {
    if (row === shown[index]) return;
    const original = baseByKey.get(row.key);
    if (!original) return;
    const changes = changesOf(original, row);
    if (changes) result.set(row.key, changes);
    else result.delete(row.key);
  });
  return result;
}

/** What a save sends of the variants: the edited ones among the current combinations, by key. */
export function variantEditsToSend(
  rows: readonly VariantRow[],
  edits: ReadonlyMap<string, VariantChanges>,
): VariantEdit[] {
  return rows.flatMap((row) => {
    const changes = edits.get(row.key);
    return changes ? [{ key: row.key, ...changes }] : [];
  });
}
