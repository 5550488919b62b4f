import { currencyCodes, defaultBaseCurrency } from '@dukkan/contract';
import { unique } from './workspaces.ts';

/**
 * A valid input of each catalogue resource; `records` maps a resource key to a record of the
 * workspace it is sent to (a location names its brand, a variation value its type, a product its
 * measurement unit). Stored records are made from the same inputs through the engine
 * (`route-scenarios.ts`), as an API call would make them. Inputs of different `variant`s differ
 * in every sortable field, in orders where a byte-wise sort and a linguistic one disagree, and
 * every searched text carries a value of its own.
 */
export type SampleInput = (records?: Record<string, string>, variant?: number) => Record<string, unknown>;

/** Byte-wise these sort Banana, Zulu, apple, cherry, zebra, Émile, ångström; linguistically apple, ångström, Banana… */
const words = ['cherry', 'Zulu', 'apple', 'Émile', 'Banana', 'zebra', 'ångström'];
/** Arabic names, one missing: an Arabic reader sorts that record by its English name. */
const arabicWords = ['تمر', 'أحمد', undefined, 'باب', 'ياسمين', 'ثوم', 'جبن'];
const pick = <T>(list: readonly T[], variant: number) => list[variant % list.length]!;
const name = (variant: number) => {
  const tag = unique('');
  const ar = pick(arabicWords, variant);
  return [
    { locale: 'en', value: `${pick(words, variant)} ${tag}` },
    ...(ar ? [{ locale: 'ar', value: `${ar} ${tag}` }] : []),
  ];
};
/** A localized text of its own in English, and in Arabic but where the Arabic word is missing. */
const localizedText = (variant: number, what: string) => {
  const tag = unique('');
  const ar = pick(arabicWords, variant);
  return [
    { locale: 'en', value: `${pick(words, variant)} ${what} ${tag}` },
    ...(ar ? [{ locale: 'ar', value: `${ar} ${what} ${tag}` }] : []),
  ];
};
const code = (prefix: string, variant: number) => `${pick(words, variant)}-${unique(prefix)}`;
const text = (variant: number, what: string) => `${pick(words, variant)} ${what} ${unique('')}`;
const day = (year: number, variant: number) =>
  `${year + ((variant * 5) % 7)}-0${1 + (variant % 9)}-1${variant % 9}`;
/** A phone number of its own: 05 and nine digits. */
const phone = () => `05${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;

export const catalogueSamples: Record<string, SampleInput> = {
  brands: (_records, variant = 0) => ({
    code: code('b', variant),
    name: name(variant),
    creationDate: day(2010, variant),
    currencies: ['SAR'],
  }),
  locations: (records = {}, variant = 0) => ({
    code: code('l', variant),
    name: name(variant),
    brandId: records.brands,
    openingDate: day(2015, variant),
    workingHours: [{ day: 'monday', opensAt: 9 * 3600, closesAt: 17 * 3600 }],
    address: text(variant, 'Road'),
    phones: [{ label: 'Front', number: phone() }],
  }),
  taxes: (_records, variant = 0) => ({
    code: code('t', variant),
    title: localizedText(variant, 'tax'),
    country: pick(['SA', 'EG', 'AE', 'FR', 'DE', 'BH'], variant),
    rate: pick([15, 5, 14.5, 0, 100, 7], variant),
  }),
  measurementUnits: (_records, variant = 0) => ({
    code: code('u', variant),
    name: name(variant),
    symbol: text(variant, 'u'),
  }),
  categories: (_records, variant = 0) => ({
    code: code('c', variant),
    name: name(variant),
    description: localizedText(variant, 'things'),
  }),
  wasteCategories: (_records, variant = 0) => ({
    code: code('w', variant),
    name: name(variant),
    description: localizedText(variant, 'waste'),
  }),
  productTags: (_records, variant = 0) => ({ code: code('g', variant), name: name(variant) }),
  variationTypes: (_records, variant = 0) => ({ code: code('vt', variant), name: name(variant) }),
  /** A value of the target workspace's type; without a position it goes last in its type. */
  variationValues: (records = {}, variant = 0) => ({
    code: code('vv', variant),
    name: name(variant),
    typeId: records.variationTypes,
  }),
  /** A product without options: no variants, no recipe (the products feature's own tests cover those). */
  products: (records = {}, variant = 0) => ({
    code: code('p', variant),
    name: name(variant),
    measurementUnitId: records.measurementUnits,
    // Minor units: its own price is its range, which the list sorts by.
    price: pick([12_50, 9_99, 1_000_00, 0, 45_50, 7], variant),
    cost: pick([null, 5_00, 600_00, 0], variant),
  }),
  customers: (_records, variant = 0) => ({
    code: code('k', variant),
    name: text(variant, 'Omar'),
    phones: [phone()],
    source: pick(['online', 'walkIn', 'referral', 'phone', 'other'], variant),
  }),
  exchangeRates: (_records, variant = 0) => ({
    currency: nextCurrency(),
    rate: pick([1.5, 0.02, 3.75, 120, 9], variant),
  }),
};

// In use today (a withdrawn code is refused), and not a new workspace's base currency (it has no rate).
const currencies = currencyCodes.filter((code) => code !== defaultBaseCurrency);
let currencyIndex = 0;
/** A currency no earlier call of this run returned (exchange rates are unique per currency). */
export function nextCurrency(): string {
  currencyIndex = (currencyIndex + 1) % currencies.length;
  return currencies[currencyIndex]!;
}
