import { validationCodes } from '../validation-codes.ts';
import { joinList, type LocalizedText, pickLocalized } from './localized-text.ts';

/** One value of a variation type, e.g. "Large" of "Size". */
export interface VariantOptionValue {
  id: string;
  value: LocalizedText;
}

/** A variation type with the values chosen for a product, in the order the product lists them. */
export interface VariantOption {
  id: string;
  name: LocalizedText;
  values: readonly VariantOptionValue[];
}

/** Per-variant data kept under a combination's key (SKU, barcode, images, status, a title…). */
export type VariantExtra = object;

/** What every generated combination carries, whatever extra data is merged into it. */
export interface VariantCombinationBase {
  /** The value ids in type order joined with '-' (ids are UUIDs, so the join is unambiguous). */
  key: string;
  valueIds: string[];
  values: VariantOptionValue[];
  /** The value titles joined by comma, per locale; an extra `title` with text replaces it. */
  title: LocalizedText;
  /** 'parent title - title' per locale (spec §9); the title alone without a parent. */
  displayTitle: LocalizedText;
}

export type VariantCombination<E extends VariantExtra = Record<never, never>> = Partial<
  Omit<E, keyof VariantCombinationBase>
> &
  VariantCombinationBase;

/** A product's variants stop here (Shopify stops at 2,048 too, but at three options). */
export const maxVariantsPerProduct = 2048;

export type VariantCountCheck =
  | { ok: true; count: number }
  | { ok: false; code: typeof validationCodes.TOO_MANY_VARIANTS; count: number; max: number };

/** Thrown before anything is generated; `params` are the message's placeholders. */
export class TooManyVariantsError extends Error {
  readonly code = validationCodes.TOO_MANY_VARIANTS;
  readonly params: { count: number; max: number };

  constructor(
    readonly count: number,
    readonly max: number = maxVariantsPerProduct,
  ) {
    super(`${count} variants is more than the ${max} a product can have`);
    this.name = 'TooManyVariantsError';
    this.params = { count, max };
  }
}

const hasText = (text: LocalizedText | null | undefined) =>
  !!text?.some((entry) => entry.value.trim() !== '');

/**
 * The options that take part (spec §9: a type without a name in either language or without
 * values is skipped), each value once: a value chosen twice is one choice.
 */
function usableOptions(options: readonly VariantOption[]): VariantOptionValue[][] {
  const usable: VariantOptionValue[][] = [];
  for (const option of options) {
    if (!hasText(option.name)) continue;
    const seen = new Set<string>();
    const values = option.values.filter((value) => !seen.has(value.id) && !!seen.add(value.id));
    if (values.length > 0) usable.push(values);
  }
  return usable;
}

const combinationCount = (usable: readonly VariantOptionValue[][]) =>
  usable.length === 0 ? 0 : usable.reduce((count, values) => count * values.length, 1);

/** How many combinations the options make, without building them (0 when no option takes part). */
export function countVariants(options: readonly VariantOption[]): number {
  return combinationCount(usableOptions(options));
}

/** The count against the limit, for a live preview or a refusal before anything is generated. */
export function checkVariantCount(
  options: readonly VariantOption[],
  max: number = maxVariantsPerProduct,
): VariantCountCheck {
  const count = countVariants(options);
  return count <= max
    ? { ok: true, count }
    : { ok: false, code: validationCodes.TOO_MANY_VARIANTS, count, max };
}

/** The locales that appear in any of the texts, in order of first appearance. */
function localesOf(texts: readonly (LocalizedText | null | undefined)[]): string[] {
  const locales = new Set<string>();
  for (const text of texts) for (const entry of text ?? []) if (entry.locale) locales.add(entry.locale);
  return [...locales];
}

/** A variant's title from its values: each value's text in that locale (§9 fallback), by that locale's comma. */
export function variantTitle(values: readonly { value: LocalizedText }[]): LocalizedText {
  return localesOf(values.map((value) => value.value)).map((locale) => ({
    locale,
    value: joinList(
      values.map((value) => pickLocalized(value.value, locale)),
      locale,
    ),
  }));
}

/** 'parent title - variant title' (spec §9), or the variant title alone without a parent. */
export function variantDisplayTitle(
  parentTitle: LocalizedText | null | undefined,
  title: LocalizedText,
  language = 'en',
): string {
  const own = pickLocalized(title, language);
  return parentTitle ? `${pickLocalized(parentTitle, language)} - ${own}` : own;
}

function localizedDisplayTitle(parentTitle: LocalizedText | undefined, title: LocalizedText): LocalizedText {
  if (!parentTitle) return title;
  return localesOf([parentTitle, title]).map((locale) => ({
    locale,
    value: variantDisplayTitle(parentTitle, title, locale),
  }));
}

