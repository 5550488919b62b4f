import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type ColumnDefinition, columnFitsField } from '../resource-kit/columns.ts';
import { checkResource, defineResource } from '../resource-kit/define-resource.ts';
import {
  countryField,
  currencyField,
  localizedDescriptionField,
  localizedNameField,
  localizedTitleField,
} from '../resource-kit/fields.ts';
import { validationCodes as codes } from '../validation-codes.ts';
import { resources } from './index.ts';
import { locationInputSchema } from './locations.ts';
import { taxInputSchema } from './taxes.ts';

const messages = (schema: z.ZodType, value: unknown) => {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error.issues.map((issue) => [issue.path.join('.'), issue.message]);
};

const localizedFields = [
  {
    what: 'name',
    field: localizedNameField,
    max: 60,
    required: codes.NAME_IS_REQUIRED,
    tooLong: codes.NAME_TOO_LONG,
    repeated: codes.NAME_LOCALE_REPEATED,
  },
  {
    what: 'tax title',
    field: localizedTitleField,
    max: 60,
    required: codes.TITLE_IS_REQUIRED,
    tooLong: codes.TITLE_TOO_LONG,
    repeated: codes.TITLE_LOCALE_REPEATED,
  },
  {
    what: 'description',
    field: localizedDescriptionField,
    max: 254,
    required: codes.DESCRIPTION_IS_REQUIRED,
    tooLong: codes.DESCRIPTION_TOO_LONG,
    repeated: codes.DESCRIPTION_LOCALE_REPEATED,
  },
];

describe.each(localizedFields)('localized $what', ({ field, max, required, tooLong, repeated }) => {
  it('accepts en alone, ar alone and both, trimmed', () => {
    expect(field.parse([{ locale: 'en', value: ' Tea ' }])).toEqual([{ locale: 'en', value: 'Tea' }]);
    expect(field.parse([{ locale: 'ar', value: ' علبة ' }])).toEqual([{ locale: 'ar', value: 'علبة' }]);
    expect(
      field.safeParse([
        { locale: 'en', value: 'Tea' },
        { locale: 'ar', value: 'شاي' },
      ]).success,
    ).toBe(true);
    expect(field.safeParse([{ locale: 'ar', value: 'ب'.repeat(max) }]).success).toBe(true);
  });
  it.each([
    ['no entries', [], 'required'],
    ['blank value', [{ locale: 'en', value: ' ' }], 'required'],
    ['blank Arabic value', [{ locale: 'ar', value: ' ' }], 'required'],
    ['one character too many', [{ locale: 'en', value: 'x'.repeat(max + 1) }], 'tooLong'],
    ['one Arabic character too many', [{ locale: 'ar', value: 'ب'.repeat(max + 1) }], 'tooLong'],
    [
      'en twice',
      [
        { locale: 'en', value: 'a' },
        { locale: 'en', value: 'b' },
      ],
      'repeated',
    ],
    [
      'ar twice',
      [
        { locale: 'ar', value: 'أ' },
        { locale: 'ar', value: 'ب' },
      ],
      'repeated',
    ],
    ['another language', [{ locale: 'fr', value: 'Thé' }], 'required'],
    ['not a list (a text in one language, as before)', 'Tea', 'required'],
  ] as const)('%s → its %s code', (_label, value, rule) => {
    const code = { required, tooLong, repeated }[rule];
    expect(messages(field, value).map(([, message]) => message)).toContain(code);
  });
});

describe('catalogue fields', () => {
  it('currencies are ISO 4217 and countries ISO 3166 alpha-2', () => {
    expect(currencyField.safeParse('SAR').success).toBe(true);
    expect(messages(currencyField, 'XYZ')).toEqual([['', codes.CURRENCY_IS_INVALID]]);
    expect(messages(currencyField, 'sar')[0]?.[1]).toBe(codes.CURRENCY_IS_INVALID);
    // Withdrawn codes the runtime's Intl still names are refused too.
    for (const withdrawn of ['HRK', 'ZWL', 'SLL', 'ANG', 'BGN'])
      expect(messages(currencyField, withdrawn)).toEqual([['', codes.CURRENCY_IS_INVALID]]);
    expect(currencyField.safeParse('XCG').success).toBe(true);
    expect(countryField.safeParse('SA').success).toBe(true);
    expect(messages(countryField, 'QQ')).toEqual([['', codes.COUNTRY_IS_INVALID]]);
  });
  it('tax rate is 0–100', () => {
    const tax = { code: 'vat', title: [{ locale: 'en', value: 'VAT' }], country: 'SA' };
    expect(taxInputSchema.safeParse({ ...tax, rate: 0 }).success).toBe(true);
    expect(taxInputSchema.safeParse({ ...tax, rate: 100 }).success).toBe(true);
    expect(messages(taxInputSchema, { ...tax, rate: 100.5 })).toEqual([
      ['rate', codes.TAX_RATE_OUT_OF_RANGE],
    ]);
  });
  it('locations: at least one phone, closing not at opening, each day once', () => {
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

describe('declarations', () => {
  const record = z.object({
    id: z.uuid(),
    phones: z.array(z.string()),
    rate: z.number(),
    note: z.string().nullable(),
  });
  const declare = (columns: ColumnDefinition[]) =>
    checkResource(
      defineResource({
        key: 'suppliers',
        path: 'suppliers',
        permission: 'Brands',
        menu: { group: 'data', order: 999 },
        verbs: ['list'],
        schemas: { record, create: record, update: record.partial() },
        search: [],
        sort: [],
        defaultSort: 'id',
        filters: [],
        hasStatus: false,
        columns,
      }),
    );

  it('accepts columns whose kind fits their field', () => {
    expect(() =>
      declare([
        { field: 'phones', kind: 'phones' },
        { field: 'rate', kind: 'percent' },
        { field: 'note', kind: 'text' },
      ]),
    ).not.toThrow();
  });
  it.each([
    ['phones', 'text', 'a text column cannot show phones'],
    ['note', 'phones', 'a phones column cannot show note'],
    ['note', 'number', 'a number column cannot show note'],
    ['rate', 'text', 'a text column cannot show rate'],
  ] as const)('refuses %s shown as %s', (field, kind, message) => {
    expect(() => declare([{ field, kind }])).toThrow(message);
  });
  it('every registered resource declares fitting columns (checked by `checkResource` as the server starts)', () => {
    for (const definition of resources)
      for (const column of definition.columns ?? [])
        expect(
          columnFitsField(
            column.kind,
            (definition.schemas.record.shape as Record<string, z.ZodType>)[column.field]!,
          ),
          `${definition.key}.${column.field}`,
        ).toBe(true);
  });
});
