import { z } from 'zod';
import { defineResource } from '../resource-kit/define-resource.ts';
import { currencyField, idField, timestampField } from '../resource-kit/fields.ts';
import { validationCodes as codes } from '../validation-codes.ts';

export const exchangeRateInputSchema = z.object({
  currency: currencyField,
  rate: z
    .number({ error: codes.RATE_MUST_BE_POSITIVE })
    .positive(codes.RATE_MUST_BE_POSITIVE)
    .max(1_000_000_000, codes.RATE_MUST_BE_POSITIVE),
});
export type ExchangeRateInput = z.infer<typeof exchangeRateInputSchema>;

export const exchangeRateRecordSchema = z.object({
  id: idField,
  currency: z.string(),
  rate: z.number(),
  createdAt: timestampField,
  updatedAt: timestampField,
});
export type ExchangeRateRecord = z.infer<typeof exchangeRateRecordSchema>;

/** One rate per currency and workspace (`currency` is unique); rates are edited, never deleted. */
export const exchangeRatesResource = defineResource({
  key: 'exchangeRates',
  path: 'exchange-rates',
  permission: 'ExchangeRate',
  verbs: ['list', 'get', 'filters', 'create', 'bulk', 'update'],
  schemas: {
    record: exchangeRateRecordSchema,
    create: exchangeRateInputSchema,
    update: exchangeRateInputSchema.partial(),
  },
  search: ['currency'],
  sort: ['currency', 'rate', 'createdAt'],
  defaultSort: 'currency',
  filters: [],
  hasStatus: false,
});
