import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  localizedDescriptionField,
  localizedDescriptionFormField,
  localizedNameField,
  localizedNameFormField,
  localizedNameFormValues,
  localizedTitleField,
  localizedTitleFormField,
} from '../resource-kit/fields.ts';
import { listFormFields } from '../resource-kit/form-fields.ts';
import { validationCodes as codes } from '../validation-codes.ts';
import { customersResource } from './customers.ts';
import { resources } from './index.ts';

const messages = (schema: z.ZodType, value: unknown) => {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error.issues.map((issue) => [issue.path.join('.'), issue.message]);
};

describe('localized name in a form (one box per language)', () => {
  it('becomes the stored list of the filled boxes, in either language or both', () => {
    expect(localizedNameFormField.parse({ en: ' Tea ', ar: '' })).toEqual([{ locale: 'en', value: 'Tea' }]);
    expect(localizedNameFormField.parse({ en: ' ', ar: ' علبة ' })).toEqual([
      { locale: 'ar', value: 'علبة' },
    ]);
    expect(localizedNameFormField.parse({ ar: 'علبة' })).toEqual([{ locale: 'ar', value: 'علبة' }]);
    expect(localizedNameFormField.parse({ en: 'Tea', ar: 'شاي' })).toEqual([
      { locale: 'en', value: 'Tea' },
      { locale: 'ar', value: 'شاي' },
    ]);
  });
  it('puts its messages under the box they are about; no name at all under the English one', () => {
    expect(messages(localizedNameFormField, { en: ' ', ar: '' })).toEqual([['en', codes.NAME_IS_REQUIRED]]);
    expect(messages(localizedNameFormField, {})).toEqual([['en', codes.NAME_IS_REQUIRED]]);
    expect(messages(localizedNameFormField, { en: 'Tea', ar: 'x'.repeat(61) })).toEqual([
      ['ar', codes.NAME_TOO_LONG],
    ]);
    expect(messages(localizedNameFormField, { en: 'x'.repeat(61), ar: '' })).toEqual([
      ['en', codes.NAME_TOO_LONG],
    ]);
  });
  it('accepts any two boxes (blank or not) exactly when one holds a name, as the API field does', () => {
    const box = fc.oneof(
      fc.constantFrom('', ' ', '\t', 'Tea', 'علبة', ' كوب '),
      fc.string({ maxLength: 60 }).filter((text) => !text.includes('\u0000')),
    );
    fc.assert(
      fc.property(box, box, (en, ar) => {
        const filled = [en, ar].some((text) => text.trim() !== '');
        const form = localizedNameFormField.safeParse({ en, ar });
        expect(form.success).toBe(filled);
        if (!form.success) {
          expect(messages(localizedNameFormField, { en, ar })).toEqual([['en', codes.NAME_IS_REQUIRED]]);
          return;
        }
        expect(form.data.map((entry) => entry.locale)).toEqual(
          (['en', 'ar'] as const).filter((locale) => ({ en, ar })[locale].trim() !== ''),
        );
        // What the form sends, the server takes.
        expect(localizedNameField.parse(form.data)).toEqual(form.data);
      }),
    );
  });
  it('reads a stored list back, whatever its order', () => {
    expect(
      localizedNameFormValues([
        { locale: 'ar', value: 'شاي' },
        { locale: 'en', value: 'Tea' },
      ]),
    ).toEqual({ en: 'Tea', ar: 'شاي' });
    expect(localizedNameFormValues([{ locale: 'ar', value: 'علبة' }])).toEqual({ en: '', ar: 'علبة' });
    expect(localizedNameFormValues(undefined)).toEqual({ en: '', ar: '' });
  });
});

describe.each([
  {
    what: 'tax title',
    form: localizedTitleFormField,
    api: localizedTitleField,
    max: 60,
    required: codes.TITLE_IS_REQUIRED,
    tooLong: codes.TITLE_TOO_LONG,
  },
  {
    what: 'description',
    form: localizedDescriptionFormField,
    api: localizedDescriptionField,
    max: 254,
    required: codes.DESCRIPTION_IS_REQUIRED,
    tooLong: codes.DESCRIPTION_TOO_LONG,
  },
])('localized $what in a form, as a name is', ({ form, api, max, required, tooLong }) => {
  it('puts its own codes under the box they are about; no text at all under the English one', () => {
    expect(messages(form, { en: ' ', ar: '' })).toEqual([['en', required]]);
    expect(messages(form, { en: 'Tea', ar: 'x'.repeat(max + 1) })).toEqual([['ar', tooLong]]);
    expect(form.parse({ en: '', ar: ' ضريبة ' })).toEqual([{ locale: 'ar', value: 'ضريبة' }]);
  });
  it('accepts any two boxes exactly when one holds a text, and the API takes what it makes', () => {
    const box = fc.oneof(
      fc.constantFrom('', ' ', 'VAT', 'ضريبة', ' رسوم '),
      fc.string({ maxLength: max }).filter((text) => !text.includes('\u0000')),
    );
    fc.assert(
      fc.property(box, box, (en, ar) => {
        const parsed = form.safeParse({ en, ar });
        expect(parsed.success).toBe([en, ar].some((text) => text.trim() !== ''));
        if (parsed.success) expect(api.parse(parsed.data)).toEqual(parsed.data);
      }),
    );
  });
});

describe('customer phones in a form (numbers only)', () => {
  const form = customersResource.form!;
  const base = { code: 'C-1', name: 'Sara', source: 'walkIn', brandId: '' };

  it('entries become plain numbers; an empty brand choice is no brand', () => {
    const input = form.schema.parse({
      ...base,
      phones: [
        { label: '', number: '0500000001' },
        { label: '', number: '0500000002' },
      ],
    });
    expect(input).toMatchObject({ phones: ['0500000001', '0500000002'], brandId: null });
  });
  it('a bad number is named by its entry; no entry at all is refused', () => {
    expect(messages(form.schema, { ...base, phones: [{ label: '', number: '12' }] })).toEqual([
      ['phones.0.number', codes.PHONE_TOO_SHORT],
    ]);
    expect(messages(form.schema, { ...base, phones: [] })).toEqual([['phones', codes.PHONES_REQUIRED]]);
  });
});

describe.each(
  resources.filter((resource) => resource.form).map((resource) => [resource.key, resource] as const),
)('the declared form of %s', (_key, resource) => {
  const fields = listFormFields(resource.form!.fields);
  it('names only fields of the resource input, each once', () => {
    const inputFields = Object.keys(resource.schemas.create.shape);
    for (const field of fields) expect(inputFields, field.name).toContain(field.name.split('.')[0]);
    expect(new Set(fields.map((field) => field.name)).size).toBe(fields.length);
  });
  it('labels every field with a translation key', () => {
    for (const field of fields) expect(field.label).toMatch(/^resources\.\w+\.(fields|weekdays)\./);
  });
});
