import { type ProductRecord, productUpdateSchema, validationCodes } from '@dukkan/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemCaller } from '../src/resource-engine/storage.ts';
import { createAppResources } from '../src/resources.ts';
import { type ApiResponse, api, dataOf, expectValidation } from './helpers/api.ts';
import { firstLockWait } from './helpers/lock-wait.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { addMember, createWorkspace, type TestMember, unique } from './helpers/workspaces.ts';

/**
 * A product's recipe over HTTP: lines saved with the product and read back with their
 * ingredients; the product itself, another workspace's records, a variant of another product and
 * a loop of recipes at any depth refused (the loop named in the reader's language); a product a
 * recipe uses cannot be deleted. The functions behind it are tested directly in
 * recipes.functions.test.ts.
 */
let t: TestApp;
let shop: Workspace;
let other: Workspace;

interface Workspace {
  id: string;
  admin: TestMember;
  unitId: string;
}

type Name = { en?: string; ar?: string };
const nameOf = (name: Name) => [
  ...(name.en ? [{ locale: 'en', value: name.en }] : []),
  ...(name.ar ? [{ locale: 'ar', value: name.ar }] : []),
];

const call = (
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  path: string,
  body?: unknown,
  options: { workspace?: Workspace; language?: string } = {},
) => {
  const workspace = options.workspace ?? shop;
  return api(t.app, {
    method,
    url: `/api/${path}?workspaceId=${workspace.id}`,
    body,
    cookie: workspace.admin.cookie,
    headers: options.language ? { 'accept-language': options.language } : undefined,
  });
};

async function workspace(name: string): Promise<Workspace> {
  const { id } = await createWorkspace(t.db, name);
  const admin = await addMember(t.db, id, { isAdmin: true });
  const unit = dataOf<{ id: string }>(
    await api(t.app, {
      method: 'POST',
      url: `/api/measurement-units?workspaceId=${id}`,
      body: { code: unique('u'), name: nameOf({ en: 'Gram', ar: 'غرام' }), symbol: 'g' },
      cookie: admin.cookie,
    }),
  );
  return { id, admin, unitId: unit.id };
}

beforeAll(async () => {
  t = await createTestApp();
  shop = await workspace('Recipe Shop');
  other = await workspace('Other Recipe Shop');
});
afterAll(async () => {
  await t?.close();
});

async function product(name: Name, fields: Record<string, unknown> = {}, on = shop) {
  return dataOf<ProductRecord>(
    await call(
      'POST',
      'products',
      { code: unique('p'), name: nameOf(name), measurementUnitId: on.unitId, ...fields },
      { workspace: on },
    ),
  );
}
const get = async (id: string) => dataOf<ProductRecord>(await call('GET', `products/${id}`));
const line = (ingredientProductId: string, fields: Record<string, unknown> = {}) => ({
  ingredientProductId,
  quantity: 1,
  ...fields,
});
const setRecipe = (id: string, recipe: unknown[], language?: string) =>
  call('PATCH', `products/${id}`, { recipe }, { language });

/** A product with one variant per value of a new type, the values named as given. */
async function productWithVariants(name: Name, values: Name[], on = shop) {
  const type = dataOf<{ id: string }>(
    await call(
      'POST',
      'variation-types',
      { code: unique('vt'), name: nameOf({ en: 'Size' }) },
      { workspace: on },
    ),
  );
  const valueIds: string[] = [];
  for (const value of values) {
    valueIds.push(
      dataOf<{ id: string }>(
        await call(
          'POST',
          'variation-values',
          { code: unique('vv'), name: nameOf(value), typeId: type.id },
          { workspace: on },
        ),
      ).id,
    );
  }
  return product(name, { options: [{ typeId: type.id, valueIds }] }, on);
}

async function brand(on = shop) {
  return dataOf<{ id: string }>(
    await call(
      'POST',
      'brands',
      { code: unique('b'), name: nameOf({ en: 'House' }), creationDate: '2020-01-01', currencies: ['SAR'] },
      { workspace: on },
    ),
  ).id;
}

/** The RECIPE_CYCLE issue at the line, with the loop it names. */
function expectCycle(response: ApiResponse, index: number, cycle: string) {
  const error = expectValidation(response, `recipe.${index}.ingredientProductId`);
  expect(error.issues).toContainEqual({
    path: `recipe.${index}.ingredientProductId`,
    message: validationCodes.RECIPE_CYCLE,
    params: { cycle },
  });
}