export interface GenerateVariantsOptions {
  /** The product's name, for the display title. */
  parentTitle?: LocalizedText;
  max?: number;
}

/** Extra data by combination key: a record, a map, or a lookup. */
export type ExtraByKey<E> =
  | Readonly<Record<string, E>>
  | ReadonlyMap<string, E>
  | ((key: string) => E | undefined);

function extraFor<E>(extraByKey: ExtraByKey<E> | undefined, key: string): E | undefined {
  if (!extraByKey) return undefined;
  if (typeof extraByKey === 'function') return extraByKey(key);
  if (extraByKey instanceof Map) return extraByKey.get(key);
  const record = extraByKey as Readonly<Record<string, E>>;
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/**
 * The cartesian product of the options' values in type order (spec §9), each combination merged
 * with the extra data stored under its key. Throws TooManyVariantsError above the limit, counted
 * before a single combination is built.
 */
export function generateVariants<E extends VariantExtra = Record<never, never>>(
  options: readonly VariantOption[],
  extraByKey?: ExtraByKey<E>,
  { parentTitle, max = maxVariantsPerProduct }: GenerateVariantsOptions = {},
): VariantCombination<E>[] {
  const usable = usableOptions(options);
  const count = combinationCount(usable);
  if (count > max) throw new TooManyVariantsError(count, max);

  const combinations: VariantCombination<E>[] = [];
  // An odometer over the value indexes: the last type turns fastest.
  const indexes = usable.map(() => 0);
  for (let made = 0; made < count; made++) {
    const values = usable.map((choices, type) => choices[indexes[type] ?? 0] as VariantOptionValue);
    const valueIds = values.map((value) => value.id);
    const key = valueIds.join('-');
    const extra = extraFor(extraByKey, key);
    const override = (extra as { title?: unknown } | undefined)?.title;
    const title =
      Array.isArray(override) && hasText(override) ? (override as LocalizedText) : variantTitle(values);
    combinations.push({
      ...extra,
      key,
      valueIds,
      values,
      title,
      displayTitle: localizedDisplayTitle(parentTitle, title),
    } as VariantCombination<E>);
    for (let type = usable.length - 1; type >= 0; type--) {
      const next = (indexes[type] ?? 0) + 1;
      if (next < (usable[type]?.length ?? 0)) {
        indexes[type] = next;
        break;
      }
      indexes[type] = 0;
    }
  }
  return combinations;
}

/** A product's stored variant, as regeneration needs it. */
export interface StoredVariant<D extends VariantExtra = VariantExtra> {
  id: string;
  key: string;
  /** SKU, barcode, images, status…: kept as they are while the key survives. */
  data: D;
  /** A recipe line uses it: a dropped combination is then made inactive, not removed. */
  usedByRecipe: boolean;
}

export interface VariantRegenerationPlan<D extends VariantExtra = VariantExtra> {
  /** Surviving keys: same id, stored data with this save's edits over it, and the new titles. */
  kept: (StoredVariant<D> & { combination: VariantCombination<D> })[];
  /** New keys, with this save's edits merged. */
  inserted: VariantCombination<D>[];
  /** Dropped keys no recipe uses. */
  removed: StoredVariant<D>[];
  /** Dropped keys a recipe uses: kept in place, made inactive. */
  deactivated: StoredVariant<D>[];
}

/**
 * What a new choice of options does to a product's stored variants (one key per stored variant).
 * Keys are value ids, so renaming a value changes nothing here. Throws TooManyVariantsError above
 * the limit before anything is generated.
 */
export function regenerateVariants<D extends VariantExtra = VariantExtra>(
  existing: readonly StoredVariant<D>[],
  options: readonly VariantOption[],
  editsByKey?: ExtraByKey<Partial<D>>,
  settings: GenerateVariantsOptions = {},
): VariantRegenerationPlan<D> {
  const stored = new Map(existing.map((variant) => [variant.key, variant]));
  const merged = new Map<string, D>();
  const combinations = generateVariants<D>(
    options,
    (key) => {
      const base = stored.get(key)?.data;
      const edits = extraFor(editsByKey, key);
      if (!base && !edits) return undefined;
      const data = { ...base, ...edits } as D;
      merged.set(key, data);
      return data;
    },
    settings,
  );

  const plan: VariantRegenerationPlan<D> = { kept: [], inserted: [], removed: [], deactivated: [] };
  const chosen = new Set<string>();
  for (const combination of combinations) {
    chosen.add(combination.key);
    const variant = stored.get(combination.key);
    if (variant) {
      plan.kept.push({ ...variant, data: merged.get(combination.key) ?? variant.data, combination });
    } else plan.inserted.push(combination);
  }
  for (const variant of existing) {
    if (chosen.has(variant.key)) continue;
    (variant.usedByRecipe ? plan.deactivated : plan.removed).push(variant);
  }
  return plan;
}
