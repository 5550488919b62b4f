import { type RecipeLineInput, recipeLineInputSchema, validationCodes } from '@dukkan/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client.ts';
import {
  brands,
  measurementUnits,
  products,
  productVariants,
  productVariantValues,
  recipeLines,
  variationTypes,
  variationValues,
} from '../src/db/schema/index.ts';
import { AppError } from '../src/errors.ts';
import {
  checkRecipe,
  loadRecipes,
  recipeUsers,
  variantsUsedInRecipes,
  writeRecipe,
} from '../src/features/products/recipes.ts';
import { type HookContext, type ReaderLocale, systemCaller } from '../src/resource-engine/storage.ts';
import { named } from './helpers/api.ts';
import { firstLockWait } from './helpers/lock-wait.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { createWorkspace, unique } from './helpers/workspaces.ts';

/**
 * The recipe functions the products feature calls from its hooks, called here as the hooks do:
 * inside a transaction, with the caller's workspace and language. The rules over HTTP are in
 * recipes.test.ts.
 */
let t: TestApp;
let shop: { id: string };
let other: { id: string };
const units = new Map<string, string>();

beforeAll(async () => {
  t = await createTestApp();
  shop = await createWorkspace(t.db, 'Recipe Shop');
  other = await createWorkspace(t.db, 'Other Recipe Shop');
  for (const workspace of [shop, other]) {
    const [unit] = await t.db
      .insert(measurementUnits)
      .values({ workspaceId: workspace.id, code: unique('u'), nameEn: 'Gram', symbol: 'g' })
      .returning({ id: measurementUnits.id });
    units.set(workspace.id, unit!.id);
  }
});
afterAll(async () => {
  await t?.close();
});

const contextOf = (db: Database, workspace = shop, locale?: ReaderLocale): HookContext => ({
  ...systemCaller(workspace.id),
  db,
  locale,
});

interface Product {
  id: string;
  code: string;
}

/** A product written straight to the table; the names are the ones given, absent ones null. */
async function product(name: { en?: string; ar?: string } = {}, workspace = shop): Promise<Product> {
  const code = unique('p');
  const [row] = await t.db
    .insert(products)
    .values({
      workspaceId: workspace.id,
      code,
      nameEn: name.en ?? (name.ar ? null : code),
      nameAr: name.ar ?? null,
      measurementUnitId: units.get(workspace.id)!,
    })
    .returning({ id: products.id });
  return { id: row!.id, code };
}

/** A variant of the product made of new values named as given, in that order. */
async function variant(of: Product, values: { en?: string; ar?: string }[], workspace = shop) {
  const [type] = await t.db
    .insert(variationTypes)
    .values({ workspaceId: workspace.id, code: unique('vt'), nameEn: 'Type' })
    .returning({ id: variationTypes.id });
  const valueIds: string[] = [];
  for (const [position, value] of values.entries()) {
    const [row] = await t.db
      .insert(variationValues)
      .values({
        workspaceId: workspace.id,
        code: unique('vv'),
        nameEn: value.en ?? null,
        nameAr: value.ar ?? null,
        typeId: type!.id,
        position,
      })
      .returning({ id: variationValues.id });
    valueIds.push(row!.id);
  }
  const [row] = await t.db
    .insert(productVariants)
    .values({ workspaceId: workspace.id, productId: of.id, key: valueIds.join('-'), position: 0 })
    .returning({ id: productVariants.id });
  // Stored in the reverse order of their positions: the title follows `position`.
  for (const [position, valueId] of [...valueIds.entries()].reverse()) {
    await t.db
      .insert(productVariantValues)
      .values({ workspaceId: workspace.id, variantId: row!.id, valueId, position });
  }
  return row!.id;
}

async function brand(workspace = shop) {
  const [row] = await t.db
    .insert(brands)
    .values({ workspaceId: workspace.id, code: unique('b'), nameEn: 'Brand' })
    .returning({ id: brands.id });
  return row!.id;
}

type Line = Partial<RecipeLineInput> & { ingredientProductId: string };
const linesOf = (lines: Line[]) => lines.map((line) => recipeLineInputSchema.parse({ quantity: 1, ...line }));

