import { maxMoneyMinorUnits, type ProductRecord, validationCodes } from '@dukkan/contract';
import { count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { products, productVariants } from '../src/db/schema/index.ts';
import { api, dataOf, expectValidation } from './helpers/api.ts';
import { bilingual, productCatalogue, sizes, useCatalogueShop } from './helpers/product-catalogue.ts';
import type { TestApp } from './helpers/test-app.ts';
import { addMember, createWorkspace, tagsExcept, unique } from './helpers/workspaces.ts';

/**
 * Prices on products and variants: integers of the base currency's minor units, stored and
 * answered on every read; the product keeps the range over its active variants (its own price
 * without variants) for the list to show and sort by; its tax is one of the workspace's taxes,
 * which cannot then be deleted.
 */
let t: TestApp;
let shop: { id: string };
let catalogue: ReturnType<typeof productCatalogue>;

useCatalogueShop('Price Shop', (given) => {
  ({ t, shop, catalogue } = given);
});

async function createTax(as = catalogue) {
  return dataOf<{ id: string }>(
    await as.call('POST', 'taxes', {
      code: unique('vat'),
      title: bilingual('VAT 14%', 'ضريبة القيمة المضافة ١٤٪'),
      country: 'EG',
      rate: 14,
    }),
  ).id;
}
async function productCount() {
  const [row] = await t.db.select({ count: count() }).from(products).where(eq(products.workspaceId, shop.id));
  return row!.count;
}
const rangeOf = (product: ProductRecord) => [product.priceMin, product.priceMax];

describe('a product without variants', () => {
  it('stores its price, cost, tax and whether prices include it; its range is its price', async () => {
    const taxId = await createTax();
    const created = await catalogue.created({ price: 12_50, cost: 8_00, taxId, pricesIncludeTax: false });
    expect(created).toMatchObject({ price: 12_50, cost: 8_00, taxId, pricesIncludeTax: false });
    expect(rangeOf(created)).toEqual([12_50, 12_50]);
    expect(created.references![taxId]).toEqual({ name: bilingual('VAT 14%', 'ضريبة القيمة المضافة ١٤٪') });
    expect(await catalogue.get(created.id)).toMatchObject({ price: 12_50, cost: 8_00, taxId });
    const [listed] = dataOf<ProductRecord[]>(await catalogue.call('GET', `products?search=${created.code}`));
    expect(listed).toMatchObject({ price: 12_50, cost: 8_00, priceMin: 12_50, priceMax: 12_50, taxId });

    const updated = dataOf<ProductRecord>(await catalogue.update(created.id, { price: 15_00, cost: null }));
    expect(updated).toMatchObject({ price: 15_00, cost: null, taxId, pricesIncludeTax: false });
    expect(rangeOf(updated)).toEqual([15_00, 15_00]);
  });

  it('defaults: price 0, no cost, no tax, prices include the tax', async () => {
    const created = await catalogue.created();
    expect(created).toMatchObject({ price: 0, cost: null, taxId: null, pricesIncludeTax: true });
    expect(rangeOf(created)).toEqual([0, 0]);
  });
});

describe('variants', () => {
  it('each has a price and a cost; new ones start at the product’s own; the range is over the active ones', async () => {
    const size = await catalogue.variationType('Size', 'المقاس', sizes);
    const [small, medium, large] = size.values as [string, string, string];
    const created = await catalogue.created({
      price: 20_00,
      cost: 9_00,
      options: [{ typeId: size.id, valueIds: [small, medium] }],
      variants: [{ key: medium, price: 25_00, cost: 11_00 }],
    });
    expect(created.variants!.map((variant) => [variant.price, variant.cost])).toEqual([
      [20_00, 9_00],
      [25_00, 11_00],
    ]);
    expect(rangeOf(created)).toEqual([20_00, 25_00]);

    // A new value adds a variant at the product's own price; an edit by key prices another.
    const grown = dataOf<ProductRecord>(
      await catalogue.update(created.id, {
        options: [{ typeId: size.id, valueIds: [small, medium, large] }],
        variants: [{ key: small, price: 18_00, cost: null }],
      }),
    );
    expect(grown.variants!.map((variant) => [variant.price, variant.cost])).toEqual([
      [18_00, null],
      [25_00, 11_00],
      [20_00, 9_00],
    ]);
    expect(rangeOf(grown)).toEqual([18_00, 25_00]);
    expect((await catalogue.get(created.id)).variants).toEqual(grown.variants);
    const stored = await t.db
      .select({ price: productVariants.price, cost: productVariants.cost })
      .from(productVariants)
      .where(eq(productVariants.productId, created.id))
      .orderBy(productVariants.position);
    expect(stored).toEqual([
      { price: 18_00, cost: null },
      { price: 25_00, cost: 11_00 },
      { price: 20_00, cost: 9_00 },
    ]);

    // An inactive variant leaves the range; the product's own price does not enter it.
    const narrowed = dataOf<ProductRecord>(
      await catalogue.update(created.id, { price: 1_00, variants: [{ key: medium, status: 'inactive' }] }),
    );
    expect(rangeOf(narrowed)).toEqual([18_00, 20_00]);
    // Every variant inactive: no range.
    const off = dataOf<ProductRecord>(
      await catalogue.update(created.id, {
        variants: [small, large].map((key) => ({ key, status: 'inactive' })),
      }),
    );
    expect(rangeOf(off)).toEqual([null, null]);
    // Dropping every option: the product sells by itself again, at its own price.
    const alone = dataOf<ProductRecord>(await catalogue.update(created.id, { options: [] }));
    expect(alone.variantsCount).toBe(0);
    expect(rangeOf(alone)).toEqual([1_00, 1_00]);
  });

  it('a bulk +10 % on every variant is one save; the range follows', async () => {
    const size = await catalogue.numberedType('S', 12);
    const created = await catalogue.created({
      options: [{ typeId: size.id, valueIds: size.values }],
      variants: size.values.map((key, index) => ({ key, price: 100_00 + index * 5 })),
    });
    const raised = dataOf<ProductRecord>(
      await catalogue.update(created.id, {
        variants: created.variants!.map((variant) => ({
          key: variant.key,
          price: Math.round((variant.price * 11) / 10),
        })),
      }),
    );
    expect(raised.variants!.map((variant) => variant.price)).toEqual(
      size.values.map((_, index) => Math.round(((100_00 + index * 5) * 11) / 10)),
    );
    expect(rangeOf(raised)).toEqual([110_00, Math.round(((100_00 + 55) * 11) / 10)]);
  });
});

describe('the list', () => {
  it('sorts by the lowest price, products without a range last either way', async () => {
    const prefix = unique('sortp');
    const size = await catalogue.variationType('Size', 'المقاس', sizes);
    const make = (suffix: string, fields: Record<string, unknown>) =>
      catalogue.created({ code: `${prefix}-${suffix}`, ...fields });
    await make('a', { price: 30_00 });
    await make('b', { price: 5_00 });
    await make('c', {
      options: [{ typeId: size.id, valueIds: size.values }],
      variants: size.values.map((key) => ({ key, status: 'inactive' })),
    });
    await make('d', {
      options: [{ typeId: size.id, valueIds: size.values }],
      variants: size.values.map((key, index) => ({ key, price: 10_00 + index })),
    });
    expect(await catalogue.listCodes(`search=${prefix}&sort=priceMin`)).toEqual(
      ['b', 'd', 'a', 'c'].map((suffix) => `${prefix}-${suffix}`),
    );
    expect(await catalogue.listCodes(`search=${prefix}&sort=-priceMin`)).toEqual(
      ['a', 'd', 'b', 'c'].map((suffix) => `${prefix}-${suffix}`),
    );
  });
});

describe('refusals', () => {
  it('a negative, fractional, non-numeric or too large price or cost: under the field, nothing saved', async () => {
    const before = await productCount();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ price: -1 }, 'price', validationCodes.MONEY_IS_NEGATIVE],
      [{ price: 12.5 }, 'price', validationCodes.MONEY_IS_INVALID],
      [{ price: '12.50' }, 'price', validationCodes.MONEY_IS_INVALID],
      [{ price: maxMoneyMinorUnits + 1 }, 'price', validationCodes.MONEY_TOO_LARGE],
      [{ cost: -5 }, 'cost', validationCodes.MONEY_IS_NEGATIVE],
      [{ pricesIncludeTax: 'yes' }, 'pricesIncludeTax', validationCodes.VALUE_IS_INVALID],
    ];
    for (const [fields, path, code] of cases) {
      expectValidation(await catalogue.create(fields), path, code);
    }
    expect(await productCount()).toBe(before);

    const size = await catalogue.variationType('Size', 'المقاس', sizes);
    const product = await catalogue.created({ options: [{ typeId: size.id, valueIds: size.values }] });
    const refused = await catalogue.update(product.id, {
      price: 3_00,
      variants: [
        { key: size.values[0], price: 5_00 },
        { key: size.values[1], price: -1 },
        { key: size.values[2], cost: maxMoneyMinorUnits + 1 },
      ],
    });
    expect(expectValidation(refused, 'variants.1.price').issues).toEqual([
      { path: 'variants.1.price', message: validationCodes.MONEY_IS_NEGATIVE },
      { path: 'variants.2.cost', message: validationCodes.MONEY_TOO_LARGE },
    ]);
    const unchanged = await catalogue.get(product.id);
    expect(unchanged.price).toBe(0);
    expect(unchanged.variants!.map((variant) => variant.price)).toEqual([0, 0, 0]);
  });

  it('another workspace’s tax, or none at all, is refused under taxId; a disabled one is not newly chosen', async () => {
    const other = await createWorkspace(t.db, 'Other Price Shop');
    const otherAdmin = await addMember(t.db, other.id, { isAdmin: true });
    const theirTax = await createTax(productCatalogue(t.app, other, otherAdmin));
    const before = await productCount();
    expectValidation(
      await catalogue.create({ taxId: theirTax }),
      'taxId',
      validationCodes.REFERENCE_NOT_FOUND,
    );
    expectValidation(
      await catalogue.create({ taxId: crypto.randomUUID() }),
      'taxId',
      validationCodes.REFERENCE_NOT_FOUND,
    );
    expect(await productCount()).toBe(before);
    const product = await catalogue.created();
    expectValidation(
      await catalogue.update(product.id, { taxId: theirTax }),
      'taxId',
      validationCodes.REFERENCE_NOT_FOUND,
    );
    expect((await catalogue.get(product.id)).taxId).toBeNull();

    const disabled = await createTax();
    expect((await catalogue.call('PATCH', `taxes/${disabled}`, { status: 'inactive' })).status).toBe(200);
    expectValidation(
      await catalogue.update(product.id, { taxId: disabled }),
      'taxId',
      validationCodes.REFERENCE_IS_DISABLED,
    );
  });

  it('a tax a product names cannot be deleted, naming the product; once unused, it can', async () => {
    const taxId = await createTax();
    const product = await catalogue.created({ name: bilingual('Espresso', 'إسبريسو'), taxId });
    const refused = await catalogue.call('DELETE', `taxes/${taxId}`);
    expect(expectValidation(refused, 'id').issues).toEqual([
      {
        path: 'id',
        message: validationCodes.RECORD_IN_USE_BY,
        params: { count: 1, names: 'Espresso' },
      },
    ]);
    expect((await catalogue.update(product.id, { taxId: null })).status).toBe(200);
    expect((await catalogue.call('DELETE', `taxes/${taxId}`)).status).toBe(200);
  });

  it('401 without a session, 403 without the tag, 404 for another workspace’s product', async () => {
    const product = await catalogue.created({ price: 5_00 });
    const anonymous = await api(t.app, {
      method: 'PATCH',
      url: `/api/products/${product.id}?workspaceId=${shop.id}`,
      body: { price: 1 },
    });
    expect(anonymous.status).toBe(401);
    const viewer = await addMember(t.db, shop.id, { tags: tagsExcept(['addProducts', 'editProducts']) });
    expect((await productCatalogue(t.app, shop, viewer).update(product.id, { price: 1 })).status).toBe(403);
    const other = await createWorkspace(t.db, 'Elsewhere');
    const otherAdmin = await addMember(t.db, other.id, { isAdmin: true });
    expect((await productCatalogue(t.app, other, otherAdmin).update(product.id, { price: 1 })).status).toBe(
      404,
    );
    expect((await catalogue.get(product.id)).price).toBe(5_00);
  });
});
