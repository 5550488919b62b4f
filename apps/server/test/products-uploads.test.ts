import { productsResource } from '@dukkan/contract';
import { getTableName } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  imageReferences,
  removeUnreferencedUploads,
  uploadedFileKey,
} from '../src/features/files/uploads.ts';
import { declaredImageFields } from '../src/resource-engine/images.ts';
import { createAppResources } from '../src/resources.ts';
import { api, dataOf, multipart, tinyPng } from './helpers/api.ts';
import { productCatalogue } from './helpers/product-catalogue.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { addMember, createWorkspace } from './helpers/workspaces.ts';

/**
 * A product's images and its variants' images are references of the uploads they show: the
 * clean-up of unreferenced uploads keeps them, and removes them once the product lets go.
 */
let t: TestApp;
let clock = new Date('2031-01-01T00:00:00Z');
const graceMs = 60 * 60 * 1000;

beforeAll(async () => {
  t = await createTestApp({ now: () => clock, configure: (config) => (config.uploads.graceMs = graceMs) });
});
afterAll(async () => {
  await t?.close();
});

describe('product and variant images are upload references', () => {
  it('the images of the product input and of its variant edits are declared image fields', () => {
    expect(declaredImageFields(productsResource)).toEqual(['images', 'variants.images']);
    const columns = imageReferences(createAppResources()).map(
      ({ table, column }) => `${getTableName(table)}.${column.name}`,
    );
    expect(columns).toEqual(expect.arrayContaining(['products.images', 'product_variants.images']));
  });

  it('a product image and a variant image stay past the grace period, an orphan goes; dropped images go later', async () => {
    const shop = await createWorkspace(t.db);
    const admin = await addMember(t.db, shop.id, { isAdmin: true });
    const catalogue = productCatalogue(t.app, shop, admin);
    const uploaded = await api(t.app, {
      method: 'POST',
      url: `/api/files/bulk?workspaceId=${shop.id}`,
      ...multipart(
        Array.from({ length: 3 }, () => ({
          field: 'files',
          filename: 'a.png',
          type: 'image/png',
          content: tinyPng,
        })),
      ),
      cookie: admin.cookie,
    });
    const [productImage, variantImage, orphan] = dataOf<{ urls: string[] }>(uploaded).urls as [
      string,
      string,
      string,
    ];
    const size = await catalogue.variationType('Size', 'المقاس', [
      ['Small', 'صغير'],
      ['Large', 'كبير'],
    ]);
    const product = await catalogue.created({
      images: [productImage],
      options: [{ typeId: size.id, valueIds: size.values }],
      variants: [{ key: size.values[1], images: [variantImage] }],
    });

    clock = new Date(clock.getTime() + graceMs + 60_000);
    const references = imageReferences(createAppResources());
    const sweep = () =>
      removeUnreferencedUploads(t.db, references, { store: t.app.fileStore, graceMs, now: clock });
    const isStored = async (path: string) => (await t.app.fileStore.size(uploadedFileKey(path)!)) !== null;
    expect(await sweep()).toEqual([orphan]);
    for (const kept of [productImage, variantImage]) {
      expect(await isStored(kept), kept).toBe(true);
    }

    // The variant lets go of its image, then the product of its own.
    await catalogue.update(product.id, { variants: [{ key: size.values[1], images: [] }] });
    expect(await sweep()).toEqual([variantImage]);
    await catalogue.update(product.id, { images: [] });
    expect(await sweep()).toEqual([productImage]);
    expect(await isStored(productImage)).toBe(false);
  });
});
