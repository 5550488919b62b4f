import { type VariationTypeRecord, type VariationValueRecord, validationCodes } from '@dukkan/contract';
import { and, count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  measurementUnits,
  products,
  productVariants,
  productVariantValues,
  variationValues,
} from '../src/db/schema/index.ts';
import { api, dataOf, errorOf, expectValidation, named } from './helpers/api.ts';
import { callInWorkspace, type TwoShops, useTwoShops } from './helpers/shops.ts';
import { addMember, type TestMember, tagsExcept, unique } from './helpers/workspaces.ts';

/**
 * Variation types and their values (spec §9): a value's text is unique within its type in either
 * language, a new value goes last, a type lists its values in order, and neither is deleted while
 * a product uses it — the refusal names how many products and the first five.
 */
let { t, shop, other, admin, otherAdmin } = {} as TwoShops;
useTwoShops('Variations Shop', (shops) => {
  ({ t, shop, other, admin, otherAdmin } = shops);
});

function call(
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  path: string,
  body?: unknown,
  {
    workspace = shop,
    member = admin,
    language,
  }: { workspace?: { id: string }; member?: TestMember; language?: string } = {},
) {
  return callInWorkspace(t, workspace, path, { method, body, member, language });
}

async function createType(en = unique('Size '), ar?: string, options: Parameters<typeof call>[3] = {}) {
  return dataOf<VariationTypeRecord>(
    await call('POST', 'variation-types', { code: unique('vt'), name: named(en, ar) }, options),
  );
}

async function createValue(
  typeId: string,
  en?: string,
  ar?: string,
  extra: Record<string, unknown> = {},
  options: Parameters<typeof call>[3] = {},
) {
  return dataOf<VariationValueRecord>(
    await call(
      'POST',
      'variation-values',
      { code: unique('vv'), name: named(en, ar), typeId, ...extra },
      options,
    ),
  );
}

const getType = async (id: string) => dataOf<VariationTypeRecord>(await call('GET', `variation-types/${id}`));
const valuesOf = async (typeId: string) =>
  (await getType(typeId)).values.map((value) => value.name.find((name) => name.locale === 'en')?.value);
const valueRows = async (typeId: string) =>
  (
    await t.db
      .select({ n: count() })
      .from(variationValues)
      .where(and(eq(variationValues.workspaceId, shop.id), eq(variationValues.typeId, typeId)))
  )[0]!.n;

describe('HTTP: both resources', () => {
  const resources = [
    { path: 'variation-types', input: () => ({ code: unique('vt'), name: named(unique('Colour ')) }) },
    {
      path: 'variation-values',
      input: async () => ({
        code: unique('vv'),
        name: named(unique('Red ')),
        typeId: (await createType()).id,
      }),
    },
  ] as const;

  it.each(resources)('$path: create, get, list, patch and delete', async ({ path, input }) => {
    const body = await input();
    const created = dataOf<{ id: string; code: string }>(await call('POST', path, body));
    expect(created.code).toBe(body.code);
    expect(dataOf(await call('GET', `${path}/${created.id}`))).toEqual(created);
    const list = await call('GET', `${path}?search=${encodeURIComponent(body.code)}`);
    expect((list.json as { data: { id: string }[] }).data.map((row) => row.id)).toEqual([created.id]);
    const renamed = dataOf<{ name: ReturnType<typeof named> }>(
      await call('PATCH', `${path}/${created.id}`, { name: named('Renamed', 'معدل') }),
    );
    expect(renamed.name).toEqual(named('Renamed', 'معدل'));
    expect((await call('DELETE', `${path}/${created.id}`)).status).toBe(200);
    expect((await call('GET', `${path}/${created.id}`)).status).toBe(404);
  });

  it.each(resources)('$path: an empty or blank name is refused', async ({ path, input }) => {
    const body = await input();
    expectValidation(
      await call('POST', path, { ...body, name: [] }),
      'name',
      validationCodes.NAME_IS_REQUIRED,
    );
    expectValidation(
      await call('POST', path, { ...body, name: named('   ') }),
      'name.0.value',
      validationCodes.NAME_IS_REQUIRED,
    );
    expectValidation(
      await call('POST', path, { ...body, code: unique('c'), name: undefined }),
      'name',
      validationCodes.NAME_IS_REQUIRED,
    );
  });

  it.each(resources)(
    '$path: 401 without a session, 403 without the Variations tag',
    async ({ path, input }) => {
      const body = await input();
      const anonymous = await api(t.app, {
        method: 'POST',
        url: `/api/${path}?workspaceId=${shop.id}`,
        body,
      });
      expect(anonymous.status).toBe(401);
      expect(errorOf(anonymous).code).toBe('UNAUTHORIZED');
      const staff = await addMember(t.db, shop.id, {
        tags: tagsExcept(['viewVariations', 'addVariations', 'editVariations', 'deleteVariations']),
      });
      for (const [method, url] of [
        ['GET', path],
        ['POST', path],
      ] as const) {
        const refused = await call(method, url, method === 'POST' ? body : undefined, { member: staff });
        expect(refused.status, `${method} ${url}`).toBe(403);
        expect(errorOf(refused).code).toBe('FORBIDDEN');
      }
      const viewer = await addMember(t.db, shop.id, { tags: ['viewVariations'] });
      expect((await call('GET', path, undefined, { member: viewer })).status).toBe(200);
      expect((await call('POST', path, body, { member: viewer })).status).toBe(403);
    },
  );

  it.each(resources)("$path: another workspace's record answers 404", async ({ path, input }) => {
    const created = dataOf<{ id: string }>(await call('POST', path, await input()));
    const foreign = { workspace: other, member: otherAdmin };
    expect((await call('GET', `${path}/${created.id}`, undefined, foreign)).status).toBe(404);
    expect((await call('PATCH', `${path}/${created.id}`, { name: named('Mine') }, foreign)).status).toBe(404);
    expect((await call('DELETE', `${path}/${created.id}`, undefined, foreign)).status).toBe(404);
    expect((await call('GET', `${path}/${created.id}`)).status).toBe(200);
  });
});

