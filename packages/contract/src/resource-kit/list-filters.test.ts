import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { brandsResource } from '../resources/brands.ts';
import { productsResource } from '../resources/products.ts';
import { checkResource, defineResource, listFilters } from './define-resource.ts';

describe('listFilters', () => {
  it('offers the status after the declared filters when the declaration asks, the same array each time', () => {
    const filters = listFilters(productsResource);
    expect(filters.map((filter) => filter.field)).toEqual([
      ...productsResource.filters.map((filter) => filter.field),
      'status',
    ]);
    expect(filters.at(-1)).toEqual({ field: 'status', kind: 'enum', values: ['active', 'inactive'] });
    expect(listFilters(productsResource)).toBe(filters);
  });

  it('offers only the declared filters otherwise', () => {
    expect(brandsResource.hasStatus).toBe(true);
    expect(listFilters(brandsResource)).toBe(brandsResource.filters);
  });

  it('refuses a status filter on a resource without a status', () => {
    const record = z.object({ id: z.string() });
    const definition = defineResource({
      key: 'notes',
      path: 'notes',
      permission: 'Brands',
      menu: { group: 'data', order: 999 },
      verbs: ['list'],
      schemas: { record, create: z.object({}), update: z.object({}) },
      search: [],
      sort: [],
      defaultSort: 'id',
      filters: [],
      hasStatus: false,
      statusFilter: true,
    });
    expect(() => checkResource(definition)).toThrow('Resource notes: a status filter needs hasStatus');
  });
});
