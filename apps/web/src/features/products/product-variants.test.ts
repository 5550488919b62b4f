import { describe, expect, it } from 'vitest';
import { productFormSchema, productFormValues, productUpdateInput } from './product-form.ts';
import { latte, milk, size } from './product-test-data.ts';
import {
  nextEdits,
  variantEditsToSend,
  variantOptionsOf,
  variantRows,
  withEdits,
} from './product-variants.ts';

const types = new Map([size, milk].map((type) => [type.id, type]));

describe('the product page’s variants', () => {
  const options = variantOptionsOf(latte.options, types)!;
  const base = variantRows(options, latte.variants ?? [], 'en');

  it('are the combinations in the generator’s order, with what is stored under each key', () => {
    expect(base).toHaveLength(12);
    expect(base[0]).toMatchObject({ title: 'Small, Whole', sku: 'LAT-S-WHOLE', status: 'active' });
    expect(base[5]?.title).toBe('Medium, Skim');
    expect(base.map((row) => row.key)).toEqual(latte.variants?.map((variant) => variant.key));
  });

  it('cannot be told while a chosen type is unknown', () => {
    expect(variantOptionsOf(latte.options, new Map([[size.id, size]]))).toBeNull();
  });

  it('keep only the changed fields of the rows an edit replaced, and forget an edit undone', () => {
    const edited = base.map((row, index) => (index === 3 ? { ...row, sku: 'X' } : row));
    const edits = nextEdits(new Map(), base, base, edited);
    expect([...edits]).toEqual([[base[3]!.key, { sku: 'X' }]]);
    const shown = withEdits(base, edits);
    expect(shown[2]).toBe(base[2]);
    expect(variantEditsToSend(base, edits)).toEqual([{ key: base[3]!.key, sku: 'X' }]);

    const undone = shown.map((row, index) => (index === 3 ? { ...row, sku: null } : row));
    expect(nextEdits(edits, base, shown, undone).size).toBe(0);
  });

  it('send no edit of a combination no longer chosen', () => {
    const edits = new Map([[base[11]!.key, { sku: 'GONE' }]]);
    const fewer = variantOptionsOf(
      [latte.options[0]!, { typeId: milk.id, valueIds: [milk.values[0]!.id] }],
      types,
    )!;
    expect(variantEditsToSend(variantRows(fewer, latte.variants ?? [], 'en'), edits)).toEqual([]);
  });
});

describe('a stored product’s update', () => {
  it('sends only what changed', () => {
    const values = productFormValues(latte);
    const unchanged = productFormSchema('EGP').parse(values);
    expect(productUpdateInput(unchanged, latte, [])).toEqual({});

    const renamed = productFormSchema('EGP').parse({
      ...values,
      code: 'LAT-2',
      name: { en: 'Latte', ar: '' },
    });
    expect(productUpdateInput(renamed, latte, [])).toEqual({
      code: 'LAT-2',
      name: [{ locale: 'en', value: 'Latte' }],
    });
  });
});