describe('recipes over HTTP', () => {
  it('saves lines with the product and reads them back with their ingredients', async () => {
    const flour = await product({ en: 'Flour', ar: 'دقيق' });
    const cheese = await productWithVariants({ en: 'Cheese', ar: 'جبن' }, [
      { en: 'Small', ar: 'صغير' },
      { en: 'Large', ar: 'كبير' },
    ]);
    const large = cheese.variants!.find((variant) => variant.title[0]?.value === 'Large')!;
    const house = await brand();
    const pizza = await product(
      { en: 'Pizza' },
      {
        recipe: [
          line(flour.id, { quantity: 2.5, orderTypes: ['takeaway'], brandIds: [house] }),
          line(cheese.id, { ingredientVariantId: large.id, quantity: 0.25 }),
        ],
      },
    );
    const expected = [
      {
        id: expect.any(String),
        ingredientProductId: flour.id,
        ingredientVariantId: null,
        quantity: 2.5,
        orderTypes: ['takeaway'],
        brandIds: [house],
        ingredient: {
          code: flour.code,
          name: nameOf({ en: 'Flour', ar: 'دقيق' }),
          measurementUnitId: shop.unitId,
          variantTitle: null,
        },
      },
      {
        id: expect.any(String),
        ingredientProductId: cheese.id,
        ingredientVariantId: large.id,
        quantity: 0.25,
        orderTypes: [],
        brandIds: [],
        ingredient: {
          code: cheese.code,
          name: nameOf({ en: 'Cheese', ar: 'جبن' }),
          measurementUnitId: shop.unitId,
          variantTitle: nameOf({ en: 'Large', ar: 'كبير' }),
        },
      },
    ];
    expect(pizza.recipe).toEqual(expected);
    expect((await get(pizza.id)).recipe).toEqual(expected);

    // An update without `recipe` keeps it; with one, replaces it.
    await call('PATCH', `products/${pizza.id}`, { name: nameOf({ en: 'Pizza Margherita' }) });
    expect((await get(pizza.id)).recipe).toEqual(expected);
    const replaced = dataOf<ProductRecord>(await setRecipe(pizza.id, [line(cheese.id, { quantity: 3 })]));
    expect(replaced.recipe!.map((saved) => [saved.ingredientProductId, saved.quantity])).toEqual([
      [cheese.id, 3],
    ]);
  });

  it('refuses a quantity of 0, and the product itself as its ingredient, changing nothing', async () => {
    const flour = await product({ en: 'Flour' });
    const bread = await product({ en: 'Bread' }, { recipe: [line(flour.id)] });
    expectValidation(
      await setRecipe(bread.id, [line(flour.id, { quantity: 0 })]),
      'recipe.0.quantity',
      validationCodes.QUANTITY_MUST_BE_POSITIVE,
    );
    expectValidation(
      await setRecipe(bread.id, [line(flour.id), line(bread.id)]),
      'recipe.1.ingredientProductId',
      validationCodes.RECIPE_USES_ITSELF,
    );
    expect((await get(bread.id)).recipe).toEqual(bread.recipe);
  });

  it('refuses a quantity its column cannot keep (10^12, 0.0000001) at the field; keeps the largest and smallest it can exactly', async () => {
    const salt = await product({ en: 'Salt' });
    const soup = await product({ en: 'Soup' });
    // numeric(18, 6) above 0: 10^12 overflows it and 0.0000001 rounds to 0 there.
    expectValidation(
      await setRecipe(soup.id, [line(salt.id, { quantity: 1e12 })]),
      'recipe.0.quantity',
      validationCodes.QUANTITY_TOO_LARGE,
    );
    expectValidation(
      await setRecipe(soup.id, [line(salt.id, { quantity: 0.0000001 })]),
      'recipe.0.quantity',
      validationCodes.QUANTITY_TOO_SMALL,
    );
    // The last number under 10^12 (999999999999.9999) and one millionth.
    const largest = 1e12 - 2 ** -13;
    const saved = dataOf<ProductRecord>(
      await setRecipe(soup.id, [line(salt.id, { quantity: largest }), line(salt.id, { quantity: 0.000001 })]),
    );
    expect(saved.recipe!.map((kept) => kept.quantity)).toEqual([largest, 0.000001]);
    expect((await get(soup.id)).recipe!.map((kept) => kept.quantity)).toEqual([largest, 0.000001]);
  });

  it('refuses a loop of two or three recipes, naming it in the reader’s language', async () => {
    const a = await product({ en: 'Pizza', ar: 'بيتزا' });
    const b = await product({ en: 'Dough', ar: 'عجين' }, { recipe: [line(a.id)] });
    expectCycle(await setRecipe(a.id, [line(b.id)]), 0, 'Pizza → Dough → Pizza');
    expectCycle(await setRecipe(a.id, [line(b.id)], 'ar'), 0, 'بيتزا → عجين → بيتزا');

    // A → B → C → A; C has no Arabic name, so an Arabic reader gets its English one.
    const c = await product({ en: 'Starter' }, { recipe: [line(a.id)] });
    dataOf(await setRecipe(b.id, [line(c.id)]));
    expectCycle(await setRecipe(a.id, [line(b.id)]), 0, 'Pizza → Dough → Starter → Pizza');
    expectCycle(await setRecipe(a.id, [line(b.id)], 'ar-SA'), 0, 'بيتزا → عجين → Starter → بيتزا');
    expect((await get(a.id)).recipe).toEqual([]);
  });

  it("refuses another workspace's product and brand, and a variant of another product", async () => {
    const foreign = await product({ en: 'Foreign' }, {}, other);
    const foreignBrand = await brand(other);
    const flour = await product({ en: 'Flour' });
    const milk = await productWithVariants({ en: 'Milk' }, [{ en: 'Whole' }]);
    const milkVariant = milk.variants![0]!.id;
    const created = await call('POST', 'products', {
      code: unique('p'),
      name: nameOf({ en: 'Latte' }),
      measurementUnitId: shop.unitId,
      recipe: [line(foreign.id)],
    });
    expectValidation(created, 'recipe.0.ingredientProductId', validationCodes.REFERENCE_NOT_FOUND);

    const latte = await product({ en: 'Latte' });
    const refused = expectValidation(
      await setRecipe(latte.id, [
        line(foreign.id),
        line(flour.id, { brandIds: [foreignBrand] }),
        line(flour.id, { ingredientVariantId: milkVariant }),
      ]),
      'recipe.0.ingredientProductId',
    );
    expect(refused.issues).toEqual([
      { path: 'recipe.0.ingredientProductId', message: validationCodes.REFERENCE_NOT_FOUND },
      { path: 'recipe.1.brandIds.0', message: validationCodes.REFERENCE_NOT_FOUND },
      { path: 'recipe.2.ingredientVariantId', message: validationCodes.VARIANT_NOT_FOUND },
    ]);
    expect((await get(latte.id)).recipe).toEqual([]);
    // The milk's own variant is fine.
    expect(
      dataOf<ProductRecord>(await setRecipe(latte.id, [line(milk.id, { ingredientVariantId: milkVariant })]))
        .recipe![0]!.ingredientVariantId,
    ).toBe(milkVariant);
  });

  it('refuses to delete a product a recipe uses, naming the recipe’s product', async () => {
    const tomato = await product({ en: 'Tomato', ar: 'طماطم' });
    const salad = await product({ en: 'Salad', ar: 'سلطة' }, { recipe: [line(tomato.id)] });
    const refused = expectValidation(await call('DELETE', `products/${tomato.id}`), 'id');
    expect(refused.issues).toEqual([
      { path: 'id', message: validationCodes.RECORD_IN_USE_BY, params: { count: 1, names: 'Salad' } },
    ]);
    const refusedInArabic = expectValidation(
      await call('DELETE', `products/${tomato.id}`, undefined, { language: 'ar' }),
      'id',
    );
    expect(refusedInArabic.issues![0]!.params).toEqual({ count: 1, names: 'سلطة' });
    dataOf(await setRecipe(salad.id, []));
    dataOf(await call('DELETE', `products/${tomato.id}`));
  });

  // Two connections are needed for two saves at once; PGlite has one, so its writes never overlap.
  it.runIf(process.env.DATABASE_URL)(
    'two concurrent saves that each close half of a loop cannot both pass: the second waits, then is refused (PostgreSQL only)',
    async () => {
      // B uses C and D uses A; A using B and C using D together would make A → B → C → D → A.
      // Neither save touches a row of the other's, so only the recipe lock orders them.
      const a = await product({ en: 'A' });
      const d = await product({ en: 'D' }, { recipe: [line(a.id)] });
      const c = await product({ en: 'C' });
      const b = await product({ en: 'B' }, { recipe: [line(c.id)] });
      const engine = createAppResources();
      const { second, waitedFor } = await t.db.transaction(async (tx) => {
        // The first save, not committed yet.
        await engine
          .data('products')
          .update(tx, systemCaller(shop.id), a.id, productUpdateSchema.parse({ recipe: [line(b.id)] }));
        const second = setRecipe(c.id, [line(d.id)]);
        return { second, waitedFor: await firstLockWait(t.db, second) };
      });
      // Without the lock the second save checks before the first commits, and stores the loop.
      expect(waitedFor).toBe('advisory');
      expectCycle(await second, 0, 'C → D → A → B → C');
      expect((await get(a.id)).recipe).toHaveLength(1);
      expect((await get(c.id)).recipe).toEqual([]);
    },
  );
});