describe('values in their type', () => {
  it("a type's record lists its values in order; a new value without a place goes last", async () => {
    const size = await createType('Size');
    const small = await createValue(size.id, 'Small', 'صغير');
    const medium = await createValue(size.id, 'Medium', 'وسط');
    const large = await createValue(size.id, 'Large');
    expect([small.position, medium.position, large.position]).toEqual([0, 1, 2]);
    expect(await valuesOf(size.id)).toEqual(['Small', 'Medium', 'Large']);
    expect((await getType(size.id)).values[0]).toEqual({
      id: small.id,
      code: small.code,
      name: named('Small', 'صغير'),
      position: 0,
      status: 'active',
    });

    // Reordered by positions: Large, Small, Medium; the list's record says the same.
    for (const [value, position] of [
      [large, 0],
      [small, 1],
      [medium, 2],
    ] as const)
      dataOf(await call('PATCH', `variation-values/${value.id}`, { position }));
    expect(await valuesOf(size.id)).toEqual(['Large', 'Small', 'Medium']);
    const listed = dataOf<VariationTypeRecord[]>(
      await call('GET', `variation-types?search=${encodeURIComponent(size.code)}`),
    );
    expect(listed[0]!.values.map((value) => value.id)).toEqual([large.id, small.id, medium.id]);

    // A given place is kept; the next one without a place goes after the last.
    const huge = await createValue(size.id, 'Huge', undefined, { position: 10 });
    expect(huge.position).toBe(10);
    expect((await createValue(size.id, 'Tiny')).position).toBe(11);
    // Another type's values start again at the first place.
    expect((await createValue((await createType()).id, 'Small')).position).toBe(0);
  });

  it('refuses a text its type already has, in either language, whatever its case and spaces', async () => {
    const colour = await createType('Colour');
    await createValue(colour.id, 'Red', 'أحمر');
    const refusals = [
      named('red'),
      named('  RED '),
      named('Crimson', 'أحمر'),
      named(undefined, ' أحمر'),
      // A reader of Arabic sees a value named only in English by that name.
      named(undefined, 'Red'),
    ];
    for (const name of refusals) {
      const response = await call('POST', 'variation-values', {
        code: unique('vv'),
        name,
        typeId: colour.id,
      });
      expectValidation(response, 'name', validationCodes.VALUE_REPEATED);
    }
    expect(await valueRows(colour.id)).toBe(1);
    // The same text in another type, and another text in this one, are fine.
    await createValue((await createType()).id, 'Red', 'أحمر');
    await createValue(colour.id, 'Blue', 'أزرق');
    expect(await valueRows(colour.id)).toBe(2);
  });

  it('refuses a rename or a move onto a text the type has; keeps a value that keeps its own text', async () => {
    const colour = await createType('Colour');
    const red = await createValue(colour.id, 'Red', 'أحمر');
    const blue = await createValue(colour.id, 'Blue');
    expectValidation(
      await call('PATCH', `variation-values/${blue.id}`, { name: named('RED') }),
      'name',
      validationCodes.VALUE_REPEATED,
    );
    // Its own text, in another case: not a repeat of itself.
    expect(
      dataOf<VariationValueRecord>(
        await call('PATCH', `variation-values/${red.id}`, { name: named('red', 'أحمر') }),
      ).name,
    ).toEqual(named('red', 'أحمر'));

    const shades = await createType('Shades');
    await createValue(shades.id, 'Blue');
    expectValidation(
      await call('PATCH', `variation-values/${blue.id}`, { typeId: shades.id }),
      'name',
      validationCodes.VALUE_REPEATED,
    );
    // Moved to a type without its text: it goes last there.
    const sizes = await createType('Sizes');
    await createValue(sizes.id, 'Small');
    const moved = dataOf<VariationValueRecord>(
      await call('PATCH', `variation-values/${blue.id}`, { typeId: sizes.id }),
    );
    expect(moved).toMatchObject({ typeId: sizes.id, position: 1 });
    expect(await valuesOf(colour.id)).toEqual(['red']);
  });

  it('a bulk refuses a text repeated within it or already stored, naming the row, and writes nothing', async () => {
    const colour = await createType('Colour');
    await createValue(colour.id, 'Red');
    const row = (en: string) => ({ code: unique('vv'), name: named(en), typeId: colour.id });
    expectValidation(
      await call('POST', 'variation-values/bulk', [row('Green'), row('Blue'), row(' green')]),
      '2.name',
      validationCodes.VALUE_REPEATED,
    );
    expectValidation(
      await call('POST', 'variation-values/bulk', [row('Green'), row('RED')]),
      '1.name',
      validationCodes.VALUE_REPEATED,
    );
    expect(await valueRows(colour.id)).toBe(1);
    const done = dataOf<VariationValueRecord[]>(
      await call('POST', 'variation-values/bulk', [row('Green'), row('Blue')]),
    );
    expect(done.map((value) => value.position)).toEqual([1, 2]);
  });

  it("a value cannot go to another workspace's type", async () => {
    const mine = await createType('Mine');
    const theirs = await createType('Theirs', undefined, { workspace: other, member: otherAdmin });
    expectValidation(
      await call('POST', 'variation-values', { code: unique('vv'), name: named('Red'), typeId: theirs.id }),
      'typeId',
      validationCodes.REFERENCE_NOT_FOUND,
    );
    const value = await createValue(mine.id, 'Red');
    expectValidation(
      await call('PATCH', `variation-values/${value.id}`, { typeId: theirs.id }),
      'typeId',
      validationCodes.REFERENCE_NOT_FOUND,
    );
    expect(
      (
        await t.db.select({ n: count() }).from(variationValues).where(eq(variationValues.typeId, theirs.id))
      )[0]!.n,
    ).toBe(0);
  });
});

