import { describe, expect, it } from 'vitest';
import { countryCodes, countryOptions, currencyCodes, currencyOptions } from './countries-and-currencies.ts';

/** Names that occur more than once among the labels. */
const repeated = (labels: string[]) => labels.filter((label, index) => labels.indexOf(label) !== index);

/** ISO 4217 codes withdrawn from circulation, some still offered by `Intl.supportedValuesOf`. */
const withdrawn = `
  HRK SLL VEF VEB ZWL ZWD MRO STD BYR LTL LVL EEK ANG BGN CYP MTL SKK SIT DEM FRF ITL ESP TRL ROL
  GHC ZMK MZM SDD CSD YUM AFA AZM TMM XEU`
  .trim()
  .split(/\s+/);

describe('country and currency choices', () => {
  it.each(['en', 'ar'])('no two countries share a name in %s', (language) => {
    const options = countryOptions(language);
    expect(options).toHaveLength(249);
    expect(repeated(options.map((option) => option.label))).toEqual([]);
    // Every code is one the runtime names (not the code given back).
    for (const option of options) expect(option.label, option.value).not.toBe(option.value);
  });

  it.each(['en', 'ar'])('no two currencies share a name in %s', (language) => {
    const names = new Intl.DisplayNames([language], { type: 'currency' });
    expect(repeated(currencyCodes.map((code) => names.of(code) ?? code))).toEqual([]);
    expect(repeated(currencyOptions(language).map((option) => option.label))).toEqual([]);
  });

  it('offers no withdrawn currency, and the ones merchants here use', () => {
    expect(currencyCodes.filter((code) => withdrawn.includes(code))).toEqual([]);
    for (const code of ['EGP', 'USD', 'SAR', 'AED', 'EUR', 'KWD', 'QAR', 'SLE', 'ZWG', 'XCG'])
      expect(currencyCodes, code).toContain(code);
    expect(currencyOptions('en').find((option) => option.value === 'EGP')?.label).toBe(
      'EGP · Egyptian Pound',
    );
    expect(new Set(currencyCodes).size).toBe(currencyCodes.length);
  });

  it('offers no withdrawn country code that repeats a current one', () => {
    for (const code of ['UK', 'SU', 'YU', 'CS', 'ZR', 'BU', 'TP', 'DD', 'FX', 'AN', 'EU', 'UN', 'ZZ'])
      expect(countryCodes, code).not.toContain(code);
    for (const code of ['EG', 'SA', 'AE', 'GB', 'RS', 'PS', 'SS', 'CW', 'SX', 'BQ'])
      expect(countryCodes, code).toContain(code);
  });

  it("keeps a record's stored withdrawn code among the choices, named, so the form does not lose it", () => {
    const options = currencyOptions('en', ['EGP', 'HRK']);
    expect(options.filter((option) => option.value === 'EGP')).toHaveLength(1);
    expect(options.find((option) => option.value === 'HRK')?.label).toBe('HRK · Croatian Kuna');
    expect(countryOptions('ar', ['UK']).find((option) => option.value === 'UK')?.label).toBe(
      'المملكة المتحدة',
    );
    expect(currencyOptions('en').some((option) => option.value === 'HRK')).toBe(false);
  });
});
