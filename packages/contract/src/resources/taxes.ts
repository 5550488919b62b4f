import { z } from 'zod';
import { lazySchema } from '../lazy-schema.ts';
import { defineResource, inputSchemas, resourceVerbs } from '../resource-kit/define-resource.ts';
import {
  codeField,
  countryField,
  localizedTextFormValues,
  localizedTextRecordField,
  localizedTitleField,
  localizedTitleFormField,
  typedNumber,
} from '../resource-kit/fields.ts';
import { validationCodes as codes } from '../validation-codes.ts';
import { codeFormField, fieldLabel, localizedFormGroup, statusRecordFields } from './catalogue-common.ts';

export const taxInputSchema = lazySchema(() =>
  z.object({
    code: codeField,
    /** In English, in Arabic or in both, like a name. */
    title: localizedTitleField,
    country: countryField,
    /** Percent, 0–100. */
    rate: typedNumber(
      z
        .number({ error: codes.TAX_RATE_OUT_OF_RANGE })
        .min(0, codes.TAX_RATE_OUT_OF_RANGE)
        .max(100, codes.TAX_RATE_OUT_OF_RANGE),
    ),
  }),
);
export type TaxInput = z.infer<typeof taxInputSchema>;

export const taxRecordSchema = lazySchema(() =>
  z.object({
    ...statusRecordFields,
    title: localizedTextRecordField,
    country: z.string(),
    rate: z.number(),
  }),
);
export type TaxRecord = z.infer<typeof taxRecordSchema>;

export const taxesResource = defineResource({
  key: 'taxes',
  path: 'taxes',
  permission: 'Taxes',
  menu: { group: 'data', order: 100 },
  verbs: resourceVerbs,
  schemas: inputSchemas(taxRecordSchema, taxInputSchema),
  search: ['code', 'title', 'country'],
  sort: ['code', 'title', 'country', 'rate', 'createdAt'],
  defaultSort: 'code',
  filters: [],
  hasStatus: true,
  codePrefix: 'TAX',
  columns: [
    { field: 'code', kind: 'code' },
    { field: 'title', kind: 'localizedText', primary: true },
    { field: 'country', kind: 'country' },
    { field: 'rate', kind: 'percent' },
    { field: 'status', kind: 'status' },
  ],
  form: {
    fields: [
      codeFormField,
      localizedFormGroup('title', {
        group: fieldLabel('taxes', 'title'),
        en: fieldLabel('taxes', 'titleEn'),
        ar: fieldLabel('taxes', 'titleAr'),
      }),
      {
        kind: 'group',
        label: fieldLabel('taxes', 'rateGroup'),
        columns: 2,
        fields: [
          {
            name: 'country',
            type: 'select',
            required: true,
            optionSource: { kind: 'countries' },
            label: fieldLabel('taxes', 'country'),
          },
          {
            name: 'rate',
            type: 'number',
            required: true,
            defaultMin: 0,
            defaultMax: 100,
            step: 0.01,
            label: fieldLabel('taxes', 'rate'),
            tooltipMessage: fieldLabel('taxes', 'rateHint'),
          },
        ],
      },
    ],
    schema: lazySchema(() => taxInputSchema.extend({ title: localizedTitleFormField })),
    values: (tax) => ({
      code: tax.code,
      title: localizedTextFormValues(tax.title),
      country: tax.country,
      rate: tax.rate,
    }),
  },
});