/** Checks and writes the recipe in one transaction, as the product's hooks do. */
async function save(of: Product | null, lines: Line[], locale?: ReaderLocale, workspace = shop) {
  const parsed = linesOf(lines);
  await t.db.transaction(async (tx) => {
    await checkRecipe(contextOf(tx, workspace, locale), of?.id ?? null, parsed);
    if (of) await writeRecipe(contextOf(tx, workspace, locale), of.id, parsed);
  });
}

/** The issues of the validation error the save is refused with. */
async function refusal(saving: Promise<unknown>) {
  const error = await saving.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(error, 'expected the save to be refused').toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe('VALIDATION');
  return (error as AppError).details.issues;
}

const recipeOf = async (of: Product) => (await loadRecipes(contextOf(t.db), [of.id])).get(of.id)!;

describe('writing and loading', () => {
  it('keeps the lines in their order with their ingredients, and a save replaces them', async () => {
    const dish = await product({ en: 'Dish' });
    const flour = await product({ en: 'Flour', ar: 'دقيق' });
    const salt = await product({ ar: 'ملح' });
    const cheese = await product({ en: 'Cheese', ar: 'جبن' });
    const cheeseVariant = await variant(cheese, [{ en: 'Large', ar: 'كبير' }, { en: 'White' }]);
    const house = await brand();
    await save(dish, [
      { ingredientProductId: flour.id, quantity: 2.5, orderTypes: ['dineIn', 'delivery'], brandIds: [house] },
      { ingredientProductId: salt.id, quantity: 0.001 },
      { ingredientProductId: cheese.id, ingredientVariantId: cheeseVariant, quantity: 3 },
    ]);
    const recipe = await recipeOf(dish);
    expect(recipe).toEqual([
      {
        id: expect.any(String),
        ingredientProductId: flour.id,
        ingredientVariantId: null,
        quantity: 2.5,
        orderTypes: ['dineIn', 'delivery'],
        brandIds: [house],
        ingredient: {
          code: flour.code,
          name: named('Flour', 'دقيق'),
          measurementUnitId: units.get(shop.id),
          variantTitle: null,
        },
      },
      {
        id: expect.any(String),
        ingredientProductId: salt.id,
        ingredientVariantId: null,
        quantity: 0.001,
        orderTypes: [],
        brandIds: [],
        ingredient: {
          code: salt.code,
          // Only the language the product has.
          name: [{ locale: 'ar', value: 'ملح' }],
          measurementUnitId: units.get(shop.id),
          variantTitle: null,
        },
      },
      {
        id: expect.any(String),
        ingredientProductId: cheese.id,
        ingredientVariantId: cheeseVariant,
        quantity: 3,
        orderTypes: [],
        brandIds: [],
        ingredient: {
          code: cheese.code,
          name: named('Cheese', 'جبن'),
          measurementUnitId: units.get(shop.id),
          // The values in their order; a value without Arabic gives its English text (§9).
          variantTitle: named('Large, White', 'كبير، White'),
        },
      },
    ]);

    await save(dish, [{ ingredientProductId: cheese.id }, { ingredientProductId: flour.id, quantity: 4 }]);
    expect((await recipeOf(dish)).map((line) => [line.ingredientProductId, line.quantity])).toEqual([
      [cheese.id, 1],
      [flour.id, 4],
    ]);
    await save(dish, []);
    expect(await recipeOf(dish)).toEqual([]);
  });

  it("loads several products' recipes at once, an empty one for a product without lines", async () => {
    const [first, second, plain, ingredient] = [
      await product(),
      await product(),
      await product(),
      await product(),
    ];
    await save(first, [{ ingredientProductId: ingredient.id, quantity: 1 }]);
    await save(second, [
      { ingredientProductId: ingredient.id, quantity: 2 },
      { ingredientProductId: first.id, quantity: 3 },
    ]);
    const recipes = await loadRecipes(contextOf(t.db), [first.id, second.id, plain.id]);
    expect([...recipes.keys()].sort()).toEqual([first.id, second.id, plain.id].sort());
    expect(recipes.get(first.id)!.map((line) => line.quantity)).toEqual([1]);
    expect(recipes.get(second.id)!.map((line) => line.quantity)).toEqual([2, 3]);
    expect(recipes.get(plain.id)).toEqual([]);
    // Another workspace reads none of them.
    expect((await loadRecipes(contextOf(t.db, other), [first.id])).get(first.id)).toEqual([]);
  });
});