describe('a used value or type is not deleted', () => {
  /**
   * Seven products whose variants use `value` (inserted directly: the products feature writes
   * them through its own hooks); English names out of alphabetical order, Arabic names too.
   */
  async function productsUsing(valueId: string, workspaceId = shop.id) {
    const [unit] = await t.db
      .insert(measurementUnits)
      .values({ workspaceId, code: unique('u'), nameEn: 'Piece', symbol: 'pc' })
      .returning({ id: measurementUnits.id });
    const names = [
      ['Gamma', 'جيم'],
      ['alpha', 'ألف'],
      ['Eta', 'هاء'],
      ['Beta', 'باء'],
      ['Delta', 'دال'],
      ['Zeta', 'زاي'],
      ['Epsilon', 'تاء'],
    ] as const;
    for (const [en, ar] of names) {
      const [product] = await t.db
        .insert(products)
        .values({ workspaceId, code: unique('p'), nameEn: en, nameAr: ar, measurementUnitId: unit!.id })
        .returning({ id: products.id });
      const [variant] = await t.db
        .insert(productVariants)
        .values({ workspaceId, productId: product!.id, key: valueId, position: 0 })
        .returning({ id: productVariants.id });
      await t.db
        .insert(productVariantValues)
        .values({ workspaceId, variantId: variant!.id, valueId, position: 0 });
    }
  }

  it("refuses deleting a value used by seven products: count 7 and the first five names, in the reader's language", async () => {
    const size = await createType('Size');
    const used = await createValue(size.id, 'Large');
    const unused = await createValue(size.id, 'Small');
    await productsUsing(used.id);

    const refused = await call('DELETE', `variation-values/${used.id}`);
    expectValidation(refused, 'id');
    expect(errorOf(refused).issues).toEqual([
      {
        path: 'id',
        message: validationCodes.RECORD_IN_USE_BY,
        params: { count: 7, names: 'alpha, Beta, Delta, Epsilon, Eta' },
      },
    ]);
    const inArabic = await call('DELETE', `variation-values/${used.id}`, undefined, { language: 'ar' });
    expect(errorOf(inArabic).issues?.[0]?.params).toEqual({
      count: 7,
      names: 'ألف، باء، تاء، جيم، دال',
    });
    expect((await call('GET', `variation-values/${used.id}`)).status).toBe(200);

    // Its type, whose deletion would delete it, is refused the same way.
    const typeRefused = await call('DELETE', `variation-types/${size.id}`);
    expect(errorOf(typeRefused).issues).toEqual([
      {
        path: 'id',
        message: validationCodes.RECORD_IN_USE_BY,
        params: { count: 7, names: 'alpha, Beta, Delta, Epsilon, Eta' },
      },
    ]);
    expect(await valuesOf(size.id)).toEqual(['Large', 'Small']);

    // A value no product uses goes; so does a type none of whose values is used.
    expect((await call('DELETE', `variation-values/${unused.id}`)).status).toBe(200);
    const colour = await createType('Colour');
    await createValue(colour.id, 'Red');
    expect((await call('DELETE', `variation-types/${colour.id}`)).status).toBe(200);
    expect(await valueRows(colour.id)).toBe(0);
  });

  it("counts a product that chose the value in its options, and only this workspace's products", async () => {
    const size = await createType('Size');
    const chosen = await createValue(size.id, 'Large');
    const [unit] = await t.db
      .insert(measurementUnits)
      .values({ workspaceId: shop.id, code: unique('u'), nameEn: 'Piece', symbol: 'pc' })
      .returning({ id: measurementUnits.id });
    await t.db.insert(products).values({
      workspaceId: shop.id,
      code: unique('p'),
      nameAr: 'قميص',
      measurementUnitId: unit!.id,
      options: [{ typeId: size.id, valueIds: [chosen.id] }],
    });
    const refused = await call('DELETE', `variation-values/${chosen.id}`);
    // Named in Arabic only: an English reader gets the Arabic name.
    expect(errorOf(refused).issues?.[0]?.params).toEqual({ count: 1, names: 'قميص' });
    expect(errorOf(await call('DELETE', `variation-types/${size.id}`)).issues?.[0]?.params).toEqual({
      count: 1,
      names: 'قميص',
    });
  });
});

