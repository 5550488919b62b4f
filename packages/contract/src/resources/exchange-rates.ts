import { z } from 'zod';
import { exchangeRateLimits } from '../domain/exchange-rates.ts';
import { lazySchema } from '../lazy-schema.ts';
import { defineResource, inputSchemas } from '../resource-kit/define-resource.ts';
import { currencyField, idField, timestampField, typedNumber } from '../resource-kit/fields.ts';
import { validationCodes as codes } from '../validation-codes.ts';
import { fieldLabel } from './catalogue-common.ts';

export const exchangeRateInputSchema = lazySchema(() =>
  z.object({
    currency: currencyField,
    rate: typedNumber(
      z
        .number({ error: codes.RATE_MUST_BE_POSITIVE })
        .positive(codes.RATE_MUST_BE_POSITIVE)
        .min(exchangeRateLimits.min, codes.RATE_MUST_BE_POSITIVE)
        .max(exchangeRateLimits.max, codes.RATE_MUST_BE_POSITIVE),
    ),
  }),
);
export type ExchangeRateInput = z.infer<typeof exchangeRateInputSchema>;

export const exchangeRateRecordSchema = lazySchema(() =>
  z.object({
    id: idField,
    currency: z.string(),
    rate: z.number(),
    createdAt: timestampField,
    updatedAt: timestampField,
  }),
);
export type ExchangeRateRecord = z.infer<typeof exchangeRateRecordSchema>;

/** One rate per currency and workspace (`currency` is unique); rates are edited, never deleted. */
export const exchangeRatesResource = defineResource({
  key: 'exchangeRates',
  path: 'exchange-rates',
  permission: 'ExchangeRate',
  menu: { group: 'settings', order: 30 },
  verbs: ['list', 'get', 'filters', 'create', 'bulk', 'update'],
  schemas: inputSchemas(exchangeRateRecordSchema, exchangeRateInputSchema),
  search: ['currency'],
  sort: ['currency', 'rate', 'createdAt'],
  defaultSort: 'currency',
  filters: [],
  hasStatus: false,
  // Rates are against the workspace's base currency (its settings), which cannot have one itself.
  intro: 'resources.exchangeRates.intro',
  columns: [
    { field: 'currency', kind: 'currency', primary: true },
    { field: 'rate', kind: 'number' },
    { field: 'updatedAt', kind: 'date' },
  ],
  form: {
    fields: [
      {
        name: 'currency',
        type: 'select',
        required: true,
        optionSource: { kind: 'currencies' },
        label: fieldLabel('exchangeRates', 'currency'),
      },
      {
        name: 'rate',
        type: 'number',
        required: true,
        step: 0.000001,
        label: fieldLabel('exchangeRates', 'rate'),
        tooltipMessage: fieldLabel('exchangeRates', 'rateHint'),
      },
    ],
    schema: exchangeRateInputSchema,
    values: (rate) => ({ currency: rate.currency, rate: rate.rate }),
  },
});