describe('checking', () => {
  it('refuses the product itself as an ingredient', async () => {
    const dish = await product();
    expect(await refusal(save(dish, [{ ingredientProductId: dish.id }]))).toEqual([
      { path: 'recipe.0.ingredientProductId', message: validationCodes.RECIPE_USES_ITSELF },
    ]);
    expect(await recipeOf(dish)).toEqual([]);
  });

  it("refuses another workspace's product, variant and brand, and one that does not exist", async () => {
    const dish = await product();
    const mine = await product();
    const foreign = await product({}, other);
    const foreignVariant = await variant(foreign, [{ en: 'Small' }], other);
    const foreignBrand = await brand(other);
    const myBrand = await brand();
    expect(
      await refusal(
        save(dish, [
          { ingredientProductId: foreign.id },
          { ingredientProductId: mine.id, ingredientVariantId: foreignVariant },
          { ingredientProductId: mine.id, brandIds: [myBrand, foreignBrand] },
          { ingredientProductId: '7b0c1a52-7f43-4f57-9a0e-3b3c8c1f0d11' },
        ]),
      ),
    ).toEqual([
      { path: 'recipe.0.ingredientProductId', message: validationCodes.REFERENCE_NOT_FOUND },
      { path: 'recipe.1.ingredientVariantId', message: validationCodes.VARIANT_NOT_FOUND },
      { path: 'recipe.2.brandIds.1', message: validationCodes.REFERENCE_NOT_FOUND },
      { path: 'recipe.3.ingredientProductId', message: validationCodes.REFERENCE_NOT_FOUND },
    ]);
    // A new product (no id yet) is checked the same way.
    expect(await refusal(save(null, [{ ingredientProductId: foreign.id }]))).toEqual([
      { path: 'recipe.0.ingredientProductId', message: validationCodes.REFERENCE_NOT_FOUND },
    ]);
    await save(dish, [{ ingredientProductId: mine.id, brandIds: [myBrand] }]);
    expect((await recipeOf(dish))[0]!.brandIds).toEqual([myBrand]);
  });

  it("refuses a variant of another of the workspace's products, and takes one of the ingredient's own", async () => {
    const dish = await product();
    const cheese = await product();
    const milk = await product();
    const milkVariant = await variant(milk, [{ en: 'Skimmed' }]);
    const cheeseVariant = await variant(cheese, [{ en: 'Aged' }]);
    expect(
      await refusal(save(dish, [{ ingredientProductId: cheese.id, ingredientVariantId: milkVariant }])),
    ).toEqual([{ path: 'recipe.0.ingredientVariantId', message: validationCodes.VARIANT_NOT_FOUND }]);
    await save(dish, [{ ingredientProductId: cheese.id, ingredientVariantId: cheeseVariant }]);
    expect((await recipeOf(dish))[0]!.ingredientVariantId).toBe(cheeseVariant);
  });

  it('refuses a loop of two and of three recipes, naming it in the caller’s language', async () => {
    const a = await product({ en: 'Pizza', ar: 'بيتزا' });
    const b = await product({ en: 'Dough', ar: 'عجين' });
    const c = await product({ en: 'Starter' });
    await save(b, [{ ingredientProductId: a.id }]);
    expect(await refusal(save(a, [{ ingredientProductId: b.id }]))).toEqual([
      {
        path: 'recipe.0.ingredientProductId',
        message: validationCodes.RECIPE_CYCLE,
        params: { cycle: 'Pizza → Dough → Pizza' },
      },
    ]);
    expect(await refusal(save(a, [{ ingredientProductId: b.id }], 'ar'))).toEqual([
      {
        path: 'recipe.0.ingredientProductId',
        message: validationCodes.RECIPE_CYCLE,
        params: { cycle: 'بيتزا → عجين → بيتزا' },
      },
    ]);

    // A → B → C → A: B uses C, C uses A; a name without Arabic is given in English (§9).
    await save(b, [{ ingredientProductId: c.id }]);
    await save(c, [{ ingredientProductId: a.id }]);
    const other = await product();
    expect(
      await refusal(save(a, [{ ingredientProductId: other.id }, { ingredientProductId: b.id }], 'ar')),
    ).toEqual([
      {
        path: 'recipe.1.ingredientProductId',
        message: validationCodes.RECIPE_CYCLE,
        params: { cycle: 'بيتزا → عجين → Starter → بيتزا' },
      },
    ]);
    expect(await recipeOf(a)).toEqual([]);
    // The same ingredients without the loop are fine: A may use C once C no longer uses A.
    await save(c, []);
    await save(a, [{ ingredientProductId: b.id }, { ingredientProductId: c.id }]);
    expect((await recipeOf(a)).length).toBe(2);
  });

  it('refuses every line that closes a loop, through a variant line too, and collects the other issues', async () => {
    const a = await product({ en: 'A' });
    const b = await product({ en: 'B' });
    const c = await product({ en: 'C' });
    const bVariant = await variant(b, [{ en: 'Small' }]);
    // B uses A, C uses a variant of B.
    await save(b, [{ ingredientProductId: a.id }]);
    await save(c, [{ ingredientProductId: b.id, ingredientVariantId: bVariant }]);
    expect(
      await refusal(
        save(a, [
          { ingredientProductId: c.id, quantity: 1 },
          { ingredientProductId: a.id },
          { ingredientProductId: b.id, ingredientVariantId: bVariant },
        ]),
      ),
    ).toEqual([
      {
        path: 'recipe.0.ingredientProductId',
        message: validationCodes.RECIPE_CYCLE,
        params: { cycle: 'A → C → B → A' },
      },
      { path: 'recipe.1.ingredientProductId', message: validationCodes.RECIPE_USES_ITSELF },
      {
        path: 'recipe.2.ingredientProductId',
        message: validationCodes.RECIPE_CYCLE,
        params: { cycle: 'A → B → A' },
      },
    ]);
  });

  it('ends at a loop already stored, and still finds the product beyond it', async () => {
    // X and Y use each other (stored before any check could refuse it), and Y uses P.
    const p = await product({ en: 'P' });
    const x = await product({ en: 'X' });
    const y = await product({ en: 'Y' });
    const z = await product({ en: 'Z' });
    await t.db.insert(recipeLines).values([
      { workspaceId: shop.id, productId: x.id, position: 0, ingredientProductId: y.id, quantity: 1 },
      { workspaceId: shop.id, productId: y.id, position: 0, ingredientProductId: x.id, quantity: 1 },
      { workspaceId: shop.id, productId: y.id, position: 1, ingredientProductId: p.id, quantity: 1 },
    ]);
    await save(p, [{ ingredientProductId: z.id }]);
    expect(await refusal(save(p, [{ ingredientProductId: x.id }]))).toEqual([
      {
        path: 'recipe.0.ingredientProductId',
        message: validationCodes.RECIPE_CYCLE,
        params: { cycle: 'P → X → Y → P' },
      },
    ]);
  });

  it('walks a deep web of shared sub-recipes once per product and depth, not once per path', async () => {
    // 40 levels of two products, each using both of the level below: 2^40 paths from the top.
    const levels: Product[][] = [];
    for (let level = 0; level < 40; level++) levels.push([await product(), await product()]);
    await t.db.insert(recipeLines).values(
      levels.slice(0, -1).flatMap((users, level) =>
        users.flatMap((user) =>
          levels[level + 1]!.map((ingredient, position) => ({
            workspaceId: shop.id,
            productId: user.id,
            position,
            ingredientProductId: ingredient.id,
            quantity: 1,
          })),
        ),
      ),
    );
    const bottom = levels.at(-1)![0]!;
    const top = levels[0]![0]!;
    const issues = await refusal(save(bottom, [{ ingredientProductId: top.id }]));
    expect(issues).toHaveLength(1);
    expect((issues![0]!.params!.cycle as string).split(' → ')).toHaveLength(41);
  });
});