describe.runIf(process.env.DATABASE_URL)('concurrent writes (PostgreSQL only)', () => {
  it('two values with the same text at once: one is created, the other refused', async () => {
    const colour = await createType('Colour');
    const post = (code: string) =>
      call('POST', 'variation-values', { code, name: named('Teal'), typeId: colour.id });
    const answers = await Promise.all([post(unique('a')), post(unique('b'))]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 400]);
    expect(errorOf(answers.find((answer) => answer.status === 400)!).issues).toEqual([
      { path: 'name', message: validationCodes.VALUE_REPEATED },
    ]);
    expect(await valueRows(colour.id)).toBe(1);
  });

  it('new values created at once each take their own last place', async () => {
    const size = await createType('Size');
    await Promise.all(['XS', 'S', 'M', 'L', 'XL'].map((en) => createValue(size.id, en)));
    const positions = (await getType(size.id)).values.map((value) => value.position);
    expect(positions).toEqual([0, 1, 2, 3, 4]);
  });

  it('new values without a code created at once each take their own derived code', async () => {
    const size = await createType('Size');
    const names = ['XS', 'S', 'M', 'L', 'XL'];
    await Promise.all(
      names.map((en) => call('POST', 'variation-values', { name: named(en), typeId: size.id })),
    );
    const codes = (await getType(size.id)).values.map((value) => value.code).sort();
    expect(codes).toEqual(names.map((_, index) => `${size.code}-0${index + 1}`));
  });
});
