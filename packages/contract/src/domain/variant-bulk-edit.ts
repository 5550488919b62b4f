import { applyMoneyChange, type MoneyChange } from './money.ts';

/*
 * One edit applied to many variants of a product at once (the product page's bulk edit bar): a SKU
 * pattern, a barcode, an image, a status, or a change of price or cost, to the selected variants or
 * to all of them. Pure: the page keeps the result as unsaved edits and the server checks them on
 * save (a SKU of 60 characters at most, unique in the workspace; a valid barcode).
 */

export type VariantRowStatus = 'active' | 'inactive';

/** A variant as the product page edits it. */
export interface VariantRow {
  id: string;
  /** The combination's key: its value ids in type order joined by '-'. */
  key: string;
  /** The value titles as the variant title joins them ("Large, Oat milk"), in the language shown. */
  title: string;
  sku: string | null;
  barcode: string | null;
  /** Minor units of the workspace's base currency. */
  price: number;
  /** Minor units of the workspace's base currency; null when not known. */
  cost: number | null;
  /** The first is the variant's image. */
  images: string[];
  status: VariantRowStatus;
}

/** What a bulk edit sets; a field left out is left as it is. */
export interface VariantBulkEdit {
  /** Each target's SKU from a pattern of `{code}`, `{n}` and `{values}` (see `expandSkuPattern`). */
  sku?: { pattern: string };
  /** The same barcode on every target; null or '' removes it. */
  barcode?: string | null;
  /** One image URL put first among each target's images; null removes their images. */
  image?: string | null;
  status?: VariantRowStatus;
  /**
   * Each target's price set, raised or lowered by an amount or a percentage, rounded half-up to
   * the minor unit (`applyMoneyChange`). All or nothing: when one target's price would fall below
   * zero or beyond the column, no variant changes (`refused`).
   */
  price?: MoneyChange;
  /** The same for the cost; a target without a cost gets one by 'set' only, and is left by the others. */
  cost?: MoneyChange;
}

export interface VariantBulkEditOptions {
  /** The variants' ids the edit applies to (unknown ids are ignored), or 'all'. */
  targets: readonly string[] | 'all';
  /** The product's code, for `{code}`. */
  productCode: string;
}

export interface VariantBulkEditResult<V extends VariantRow> {
  /** Every variant in the same order; a variant the edit did not change is the same object. */
  variants: V[];
  /** The ids of the variants that changed, in the variants' order. */
  changed: string[];
  /**
   * Why nothing changed, when a price or cost change would make a target's amount negative or too
   * large: the first such variant, the field and the code. The variants are then the given ones.
   */
  refused?: { id: string; field: 'price' | 'cost'; code: 'MONEY_IS_NEGATIVE' | 'MONEY_TOO_LARGE' };
}

/**
 * 'Large, Oat milk' → 'LARGE-OAT-MILK': each value title (separated by a comma, or the Arabic
 * comma of an Arabic title) upper-cased, spaces made '-', joined by '-'.
 */
export function slugVariantValues(title: string): string {
  return title
    .split(/[,،]/)
    .map((value) => value.trim().toUpperCase().replace(/\s+/g, '-'))
    .filter((value) => value !== '')
    .join('-');
}

/**
 * A SKU from a pattern: `{code}` is the product's code, `{n}` the variant's 1-based position among
 * the targets zero-padded to the width of their count ('0007' of 2,048), `{values}` its value
 * titles slugged (`slugVariantValues`). Other text, unknown tokens included, is kept as it is.
 * Distinct titles can slug alike ('Dark Blue' and 'Dark-Blue'): the server's uniqueness check stays.
 */
export function expandSkuPattern(
  pattern: string,
  { code, position, count, title }: { code: string; position: number; count: number; title: string },
): string {
  const width = String(Math.max(count, 1)).length;
  return pattern.replace(/\{(code|n|values)\}/g, (_token, name: string) => {
    if (name === 'code') return code;
    if (name === 'n') return String(position).padStart(width, '0');
    return slugVariantValues(title);
  });
}

const sameImages = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((image, index) => image === b[index]);

/**
 * Applies one edit to the targets, in the variants' order (that order numbers `{n}`, whatever the
 * order of the ids). A SKU pattern that comes out blank removes the SKU.
 */
export function applyVariantBulkEdit<V extends VariantRow>(
  variants: readonly V[],
  edit: VariantBulkEdit,
  { targets, productCode }: VariantBulkEditOptions,
): VariantBulkEditResult<V> {
  const wanted = targets === 'all' ? null : new Set(targets);
  const isTarget = (variant: V) => wanted === null || wanted.has(variant.id);
  const count = wanted === null ? variants.length : variants.filter(isTarget).length;
  const barcode = edit.barcode === undefined ? undefined : edit.barcode?.trim() || null;

  const changed: string[] = [];
  let refused: VariantBulkEditResult<V>['refused'];
  let position = 0;
  /** The amount after the change; the same number when unchanged; undefined when refused. */
  const money = (variant: V, field: 'price' | 'cost'): number | null | undefined => {
    const change = edit[field];
    const current = variant[field];
    if (change === undefined || (current === null && change.kind !== 'set')) return current;
    const outcome = applyMoneyChange(current ?? 0, change);
    if (outcome.ok) return outcome.minor;
    refused ??= { id: variant.id, field, code: outcome.code };
    return undefined;
  };
  const next = variants.map((variant) => {
    if (!isTarget(variant)) return variant;
    position++;
    const sku =
      edit.sku === undefined
        ? variant.sku
        : expandSkuPattern(edit.sku.pattern, {
            code: productCode,
            position,
            count,
            title: variant.title,
          }).trim() || null;
    const images =
      edit.image === undefined
        ? variant.images
        : edit.image === null
          ? []
          : [edit.image, ...variant.images.filter((image) => image !== edit.image)];
    const price = money(variant, 'price');
    const cost = money(variant, 'cost');
    const updated = {
      ...variant,
      price: price ?? variant.price,
      cost: cost === undefined ? variant.cost : cost,
      sku,
      barcode: barcode === undefined ? variant.barcode : barcode,
      images: sameImages(images, variant.images) ? variant.images : images,
      status: edit.status ?? variant.status,
    };
    const differs =
      updated.sku !== variant.sku ||
      updated.barcode !== variant.barcode ||
      updated.images !== variant.images ||
      updated.status !== variant.status ||
      updated.price !== variant.price ||
      updated.cost !== variant.cost;
    if (!differs) return variant;
    changed.push(variant.id);
    return updated;
  });
  if (refused) return { variants: [...variants], changed: [], refused };
  return { variants: next, changed };
}