describe('users', () => {
  it('counts the products whose recipes use it or a variant of it, naming the first five by code', async () => {
    const flour = await product({ en: 'Flour' });
    const flourVariant = await variant(flour, [{ en: 'Fine' }]);
    const unrelated = await product();
    expect(await recipeUsers(contextOf(t.db), flour.id)).toEqual({ count: 0, names: [] });
    const prefix = unique('users');
    const users: Product[] = [];
    for (const [index, letter] of ['g', 'c', 'a', 'f', 'b', 'e', 'd'].entries()) {
      const code = `${prefix}-${letter}`;
      const [row] = await t.db
        .insert(products)
        .values({
          workspaceId: shop.id,
          code,
          nameEn: `Bread ${letter}`,
          nameAr: `خبز ${letter}`,
          measurementUnitId: units.get(shop.id)!,
        })
        .returning({ id: products.id });
      users.push({ id: row!.id, code });
      // Every other one through the variant only; one uses it twice.
      await save(
        users.at(-1)!,
        index % 2 === 0
          ? [{ ingredientProductId: flour.id }, { ingredientProductId: unrelated.id }]
          : [{ ingredientProductId: flour.id, ingredientVariantId: flourVariant }],
      );
    }
    await save(users[0]!, [
      { ingredientProductId: flour.id },
      { ingredientProductId: flour.id, quantity: 2 },
    ]);
    const found = await recipeUsers(contextOf(t.db), flour.id);
    expect(found.count).toBe(7);
    expect(found.names).toEqual(
      ['a', 'b', 'c', 'd', 'e'].map((letter) => named(`Bread ${letter}`, `خبز ${letter}`)),
    );
    expect(await recipeUsers(contextOf(t.db, other), flour.id)).toEqual({ count: 0, names: [] });
  });

  it('tells which variants a recipe uses', async () => {
    const milk = await product();
    const [used, unused] = [await variant(milk, [{ en: 'Whole' }]), await variant(milk, [{ en: 'Skim' }])];
    const latte = await product();
    expect(await variantsUsedInRecipes(contextOf(t.db), [used, unused])).toEqual(new Set());
    await save(latte, [{ ingredientProductId: milk.id, ingredientVariantId: used }]);
    expect(await variantsUsedInRecipes(contextOf(t.db), [used, unused])).toEqual(new Set([used]));
    expect(await variantsUsedInRecipes(contextOf(t.db), [])).toEqual(new Set());
    expect(await variantsUsedInRecipes(contextOf(t.db, other), [used])).toEqual(new Set());
  });
});

