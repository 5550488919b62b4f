import { z } from 'zod';
import { nameField, phoneField } from '../auth/fields.ts';
import { lazySchema } from '../lazy-schema.ts';
import { defineResource, inputSchemas, resourceVerbs } from '../resource-kit/define-resource.ts';
import { codeField, emptyAsNull, referenceField } from '../resource-kit/fields.ts';
import { validationCodes as codes } from '../validation-codes.ts';
import { codeFormField, fieldLabel, statusRecordFields } from './catalogue-common.ts';

/** How a customer came to the business. */
export const customerSources = ['walkIn', 'phone', 'online', 'referral', 'other'] as const;
export type CustomerSource = (typeof customerSources)[number];

export const customerInputSchema = lazySchema(() =>
  z.object({
    code: codeField,
    name: nameField,
    phones: z
      .array(phoneField, { error: codes.PHONES_REQUIRED })
      .min(1, codes.PHONES_REQUIRED)
      .max(10)
      .transform((list) => [...new Set(list)]),
    source: z.enum(customerSources, { error: codes.CUSTOMER_SOURCE_IS_INVALID }).default('walkIn'),
    brandId: referenceField.nullable().default(null),
  }),
);
export type CustomerInput = z.infer<typeof customerInputSchema>;

export const customerRecordSchema = lazySchema(() =>
  z.object({
    ...statusRecordFields,
    name: z.string(),
    phones: z.array(z.string()),
    source: z.enum(customerSources),
    brandId: z.string().nullable(),
  }),
);
export type CustomerRecord = z.infer<typeof customerRecordSchema>;

export const customersResource = defineResource({
  key: 'customers',
  path: 'customers',
  permission: 'Customers',
  menu: { order: 30 },
  verbs: resourceVerbs,
  schemas: inputSchemas(customerRecordSchema, customerInputSchema),
  search: ['code', 'name', 'phones'],
  sort: ['code', 'name', 'source', 'createdAt'],
  defaultSort: 'code',
  filters: [
    { field: 'source', kind: 'enum', values: customerSources },
    { field: 'brandId', kind: 'reference', resource: 'brands' },
  ],
  hasStatus: true,
  codePrefix: 'C',
  columns: [
    { field: 'code', kind: 'code' },
    { field: 'name', kind: 'text', primary: true },
    { field: 'phones', kind: 'phones' },
    { field: 'source', kind: 'enum' },
    { field: 'brandId', kind: 'reference', reference: 'brands' },
    { field: 'status', kind: 'status' },
  ],
  form: {
    fields: [
      {
        kind: 'group',
        label: fieldLabel('customers', 'identity'),
        columns: 2,
        fields: [
          codeFormField,
          { name: 'name', type: 'text', required: true, label: fieldLabel('customers', 'name') },
        ],
      },
      {
        name: 'phones',
        type: 'phoneNums',
        numbersOnly: true,
        required: true,
        label: fieldLabel('customers', 'phones'),
      },
      {
        kind: 'group',
        label: fieldLabel('customers', 'origin'),
        columns: 2,
        fields: [
          {
            name: 'source',
            type: 'select',
            required: true,
            defaultValue: 'walkIn',
            options: customerSources.map((source) => ({
              value: source,
              label: `resources.customers.values.source.${source}`,
            })),
            label: fieldLabel('customers', 'source'),
          },
          {
            name: 'brandId',
            type: 'select',
            optionSource: { kind: 'resource', resource: 'brands' },
            label: fieldLabel('customers', 'brandId'),
          },
        ],
      },
    ],
    // The form edits phones as entries (spec §3: a phone list may be plain strings); the input is numbers.
    schema: lazySchema(() =>
      customerInputSchema.extend({
        phones: z
          .array(z.object({ number: phoneField }), { error: codes.PHONES_REQUIRED })
          .min(1, codes.PHONES_REQUIRED)
          .transform((entries) => entries.map((entry) => entry.number))
          .pipe(customerInputSchema.shape.phones),
        brandId: emptyAsNull(referenceField),
      }),
    ),
    values: (customer) => ({
      code: customer.code,
      name: customer.name,
      phones: customer.phones.map((number) => ({ label: '', number })),
      source: customer.source,
      brandId: customer.brandId ?? '',
    }),
  },
});
