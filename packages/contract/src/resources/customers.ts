import { z } from 'zod';
import { nameField, phoneField } from '../auth/fields.ts';
import { defineResource } from '../resource-kit/define-resource.ts';
import { codeField, referenceField } from '../resource-kit/fields.ts';
import { validationCodes as codes } from '../validation-codes.ts';
import { statusRecordFields } from './catalogue-common.ts';

/** How a customer came to the business. */
export const customerSources = ['walkIn', 'phone', 'online', 'referral', 'other'] as const;
export type CustomerSource = (typeof customerSources)[number];

export const customerInputSchema = z.object({
  code: codeField,
  name: nameField,
  phones: z
    .array(phoneField, { error: codes.PHONES_REQUIRED })
    .min(1, codes.PHONES_REQUIRED)
    .max(10)
    .transform((list) => [...new Set(list)]),
  source: z.enum(customerSources).default('walkIn'),
  brandId: referenceField.nullable().default(null),
});
export type CustomerInput = z.infer<typeof customerInputSchema>;

export const customerRecordSchema = z.object({
  ...statusRecordFields,
  name: z.string(),
  phones: z.array(z.string()),
  source: z.enum(customerSources),
  brandId: z.string().nullable(),
});
export type CustomerRecord = z.infer<typeof customerRecordSchema>;

export const customersResource = defineResource({
  key: 'customers',
  path: 'customers',
  permission: 'Customers',
  verbs: ['list', 'get', 'filters', 'create', 'bulk', 'update', 'delete'],
  schemas: {
    record: customerRecordSchema,
    create: customerInputSchema,
    update: customerInputSchema.partial(),
  },
  search: ['code', 'name', 'phones'],
  sort: ['code', 'name', 'source', 'createdAt'],
  defaultSort: 'code',
  filters: [
    { field: 'source', kind: 'enum', values: customerSources },
    { field: 'brandId', kind: 'reference' },
  ],
  hasStatus: true,
});
