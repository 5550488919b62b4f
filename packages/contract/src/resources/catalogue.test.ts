import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { countryField, currencyField, localizedNameField } from '../resource-kit/fields.ts';
import { validationCodes as codes } from '../validation-codes.ts';
import { locationInputSchema } from './locations.ts';
import { taxInputSchema } from './taxes.ts';

const messages = (schema: z.ZodType, value: unknown) => {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error.issues.map((issue) => [issue.path.join('.'), issue.message]);
};

describe('localized name', () => {
  it('accepts en alone and en with ar, trimmed', () => {
    expect(localizedNameField.parse([{ locale: 'en', value: ' Tea ' }])).toEqual([
      { locale: 'en', value: 'Tea' },
    ]);
    expect(
      localizedNameField.safeParse([
        { locale: 'en', value: 'Tea' },
        { locale: 'ar', value: 'شاي' },
      ]).success,
    ).toBe(true);
  });
  it.each([
    ['no entries', [], codes.NAME_IS_REQUIRED],
    ['ar only', [{ locale: 'ar', value: 'شاي' }], codes.NAME_IS_REQUIRED],
    ['blank value', [{ locale: 'en', value: ' ' }], codes.NAME_IS_REQUIRED],
    ['61 characters', [{ locale: 'en', value: 'x'.repeat(61) }], codes.NAME_TOO_LONG],
    [
      'en twice',
      [
        { locale: 'en', value: 'a' },
        { locale: 'en', value: 'b' },
      ],
      codes.NAME_LOCALE_REPEATED,
    ],
    ['not a list', 'Tea', codes.NAME_IS_REQUIRED],
  ])('%s → %s', (_label, value, code) => {
    expect(messages(localizedNameField, value).map(([, message]) => message)).toContain(code);
  });
});

describe('catalogue fields', () => {
  it('currencies are ISO 4217 and countries ISO 3166 alpha-2', () => {
    expect(currencyField.safeParse('SAR').success).toBe(true);
    expect(messages(currencyField, 'XYZ')).toEqual([['', codes.CURRENCY_IS_INVALID]]);
    expect(messages(currencyField, 'sar')[0]?.[1]).toBe(codes.CURRENCY_IS_INVALID);
    expect(countryField.safeParse('SA').success).toBe(true);
    expect(messages(countryField, 'QQ')).toEqual([['', codes.COUNTRY_IS_INVALID]]);
  });
  it('tax rate is 0–100', () => {
    const tax = { code: 'vat', title: 'VAT', country: 'SA' };
    expect(taxInputSchema.safeParse({ ...tax, rate: 0 }).success).toBe(true);
    expect(taxInputSchema.safeParse({ ...tax, rate: 100 }).success).toBe(true);
    expect(messages(taxInputSchema, { ...tax, rate: 100.5 })).toEqual([
      ['rate', codes.TAX_RATE_OUT_OF_RANGE],
    ]);
  });
  it('locations: at least one phone, closing after opening, each day once', () => {
    const location = {
      code: 'l1',
      name: [{ locale: 'en', value: 'Main' }],
      brandId: '00000000-0000-4000-8000-000000000000',
    };
    expect(messages(locationInputSchema, { ...location, phones: [] })).toEqual([
      ['phones', codes.PHONES_REQUIRED],
    ]);
    const phones = [{ label: 'Front', number: '+966110000000' }];
    expect(
      messages(locationInputSchema, {
        ...location,
        phones,
        workingHours: [{ day: 'monday', opensAt: 3600, closesAt: 3600 }],
      }),
    ).toEqual([['workingHours.0.closesAt', codes.WORKING_HOURS_INVALID]]);
    const day = { day: 'monday', opensAt: 0, closesAt: 3600 };
    expect(messages(locationInputSchema, { ...location, phones, workingHours: [day, day] })).toEqual([
      ['workingHours', codes.DAY_REPEATED],
    ]);
  });
});
