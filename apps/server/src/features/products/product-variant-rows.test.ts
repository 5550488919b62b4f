import { describe, expect, it } from 'vitest';
import {
  productRowsInput,
  readVariantRows,
  type StoredProduct,
  type VariantRow,
} from './product-variant-rows.ts';

/*
 * A product's rows of an import read against the workspace's values and the product as stored.
 * Types `size` (small, large) and `milk` (whole, oat); ids stand for the UUIDs of the database.
 */

const names: Record<string, Record<string, string>> = {
  size: { small: 'Small', large: 'Large' },
  milk: { whole: 'Whole', oat: 'Oat' },
};
const lookup = {
  currency: 'EGP',
  headerOf: (id: string) => (id.startsWith('type:') ? `Type ${id.slice(5)}` : id.toUpperCase()),
  valueOf: (typeId: string, name: string) =>
    Object.entries(names[typeId] ?? {}).find(([, value]) => value.toLowerCase() === name.toLowerCase())?.[0],
};

const variantRow = (
  row: number,
  values: Record<string, string>,
  cells: Partial<VariantRow> = {},
): VariantRow => ({
  row,
  values: new Map(Object.entries(values)),
  ...cells,
});

const stored: StoredProduct = {
  options: [{ typeId: 'size', valueIds: ['small', 'large'] }],
  price: 1000,
  cost: null,
  variants: new Map([
    ['small', { sku: 'TEA-S', barcode: null, price: 1000, cost: 300 }],
    ['large', { sku: null, barcode: null, price: 1500, cost: null }],
  ]),
};

describe('readVariantRows', () => {
  it('reads values by name in any case, amounts in the currency, the marker as a clearing', () => {
    const { rows, errors } = readVariantRows(
      [
        {
          row: 2,
          cells: new Map<string, string | number>([
            ['type:size', 'small'],
            ['price', '12.50'],
            ['cost', '[clear]'],
            ['sku', "'=A1"],
          ]),
        },
      ],
      lookup,
    );
    expect(errors).toEqual([]);
    expect(rows).toEqual([
      { row: 2, values: new Map([['size', 'small']]), price: 1250, cost: null, sku: '=A1' },
    ]);
  });

  it('names a value the type lacks and a cell its column cannot read', () => {
    const { errors } = readVariantRows(
      [
        {
          row: 3,
          cells: new Map<string, string | number>([
            ['type:size', 'Huge'],
            ['price', 'ten'],
          ]),
        },
      ],
      lookup,
    );
    expect(errors).toEqual([
      {
        row: 3,
        column: 'Type size',
        code: 'IMPORT_VALUE_NOT_FOUND',
        params: { value: 'Huge', type: 'Type size' },
      },
      { row: 3, column: 'PRICE', code: 'IMPORT_CELL_INVALID' },
    ]);
  });
});

describe('productRowsInput', () => {
  it('rows as stored add nothing: no options, no variant edits, no price', () => {
    const result = productRowsInput(
      [
        variantRow(2, { size: 'small' }, { sku: 'tea-s', price: 1000, cost: 300 }),
        variantRow(3, { size: 'large' }, { price: 1500 }),
      ],
      stored,
      lookup,
    );
    expect(result).toMatchObject({ input: {}, errors: [] });
  });

  it('edits a variant found by its values with the cells that differ, and keeps the variants it leaves out', () => {
    const result = productRowsInput(
      [variantRow(2, { size: 'large' }, { price: 1700, cost: null })],
      stored,
      lookup,
    );
    expect(result.input).toEqual({ variants: [{ key: 'large', price: 1700 }] });
    expect(result.locate('variants.0.price')).toEqual({ row: 2, column: 'PRICE' });
  });

  it('adds values the product lacks to its options, after its own', () => {
    const result = productRowsInput([variantRow(4, { size: 'medium' }, { price: 1200 })], stored, lookup);
    expect(result.input).toEqual({
      options: [{ typeId: 'size', valueIds: ['small', 'large', 'medium'] }],
      variants: [{ key: 'medium', price: 1200 }],
    });
  });

  it('a new product takes the types its rows name, in their order, and its own price from a row without values', () => {
    const result = productRowsInput(
      [
        variantRow(2, { milk: 'oat', size: 'small' }, { price: 2000 }),
        variantRow(3, { milk: 'whole', size: 'small' }),
        variantRow(4, {}, { price: 1800, cost: 500 }),
      ],
      undefined,
      lookup,
    );
    expect(result).toMatchObject({
      errors: [],
      input: {
        options: [
          { typeId: 'milk', valueIds: ['oat', 'whole'] },
          { typeId: 'size', valueIds: ['small'] },
        ],
        variants: [{ key: 'oat-small', price: 2000 }],
        price: 1800,
        cost: 500,
      },
    });
    expect(result.locate('price')).toEqual({ row: 4, column: 'PRICE' });
  });

  it("refuses a row missing one of the product's types, a type the product's variants lack, and a repeated variant", () => {
    const result = productRowsInput(
      [
        variantRow(2, { milk: 'oat' }),
        variantRow(3, { size: 'small', milk: 'oat' }),
        variantRow(4, { size: 'large' }),
        variantRow(5, { size: 'large' }),
        variantRow(6, {}, { sku: 'X' }),
      ],
      stored,
      lookup,
    );
    expect(result.errors).toEqual([
      { row: 2, column: 'Type milk', code: 'IMPORT_TYPE_NOT_OF_PRODUCT', params: { type: 'Type milk' } },
      { row: 2, column: 'Type size', code: 'IMPORT_VARIANT_VALUE_MISSING', params: { type: 'Type size' } },
      { row: 3, column: 'Type milk', code: 'IMPORT_TYPE_NOT_OF_PRODUCT', params: { type: 'Type milk' } },
      { row: 5, code: 'IMPORT_ROW_REPEATED', params: { row: 4 } },
      { row: 6, column: 'SKU', code: 'IMPORT_VARIANT_VALUES_REQUIRED' },
    ]);
  });
});
