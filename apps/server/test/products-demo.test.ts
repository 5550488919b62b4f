import type { ProductRecord, VariationTypeRecord } from '@dukkan/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapDemo } from '../src/bootstrap.ts';
import { users, workspaces } from '../src/db/schema/index.ts';
import { api, dataOf } from './helpers/api.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { sessionCookie } from './helpers/workspaces.ts';

/** The first start's demo catalogue has variations, a product with variants and products with recipes. */
let t: TestApp;
let call: (path: string) => Promise<unknown>;

beforeAll(async () => {
  t = await createTestApp();
  await bootstrapDemo(t.db, { email: 'owner@demo.example', password: 'Owner#Pass1' });
  const [workspace] = await t.db.select().from(workspaces).where(eq(workspaces.name, 'Demo Store'));
  const [owner] = await t.db.select().from(users).where(eq(users.email, 'owner@demo.example'));
  const cookie = await sessionCookie(t.db, owner!.id);
  call = async (path) =>
    dataOf(
      await api(t.app, {
        url: `/api/${path}${path.includes('?') ? '&' : '?'}workspaceId=${workspace!.id}`,
        cookie,
      }),
    );
});
afterAll(async () => {
  await t?.close();
});

describe('the demo catalogue', () => {
  it('has every product priced in EGP, with VAT included', async () => {
    const products = (await call('products?sort=priceMin&pageSize=100')) as ProductRecord[];
    expect(products.map((product) => [product.code, product.priceMin])).toEqual([
      ['BAGUETTE', 30_00],
      ['CROISSANT', 45_00],
      ['MILK', 55_00],
      ['ESPRESSO', 60_00],
      ['LATTE', 85_00],
      ['BUTTER', 480_00],
      ['BEANS', 1_250_00],
    ]);
    expect(products.every((product) => product.taxId !== null && product.pricesIncludeTax)).toBe(true);
  });

  it('has variation types with their values, named in English and Arabic', async () => {
    const types = (await call('variation-types?sort=code')) as VariationTypeRecord[];
    expect(types.map((type) => type.code)).toEqual(['COLOUR', 'MILK', 'SIZE']);
    const size = types.find((type) => type.code === 'SIZE')!;
    expect(size.name).toEqual([
      { locale: 'en', value: 'Size' },
      { locale: 'ar', value: 'المقاس' },
    ]);
    expect(size.values.map((value) => value.name.map((entry) => entry.value).join(' / '))).toEqual([
      'Small / صغير',
      'Medium / وسط',
      'Large / كبير',
    ]);
  });

  it('has a latte of 6 variants (size × milk) with SKUs and barcodes, and a recipe', async () => {
    const [latte] = (await call('products?search=latte')) as ProductRecord[];
    expect(latte).toMatchObject({ code: 'LATTE', variantsCount: 6 });
    const detailed = (await call(`products/${latte!.id}`)) as ProductRecord;
    expect(detailed.variants!.map((variant) => variant.sku)).toEqual([
      'LATTE-S-WHOLE',
      'LATTE-S-OAT',
      'LATTE-M-WHOLE',
      'LATTE-M-OAT',
      'LATTE-L-WHOLE',
      'LATTE-L-OAT',
    ]);
    expect(detailed.variants![1]!.title).toEqual([
      { locale: 'en', value: 'Small, Oat milk' },
      { locale: 'ar', value: 'صغير، حليب الشوفان' },
    ]);
    expect(detailed.variants!.filter((variant) => variant.barcode !== null)).toHaveLength(3);
    expect(detailed.recipe!.map((line) => [line.ingredient.code, line.quantity])).toEqual([
      ['BEANS', 0.018],
      ['MILK', 0.25],
    ]);
    // Priced in EGP: each variant, and the range the list shows.
    expect(detailed.variants!.map((variant) => variant.price)).toEqual([
      85_00, 105_00, 100_00, 120_00, 115_00, 135_00,
    ]);
    expect([latte!.priceMin, latte!.priceMax]).toEqual([85_00, 135_00]);
    // The list's search finds it by a variant's SKU too.
    expect(
      ((await call('products?search=latte-m-oat')) as ProductRecord[]).map((product) => product.code),
    ).toEqual(['LATTE']);
  });
});