// Two connections are needed for two saves at once; PGlite has one, so its writes never overlap.
it.runIf(process.env.DATABASE_URL)(
  'two concurrent saves that each close half of a loop cannot both pass: the second waits, then is refused (PostgreSQL only)',
  async () => {
    // B uses C and D uses A are stored; A using B and C using D together make A → B → C → D → A.
    // The two saves touch no row of each other's, so only the recipe lock orders them.
    const [a, b, c, d] = [
      await product({ en: 'A' }),
      await product({ en: 'B' }),
      await product({ en: 'C' }),
      await product({ en: 'D' }),
    ];
    await save(b, [{ ingredientProductId: c.id }]);
    await save(d, [{ ingredientProductId: a.id }]);
    const { second, waitedFor } = await t.db.transaction(async (tx) => {
      // The first save, not committed yet.
      const lines = linesOf([{ ingredientProductId: b.id }]);
      await checkRecipe(contextOf(tx), a.id, lines);
      await writeRecipe(contextOf(tx), a.id, lines);
      const second = save(c, [{ ingredientProductId: d.id }]).then(
        () => 'saved',
        (error: unknown) => error,
      );
      return { second, waitedFor: await firstLockWait(t.db, second) };
    });
    // Without the lock the second save checks before the first commits, and stores the loop.
    expect(waitedFor).toBe('advisory');
    const outcome = await second;
    expect(outcome).toBeInstanceOf(AppError);
    expect((outcome as AppError).details.issues).toEqual([
      {
        path: 'recipe.0.ingredientProductId',
        message: validationCodes.RECIPE_CYCLE,
        params: { cycle: 'C → D → A → B → C' },
      },
    ]);
    expect((await recipeOf(a)).length).toBe(1);
    expect(await recipeOf(c)).toEqual([]);
  },
);
