import { formatDate, formatTime, numberFormat } from './format.ts';
import { joinList, type LocalizedText, pickLocalized } from './localized-text.ts';
import { formatMoney } from './money.ts';

/*
 * A product save's variant changes as its audit row holds them (decision 0031): `variants:
 * [before, after]`, each an object by variant key — the combination's value ids in type order
 * joined by '-' — of the changed variants' changed fields only; a new variant in `after` alone,
 * a removed one in `before` alone. Read here into one entry per variant, and formatted as the
 * product's page shows a variant: its values' names, prices as money, dates in the workspace's
 * time zone.
 */

/** A variant's fields an audit row may name, in the order they are shown. */
export const auditedVariantFields = [
  'sku',
  'barcode',
  'price',
  'cost',
  'images',
  'status',
  'position',
] as const;
export type AuditedVariantField = (typeof auditedVariantFields)[number];

/** One variant's change: added (after alone), removed (before alone) or changed (both). */
export interface VariantChange {
  key: string;
  /** The combination's value ids, in type order. */
  valueIds: string[];
  kind: 'added' | 'removed' | 'changed';
  /** Its changed fields (all of an added or removed one), in `auditedVariantFields` order, others after. */
  fields: { field: string; before: unknown; after: unknown }[];
}

type FieldsByKey = Record<string, Record<string, unknown>>;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Value ids are UUIDs (36 characters), so a key splits at every 37th; a shorter part is kept whole. */
export function variantKeyValueIds(key: string): string[] {
  const ids: string[] = [];
  for (let start = 0; start < key.length; start += 37) ids.push(key.slice(start, start + 36));
  return ids;
}

const fieldRank = (field: string) => {
  const rank = (auditedVariantFields as readonly string[]).indexOf(field);
  return rank === -1 ? auditedVariantFields.length : rank;
};

/**
 * The variants of a `variants` change, `[before, after]`, one entry each, ordered by their
 * position (after the save, else before it), then key; null when the pair is not of that shape.
 */
export function readVariantChanges(pair: unknown): VariantChange[] | null {
  if (!Array.isArray(pair) || pair.length !== 2) return null;
  const [before, after] = pair.map((side) => (side === null ? {} : side)) as [unknown, unknown];
  if (!isObject(before) || !isObject(after)) return null;
  const sides = [before, after] as [FieldsByKey, FieldsByKey];
  if (![...Object.values(before), ...Object.values(after)].every(isObject)) return null;
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  const position = (key: string) => {
    const value = sides[1][key]?.position ?? sides[0][key]?.position;
    return typeof value === 'number' ? value : Number.MAX_SAFE_INTEGER;
  };
  keys.sort((a, b) => position(a) - position(b) || (a < b ? -1 : a > b ? 1 : 0));
  return keys.map((key) => {
    const was = sides[0][key];
    const now = sides[1][key];
    const names = [...new Set([...Object.keys(was ?? {}), ...Object.keys(now ?? {})])];
    names.sort((a, b) => fieldRank(a) - fieldRank(b));
    return {
      key,
      valueIds: variantKeyValueIds(key),
      kind: was && now ? 'changed' : now ? 'added' : 'removed',
      fields: names.map((field) => ({ field, before: was?.[field] ?? null, after: now?.[field] ?? null })),
    };
  });
}

/** What a variant's change is shown with: the reader's language, the workspace's, the values' names. */
export interface VariantChangeFormat {
  language: string;
  /** The workspace's base currency: a variant's price and cost are its minor units. */
  currency: string;
  /** The workspace's time zone, for an instant. */
  timeZone?: string;
  /** A value's name by id (the row's names), undefined for one no longer known. */
  valueName(id: string): LocalizedText | undefined;
  /** The name of a value no longer known. */
  unknownValue: string;
  /** A status as the product's page says it (Active, Inactive). */
  status(status: string): string;
  /** How many images a variant has ("2 images"). */
  images(count: number): string;
}

/** One variant's change as text: its title (its values' names), and each changed field's before and after (null: empty). */
export interface FormattedVariantChange {
  key: string;
  kind: VariantChange['kind'];
  title: string;
  fields: { field: string; before: string | null; after: string | null }[];
}

