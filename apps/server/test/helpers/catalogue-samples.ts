import { currencyCodes, defaultBaseCurrency } from '@dukkan/contract';
import { arabicWords, pick, type SampleInput, words } from './derived-samples.ts';
import { unique } from './workspaces.ts';

/**
 * The samples a resource's declared form cannot make (`derived-samples.ts` makes every other
 * one): a resource without a form of its own, or whose records must differ in a way its fields do
 * not say. Stored records are made from the same inputs through the engine
 * (`route-scenarios.ts`), as an API call would make them.
 */
export const sampleOverrides: Record<string, SampleInput> = {
  /** The roles page is a page of its own: the declaration has no form. */
  authorityRoles: (_records, variant = 0) => ({
    code: `${pick(words.slice(0, 5), variant)}-${unique('r')}`,
    title: `${pick(['Zulu', 'apple', 'Émile', 'Banana', 'cherry'], variant)} role`,
    permissions: [],
  }),
  /**
   * A product without options: no variants, no recipe (the products feature's own tests cover
   * those); its form is the product page's own.
   */
  products: (records = {}, variant = 0) => {
    const tag = unique('');
    const arabic = pick(arabicWords, variant);
    return {
      code: `${pick(words, variant)}-${unique('p')}`,
      name: [
        { locale: 'en', value: `${pick(words, variant)} ${tag}` },
        ...(arabic ? [{ locale: 'ar', value: `${arabic} ${tag}` }] : []),
      ],
      measurementUnitId: records.measurementUnits,
      // Minor units: its own price is its range, which the list sorts by.
      price: pick([12_50, 9_99, 1_000_00, 0, 45_50, 7], variant),
      cost: pick([null, 5_00, 600_00, 0], variant),
    };
  },
  /** One rate per currency in a workspace: each sample takes a currency no other took. */
  exchangeRates: (_records, variant = 0) => ({
    currency: nextCurrency(),
    rate: pick([1.5, 0.02, 3.75, 120, 9], variant),
  }),
};

// In use today (a withdrawn code is refused), and not a new workspace's base currency (it has no rate).
const currencies = currencyCodes.filter((code) => code !== defaultBaseCurrency);
let currencyIndex = 0;
/** A currency no earlier call of this run returned (exchange rates are unique per currency). */
function nextCurrency(): string {
  currencyIndex = (currencyIndex + 1) % currencies.length;
  return currencies[currencyIndex]!;
}
