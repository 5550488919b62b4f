import { z } from 'zod';
import { lazySchema } from '../lazy-schema.ts';
import { defineResource, inputSchemas, resourceVerbs } from '../resource-kit/define-resource.ts';
import {
  codeField,
  currencyField,
  dateField,
  imageUrlField,
  localizedNameField,
  localizedNameFormField,
  localizedNameFormValues,
  localizedNameRecordField,
  singleImageFormField,
} from '../resource-kit/fields.ts';
import { validationCodes as codes } from '../validation-codes.ts';
import {
  codeAndNameColumns,
  codeAndNameFormFields,
  fieldLabel,
  statusRecordFields,
} from './catalogue-common.ts';

export const brandInputSchema = lazySchema(() =>
  z.object({
    code: codeField,
    name: localizedNameField,
    logo: imageUrlField.nullable().default(null),
    creationDate: dateField.nullable().default(null),
    currencies: z
      .array(currencyField)
      .max(50, codes.TOO_MANY_CURRENCIES)
      .transform((list) => [...new Set(list)])
      .default([]),
  }),
);
export type BrandInput = z.infer<typeof brandInputSchema>;

export const brandRecordSchema = lazySchema(() =>
  z.object({
    ...statusRecordFields,
    name: localizedNameRecordField,
    logo: z.string().nullable(),
    creationDate: z.string().nullable(),
    currencies: z.array(z.string()),
    locationsCount: z.number(),
  }),
);
export type BrandRecord = z.infer<typeof brandRecordSchema>;

export const brandsResource = defineResource({
  key: 'brands',
  path: 'brands',
  permission: 'Brands',
  menu: { group: 'data', order: 10 },
  verbs: resourceVerbs,
  schemas: inputSchemas(brandRecordSchema, brandInputSchema),
  search: ['code', 'name'],
  sort: ['code', 'name', 'creationDate', 'locationsCount', 'createdAt'],
  defaultSort: 'code',
  filters: [],
  hasStatus: true,
  codePrefix: 'BR',
  columns: [
    { field: 'logo', kind: 'image' },
    ...codeAndNameColumns,
    { field: 'currencies', kind: 'currencies' },
    { field: 'locationsCount', kind: 'number' },
    { field: 'creationDate', kind: 'date' },
    { field: 'status', kind: 'status' },
  ],
  form: {
    fields: [
      ...codeAndNameFormFields,
      { name: 'logo', type: 'imageUpload', multiple: false, label: fieldLabel('brands', 'logo') },
      { name: 'creationDate', type: 'date', mode: 'single', label: fieldLabel('brands', 'creationDate') },
      {
        name: 'currencies',
        type: 'select',
        isMulti: true,
        optionSource: { kind: 'currencies' },
        label: fieldLabel('brands', 'currencies'),
      },
    ],
    schema: lazySchema(() =>
      brandInputSchema.extend({ name: localizedNameFormField, logo: singleImageFormField }),
    ),
    values: (brand) => ({
      code: brand.code,
      name: localizedNameFormValues(brand.name),
      logo: brand.logo ? [brand.logo] : [],
      creationDate: brand.creationDate ?? undefined,
      currencies: brand.currencies,
    }),
  },
});