const instant = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
const calendarDay = /^\d{4}-\d{2}-\d{2}$/;

/** A variant field's value as the product's page shows it; null for none. */
export function formatVariantValue(
  field: string,
  value: unknown,
  format: VariantChangeFormat,
): string | null {
  if (value === null || value === undefined || value === '') return null;
  const { language } = format;
  if ((field === 'price' || field === 'cost') && typeof value === 'number')
    return formatMoney(value, format.currency, language);
  if (field === 'status' && typeof value === 'string') return format.status(value);
  if (field === 'images' && Array.isArray(value))
    return value.length === 0 ? null : format.images(value.length);
  // A position is counted from one, as the grid's rows are.
  if (field === 'position' && typeof value === 'number') return numberFormat(language).format(value + 1);
  if (typeof value === 'number') return numberFormat(language).format(value);
  // An instant is its date and time in the workspace's zone; a calendar day, that day.
  if (typeof value === 'string' && !Number.isNaN(Date.parse(value))) {
    if (instant.test(value))
      return `${formatDate(value, language, format.timeZone)} ${formatTime(value, language, format.timeZone)}`;
    if (calendarDay.test(value)) return formatDate(value, language);
  }
  if (typeof value === 'boolean' || typeof value === 'string') return String(value);
  return JSON.stringify(value);
}

/** The variant's title in the language: its values' names, joined as the grid joins them. */
export function variantChangeTitle(valueIds: readonly string[], format: VariantChangeFormat): string {
  return joinList(
    valueIds.map((id) => {
      const name = format.valueName(id);
      return name ? pickLocalized(name, format.language) : format.unknownValue;
    }),
    format.language,
  );
}

/** A `variants` change formatted variant by variant; null when the pair is not of that shape. */
export function formatVariantChanges(
  pair: unknown,
  format: VariantChangeFormat,
): FormattedVariantChange[] | null {
  const changes = readVariantChanges(pair);
  if (!changes) return null;
  return changes.map((change) => ({
    key: change.key,
    kind: change.kind,
    title: variantChangeTitle(change.valueIds, format),
    fields: change.fields.map(({ field, before, after }) => ({
      field,
      before: formatVariantValue(field, before, format),
      after: formatVariantValue(field, after, format),
    })),
  }));
}

/*
 * A product's chosen types and values (`options`: `[{ typeId, valueIds }]` in the product's type
 * order), one side of its audit row's `options` change, written as the product's page lists them:
 * each type's name, then its values' names, "Size: Small, Large · Milk: Oat".
 */

/** What a side of an `options` change is written with: the reader's language and the row's names. */
export interface ProductOptionsFormat {
  language: string;
  /** A type's or value's name by id (the row's names), undefined for one no longer known. */
  name(id: string): LocalizedText | undefined;
  /** The name of a type no longer known. */
  unknownType: string;
  /** The name of a value no longer known. */
  unknownValue: string;
}

/** What separates the types of a product's options: a middle dot, in every language. */
export const productOptionsSeparator = ' · ';

const isProductOption = (value: unknown): value is { typeId: string; valueIds: string[] } =>
  isObject(value) &&
  typeof value.typeId === 'string' &&
  Array.isArray(value.valueIds) &&
  value.valueIds.every((id) => typeof id === 'string');

/**
 * One side of an `options` change as text: each type's name, a colon, its values' names joined as
 * the language lists them (the name alone for a type without values), the types joined by `productOptionsSeparator`; '' for no options, null
 * when the side is not of that shape.
 */
export function formatProductOptions(side: unknown, format: ProductOptionsFormat): string | null {
  if (!Array.isArray(side) || !side.every(isProductOption)) return null;
  const named = (id: string, unknown: string) => {
    const name = format.name(id);
    return name ? pickLocalized(name, format.language) : unknown;
  };
  return side
    .map((option) => {
      const type = named(option.typeId, format.unknownType);
      const values = option.valueIds.map((id) => named(id, format.unknownValue));
      return values.length === 0 ? type : `${type}: ${joinList(values, format.language)}`;
    })
    .join(productOptionsSeparator);
}
