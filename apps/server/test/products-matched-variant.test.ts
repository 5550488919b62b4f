import type { ProductRecord } from '@dukkan/contract';
import { describe, expect, it } from 'vitest';
import { dataOf } from './helpers/api.ts';
import {
  productCatalogue,
  sizes,
  type TestVariationType,
  uniqueBarcode,
  useCatalogueShop,
} from './helpers/product-catalogue.ts';
import type { TestApp } from './helpers/test-app.ts';
import { addMember, createWorkspace, unique } from './helpers/workspaces.ts';

/**
 * A searched products list says which variant it found a product by: the variant whose SKU or
 * barcode holds the search, when the product's own code and names do not; null otherwise.
 */
let t: TestApp;
let catalogue: ReturnType<typeof productCatalogue>;
let colour: TestVariationType;
let size: TestVariationType;

useCatalogueShop('Matched Variant Shop', async (given) => {
  ({ t, catalogue } = given);
  colour = await catalogue.variationType('Colour', 'اللون', [
    ['Red', 'أحمر'],
    ['Blue', 'أزرق'],
  ]);
  size = await catalogue.variationType('Size', 'المقاس', sizes);
});

/** The list's rows for a search (`pageSize` 100), by code. */
async function found(search: string, list = catalogue) {
  const records = dataOf<ProductRecord[]>(
    await list.call('GET', `products?pageSize=100&search=${encodeURIComponent(search)}`),
  );
  return new Map(records.map((record) => [record.code, record.matchedVariant]));
}

/** A product of Red and Blue in Small, Medium and Large, with the given SKUs and barcodes by `[colour, size]` index. */
async function tShirt(codes: { at: [number, number]; sku?: string; barcode?: string }[], name = 'T-shirt') {
  return catalogue.created({
    name: [
      { locale: 'en', value: name },
      { locale: 'ar', value: 'قميص' },
    ],
    options: [
      { typeId: colour.id, valueIds: colour.values },
      { typeId: size.id, valueIds: size.values },
    ],
    variants: codes.map(({ at: [c, s], sku, barcode }) => ({
      key: `${colour.values[c]}-${size.values[s]}`,
      ...(sku ? { sku } : {}),
      ...(barcode ? { barcode } : {}),
    })),
  });
}

const variantAt = (product: ProductRecord, c: number, s: number) =>
  product.variants!.find((variant) => variant.key === `${colour.values[c]}-${size.values[s]}`)!;

describe('the variant a search found a product by', () => {
  it("by a variant's SKU: that variant, titled by its values in both languages, with its codes", async () => {
    const sku = unique('MV-SKU-');
    const barcode = uniqueBarcode();
    const product = await tShirt([
      { at: [0, 2], sku, barcode },
      { at: [1, 0], sku: unique('MV-OTHER-') },
    ]);
    const redLarge = variantAt(product, 0, 2);

    // Typed in lower case: the search is folded, and the row names the variant as stored.
    const rows = await found(sku.toLowerCase());
    expect([...rows.keys()]).toEqual([product.code]);
    expect(rows.get(product.code)).toEqual({
      id: redLarge.id,
      title: [
        { locale: 'en', value: 'Red, Large' },
        { locale: 'ar', value: 'أحمر، كبير' },
      ],
      sku,
      barcode,
    });
    expect(redLarge.title).toEqual(rows.get(product.code)!.title);
  });

  it("by a variant's barcode: that variant", async () => {
    const barcode = uniqueBarcode();
    const product = await tShirt([
      { at: [0, 0], sku: unique('MV-B-') },
      { at: [1, 1], barcode },
    ]);
    const rows = await found(barcode);
    expect(rows.get(product.code)).toMatchObject({
      id: variantAt(product, 1, 1).id,
      sku: null,
      barcode,
      title: [
        { locale: 'en', value: 'Blue, Medium' },
        { locale: 'ar', value: 'أزرق، وسط' },
      ],
    });
  });

  it("by the product's own name or code: null, though its variants' codes hold the words too", async () => {
    const name = unique('Hoodie');
    // A SKU that holds the product's name: the name found it, not the variant.
    const product = await tShirt([{ at: [0, 0], sku: `${name}-RED` }], name);
    expect((await found(name)).get(product.code)).toBeNull();
    expect((await found(product.code)).get(product.code)).toBeNull();
    // Without a search every row says null.
    const all = dataOf<ProductRecord[]>(await catalogue.call('GET', 'products?pageSize=100'));
    expect(all.length).toBeGreaterThan(0);
    expect(all.every((record) => record.matchedVariant === null)).toBe(true);
  });

  it('a variant that is the typed code comes before one that only contains it', async () => {
    const base = unique('MV-EXACT-');
    // Red Small (first in the product's order) only contains the code; Blue Large is it.
    const product = await tShirt([
      { at: [0, 0], sku: `${base}0` },
      { at: [1, 2], sku: base },
    ]);
    expect((await found(base)).get(product.code)?.id).toBe(variantAt(product, 1, 2).id);
    // Contained only: the first in the product's order.
    expect((await found(base.slice(0, -1))).get(product.code)?.id).toBe(variantAt(product, 0, 0).id);
  });

  it('a code with a space in it: its words stay in step with the variants, and either word finds it', async () => {
    const [first, second, later] = [unique('MVW'), unique('MVW'), unique('MVW')];
    // The product's codes read "<first> <second> <later>": the third word is Blue Large's SKU.
    const product = await tShirt([
      { at: [0, 0], sku: `${first} ${second}` },
      { at: [1, 2], sku: later },
    ]);
    expect((await found(later)).get(product.code)?.id).toBe(variantAt(product, 1, 2).id);
    expect((await found(second)).get(product.code)).toMatchObject({
      id: variantAt(product, 0, 0).id,
      sku: `${first} ${second}`,
    });
  });

  it("another workspace's variant never appears, though it has the same SKU", async () => {
    const sku = unique('MV-SHARED-');
    const ours = await tShirt([{ at: [0, 1], sku }]);
    const other = await createWorkspace(t.db, 'Other Matched Variant Shop');
    const otherAdmin = await addMember(t.db, other.id, { isAdmin: true });
    const theirs = productCatalogue(t.app, other, otherAdmin);
    const theirSize = await theirs.variationType('Size', 'المقاس', sizes);
    const theirProduct = await theirs.created({
      options: [{ typeId: theirSize.id, valueIds: theirSize.values }],
      variants: [{ key: theirSize.values[1], sku }],
    });
    const onlyTheirs = unique('MV-THEIRS-');
    await theirs.update(theirProduct.id, { variants: [{ key: theirSize.values[2], sku: onlyTheirs }] });

    const rows = await found(sku);
    expect([...rows.keys()]).toEqual([ours.code]);
    expect(rows.get(ours.code)?.id).toBe(variantAt(ours, 0, 1).id);
    expect(await found(onlyTheirs)).toEqual(new Map());
    // And the other workspace finds its own.
    const theirRows = await found(sku, theirs);
    expect([...theirRows.keys()]).toEqual([theirProduct.code]);
    expect(theirRows.get(theirProduct.code)?.sku).toBe(sku);
  });
});
