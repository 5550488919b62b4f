import { maxVariantsPerProduct, type ProductRecord, validationCodes } from '@dukkan/contract';
import { count, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { products, productVariants, productVariantValues } from '../src/db/schema/index.ts';
import { dataOf, errorOf, expectValidation } from './helpers/api.ts';
import {
  keysOf,
  type productCatalogue,
  type TestVariationType,
  uniqueBarcode,
  useCatalogueShop,
} from './helpers/product-catalogue.ts';
import type { TestApp } from './helpers/test-app.ts';
import { unique } from './helpers/workspaces.ts';

/**
 * A product at the limit: 2,048 variants (16 × 16 × 8 values, 6,144 value links) written in one
 * request, edited all at once, and refused whole, whatever row the refusal is about.
 */
let t: TestApp;
let shop: { id: string };
let catalogue: ReturnType<typeof productCatalogue>;
let types: TestVariationType[];
let keys: string[];

useCatalogueShop('Big Shop', async (given) => {
  ({ t, shop, catalogue } = given);
  types = [
    await catalogue.numberedType('A', 16),
    await catalogue.numberedType('B', 16),
    await catalogue.numberedType('C', 8),
  ];
  keys = keysOf(...types.map((type) => type.values));
});

const options = () => types.map((type) => ({ typeId: type.id, valueIds: type.values }));

async function counts() {
  const [productRows] = await t.db
    .select({ count: count() })
    .from(products)
    .where(eq(products.workspaceId, shop.id));
  const [variantRows] = await t.db
    .select({ count: count() })
    .from(productVariants)
    .where(eq(productVariants.workspaceId, shop.id));
  const [links] = await t.db
    .execute(sql`select count(*)::int as count from ${productVariantValues}`)
    .then((result) => (result as unknown as { rows: { count: number }[] }).rows);
  return { products: productRows!.count, variants: variantRows!.count, links: links!.count };
}
async function skusOf(productId: string) {
  return (
    await t.db
      .select({ sku: productVariants.sku })
      .from(productVariants)
      .where(eq(productVariants.productId, productId))
      .orderBy(productVariants.position)
  ).map((row) => row.sku);
}

describe('2,048 variants in one request', () => {
  it('creates every combination with its SKU and value links; the list finds the product by the last SKU', async () => {
    expect(keys).toHaveLength(maxVariantsPerProduct);
    const prefix = unique('BIG-');
    const barcode = uniqueBarcode();
    const before = await counts();
    const product = dataOf<ProductRecord>(
      await catalogue.create({
        options: options(),
        variants: keys.map((key, index) => ({
          key,
          sku: `${prefix}-${index}`,
          ...(index === 1000 ? { barcode } : {}),
        })),
      }),
    );
    expect(product.variantsCount).toBe(2048);
    expect(product.variants!.map((variant) => variant.key)).toEqual(keys);
    expect(product.variants![2047]!.title[0]!.value).toBe('A16, B16, C8');
    expect(await counts()).toEqual({
      products: before.products + 1,
      variants: before.variants + 2048,
      links: before.links + 6144,
    });
    expect(await catalogue.listCodes(`search=${prefix}-2047`)).toEqual([product.code]);
    expect(await catalogue.listCodes(`search=${barcode}`)).toEqual([product.code]);
  });

  it('edits all 2,048 in one PATCH', async () => {
    const product = await catalogue.created({ options: options() });
    const prefix = unique('EDIT-');
    const edited = dataOf<ProductRecord>(
      await catalogue.update(product.id, {
        variants: keys.map((key, index) => ({ key, sku: `${prefix}-${index}`, status: 'inactive' })),
      }),
    );
    expect(edited.variants!.map((variant) => variant.id)).toEqual(
      product.variants!.map((variant) => variant.id),
    );
    expect(edited.variants!.every((variant) => variant.status === 'inactive')).toBe(true);
    expect(await skusOf(product.id)).toEqual(keys.map((_, index) => `${prefix}-${index}`));
  });
});

describe('refused whole', () => {
  it('a SKU clash on the last of 2,048 edits: the create writes nothing, the edit changes nothing', async () => {
    const taken = unique('TAKEN-');
    const holder = await catalogue.created({
      options: [{ typeId: types[2]!.id, valueIds: [types[2]!.values[0]!] }],
      variants: [{ key: types[2]!.values[0]!, sku: taken }],
    });
    const prefix = unique('LAST-');
    const edits = keys.map((key, index) => ({ key, sku: index === 2047 ? taken : `${prefix}-${index}` }));
    const before = await counts();
    expect(
      expectValidation(await catalogue.create({ options: options(), variants: edits }), 'variants.2047.sku')
        .issues,
    ).toEqual([{ path: 'variants.2047.sku', message: validationCodes.SKU_MUST_BE_UNIQUE }]);
    expect(await counts()).toEqual(before);

    const product = await catalogue.created({ options: options() });
    expectValidation(
      await catalogue.update(product.id, { variants: edits }),
      'variants.2047.sku',
      validationCodes.SKU_MUST_BE_UNIQUE,
    );
    expect((await skusOf(product.id)).every((sku) => sku === null)).toBe(true);
    expect(await skusOf(holder.id)).toEqual([taken]);
  });

  it('a failure at the last write (the value links, refused by the database) leaves nothing of the product', async () => {
    const failing = types[2]!.values[7]!;
    // A stand-in for what no check foresees (a lost connection, a constraint added later): the
    // database refuses the statement writing the value links (C8 is in the last combination),
    // the save's last write, after the product and its 2,048 variants were inserted.
    await t.db.execute(
      sql.raw(`create function refuse_last_link() returns trigger language plpgsql as $$
        begin
          if exists (select 1 from added where value_id = '${failing}') then
            raise exception 'refused by the test';
          end if;
          return null;
        end $$`),
    );
    await t.db.execute(
      sql.raw(`create trigger refuse_last_link after insert on product_variant_values
        referencing new table as added for each statement execute function refuse_last_link()`),
    );
    try {
      const before = await counts();
      const refused = await catalogue.create({
        options: options(),
        variants: keys.map((key, index) => ({ key, sku: unique(`ROLLBACK-${index}-`) })),
      });
      expect(refused.status).toBe(500);
      expect(errorOf(refused).code).toBe('INTERNAL');
      expect(await counts()).toEqual(before);
    } finally {
      await t.db.execute(sql.raw('drop trigger refuse_last_link on product_variant_values'));
      await t.db.execute(sql.raw('drop function refuse_last_link()'));
    }
    // Without the trigger the same request goes through.
    expect((await catalogue.create({ options: options() })).status).toBe(201);
  });
});
