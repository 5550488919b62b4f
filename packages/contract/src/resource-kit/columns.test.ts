import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { paymentsResource } from '../resources/subscriptions.ts';
import { type ColumnDefinition, columnFitsField } from './columns.ts';
import { checkResource, defineResource } from './define-resource.ts';

const invoice = z.object({ id: z.string(), amount: z.int(), currency: z.string(), note: z.string() });
const declare = (columns: ColumnDefinition[]) =>
  checkResource(
    defineResource({
      key: 'invoices',
      path: 'invoices',
      permission: 'Payments',
      menu: { group: 'data', order: 999 },
      verbs: ['list'],
      schemas: { record: invoice, create: z.object({}), update: z.object({}) },
      search: [],
      sort: [],
      defaultSort: 'id',
      filters: [],
      hasStatus: false,
      columns,
    }),
  );

describe('money columns', () => {
  it('show an integer amount whose currency is another field of the record', () => {
    expect(columnFitsField('money', z.int())).toBe(true);
    expect(columnFitsField('money', z.string())).toBe(false);
    expect(() => declare([{ field: 'amount', kind: 'money', currencyField: 'currency' }])).not.toThrow();
  });

  it('are in the base currency without a currency field, and refused naming a field the record lacks', () => {
    expect(() => declare([{ field: 'amount', kind: 'money' }])).not.toThrow();
    expect(() => declare([{ field: 'amount', kind: 'money', currencyField: 'currencyCode' }])).toThrow(
      'the column amount names currencyCode, not a field of its record',
    );
    expect(() => declare([{ field: 'amount', kind: 'money', rangeTo: 'amountMax' }])).toThrow(
      'names amountMax, not a field of its record',
    );
  });

  it("show a payment's amount in its own currency", () => {
    expect(paymentsResource.columns?.find((column) => column.field === 'amount')).toEqual({
      field: 'amount',
      kind: 'money',
      currencyField: 'currency',
    });
  });
});
