import {
  maxValuesWithType,
  type VariationTypeRecord,
  type VariationValueRecord,
  validationCodes,
} from '@dukkan/contract';
import { and, count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { variationTypes, variationValues } from '../src/db/schema/index.ts';
import { dataOf, errorOf, expectValidation, named } from './helpers/api.ts';
import { callInWorkspace, type TwoShops, useTwoShops } from './helpers/shops.ts';
import { addMember, type TestMember, unique } from './helpers/workspaces.ts';

/**
 * A variation type created with its values in one request (`POST /variation-types` with
 * `values`): all of them in the type's transaction or nothing, and a value without a code takes
 * one derived from its type's (SIZE → SIZE-01, SIZE-02…, skipping codes taken), whether it comes
 * with its type or alone.
 */
let { t, shop, other, admin, otherAdmin } = {} as TwoShops;
useTwoShops('Values Shop', (shops) => {
  ({ t, shop, other, admin, otherAdmin } = shops);
});

function call(
  method: 'GET' | 'POST' | 'PATCH',
  path: string,
  body?: unknown,
  { workspace = shop, member = admin }: { workspace?: { id: string }; member?: TestMember | null } = {},
) {
  return callInWorkspace(t, workspace, path, { method, body, member });
}

/** How many types and values the workspace stores. */
async function stored(workspaceId = shop.id) {
  const [types] = await t.db
    .select({ n: count() })
    .from(variationTypes)
    .where(eq(variationTypes.workspaceId, workspaceId));
  const [values] = await t.db
    .select({ n: count() })
    .from(variationValues)
    .where(eq(variationValues.workspaceId, workspaceId));
  return { types: types!.n, values: values!.n };
}

const sizes = () => [
  { name: named('Small', 'صغير') },
  { name: named('Medium') },
  { name: named(undefined, 'كبير') },
];

describe('POST /variation-types with values', () => {
  it('creates the type and its values in order, each value with a code derived from the type’s', async () => {
    const code = unique('SIZE');
    const response = await call('POST', 'variation-types', { code, name: named('Size'), values: sizes() });
    expect(response.status, response.text).toBe(201);
    const type = dataOf<VariationTypeRecord>(response);
    expect(type.values.map((value) => [value.code, value.name, value.position, value.status])).toEqual([
      [`${code}-01`, named('Small', 'صغير'), 0, 'active'],
      [`${code}-02`, named('Medium'), 1, 'active'],
      [`${code}-03`, named(undefined, 'كبير'), 2, 'active'],
    ]);
    // Stored as values of their own resource, found in its list by the derived code.
    const listed = await call('GET', `variation-values?search=${encodeURIComponent(`${code}-02`)}`);
    expect((listed.json as { data: VariationValueRecord[] }).data).toMatchObject([
      { code: `${code}-02`, typeId: type.id },
    ]);
    expect(dataOf<VariationTypeRecord>(await call('GET', `variation-types/${type.id}`)).values).toEqual(
      type.values,
    );
  });

  it('derives from the assigned type code when none is typed, and keeps a typed value code', async () => {
    const type = dataOf<VariationTypeRecord>(
      await call('POST', 'variation-types', {
        name: named(unique('Colour ')),
        values: [
          { name: named('Red') },
          { code: ' ＲＥＤ-x\u200b', name: named('Green') },
          { name: named('Blue') },
        ],
      }),
    );
    expect(type.code).toMatch(/^VAR-\d{4}$/);
    expect(type.values.map((value) => value.code)).toEqual([`${type.code}-01`, 'RED-x', `${type.code}-02`]);
  });

  it('skips codes other values of the workspace already have, whatever their type', async () => {
    const code = unique('FIT');
    const elsewhere = dataOf<VariationTypeRecord>(
      await call('POST', 'variation-types', {
        name: named(unique('Elsewhere ')),
        values: [
          { code: `${code}-01`, name: named('A') },
          { code: `${code}-03`, name: named('B') },
        ],
      }),
    );
    expect(elsewhere.values).toHaveLength(2);
    const type = dataOf<VariationTypeRecord>(
      await call('POST', 'variation-types', {
        code,
        name: named('Fit'),
        values: [
          { name: named('Slim') },
          { name: named('Regular') },
          { code: `${code}-04`, name: named('Loose') },
        ],
      }),
    );
    expect(type.values.map((value) => value.code)).toEqual([`${code}-02`, `${code}-05`, `${code}-04`]);
  });

  it('derives per workspace: another workspace’s codes are no obstacle', async () => {
    const code = unique('CUP');
    await call(
      'POST',
      'variation-types',
      { code, name: named('Cup'), values: [{ name: named('Tall') }] },
      {
        workspace: other,
        member: otherAdmin,
      },
    );
    const type = dataOf<VariationTypeRecord>(
      await call('POST', 'variation-types', { code, name: named('Cup'), values: [{ name: named('Tall') }] }),
    );
    expect(type.values.map((value) => value.code)).toEqual([`${code}-01`]);
  });

  it('refuses a name repeated in either language, at the later value, and stores nothing', async () => {
    const before = await stored();
    const response = await call('POST', 'variation-types', {
      code: unique('REP'),
      name: named('Repeated'),
      values: [{ name: named('Small', 'صغير') }, { name: named('Large') }, { name: named(' small ') }],
    });
    expectValidation(response, 'values.2.name', validationCodes.VALUE_REPEATED);
    const arabic = await call('POST', 'variation-types', {
      name: named('Repeated'),
      values: [{ name: named('Small', 'صغير') }, { name: named(undefined, 'صغير') }],
    });
    expectValidation(arabic, 'values.1.name', validationCodes.VALUE_REPEATED);
    expect(await stored()).toEqual(before);
  });

  it('refuses a bad value with a code of the contract, naming the value, and stores nothing', async () => {
    const before = await stored();
    const type = { code: unique('BAD'), name: named('Bad') };
    expectValidation(
      await call('POST', 'variation-types', {
        ...type,
        values: [{ name: named('A') }, { name: named('x'.repeat(61)) }],
      }),
      'values.1.name.0.value',
      validationCodes.NAME_TOO_LONG,
    );
    expectValidation(
      await call('POST', 'variation-types', { ...type, values: [{ name: [] }] }),
      'values.0.name',
      validationCodes.NAME_IS_REQUIRED,
    );
    expectValidation(
      await call('POST', 'variation-types', {
        ...type,
        values: [
          { code: 'X', name: named('A') },
          { code: 'X', name: named('B') },
        ],
      }),
      'values.1.code',
      validationCodes.CODE_MUST_BE_UNIQUE,
    );
    expectValidation(
      await call('POST', 'variation-types', {
        ...type,
        values: Array.from({ length: maxValuesWithType + 1 }, (_, index) => ({ name: named(`V${index}`) })),
      }),
      'values',
      validationCodes.TOO_MANY_NEW_VALUES,
    );
    expectValidation(
      await call('POST', 'variation-types', { ...type, values: [{ name: named('A'), typeId: shop.id }] }),
      'values.0',
      validationCodes.VALUE_IS_INVALID,
    );
    expect(await stored()).toEqual(before);
  });

  it('refuses a typed value code another value has, after the type is written: the type is undone too', async () => {
    const taken = dataOf<VariationTypeRecord>(
      await call('POST', 'variation-types', {
        name: named(unique('Taken ')),
        values: [{ name: named('A') }],
      }),
    ).values[0]!.code;
    const before = await stored();
    const code = unique('UNDONE');
    const response = await call('POST', 'variation-types', {
      code,
      name: named('Undone'),
      values: [{ name: named('B') }, { code: taken, name: named('C') }],
    });
    expectValidation(response, 'values.1.code', validationCodes.CODE_MUST_BE_UNIQUE);
    expect(await stored()).toEqual(before);
    expect((await call('GET', `variation-types?search=${code}`)).json).toMatchObject({ data: [] });
  });

  it('names the row and the value in a bulk, and writes nothing of it', async () => {
    const before = await stored();
    const response = await call('POST', 'variation-types/bulk', [
      { name: named(unique('Fine ')), values: [{ name: named('A') }] },
      { name: named(unique('Broken ')), values: [{ name: named('A') }, { name: named('a') }] },
    ]);
    expectValidation(response, '1.values.1.name', validationCodes.VALUE_REPEATED);
    expect(await stored()).toEqual(before);
  });

  it('an update changes the type alone: values are refused there', async () => {
    const type = dataOf<VariationTypeRecord>(
      await call('POST', 'variation-types', { name: named(unique('Kept ')), values: [{ name: named('A') }] }),
    );
    const response = await call('PATCH', `variation-types/${type.id}`, { values: [{ name: named('B') }] });
    expect(response.status).toBe(400);
    expect(errorOf(response).code).toBe('VALIDATION');
    expect(dataOf<VariationTypeRecord>(await call('GET', `variation-types/${type.id}`)).values).toHaveLength(
      1,
    );
  });

  it('401 without a session, 403 without addVariations; nothing stored either way', async () => {
    const before = await stored();
    const body = { name: named(unique('Guarded ')), values: sizes() };
    const anonymous = await call('POST', 'variation-types', body, { member: null });
    expect(anonymous.status).toBe(401);
    expect(errorOf(anonymous).code).toBe('UNAUTHORIZED');
    const viewer = await addMember(t.db, shop.id, { tags: ['viewVariations', 'editVariations'] });
    const refused = await call('POST', 'variation-types', body, { member: viewer });
    expect(refused.status).toBe(403);
    expect(errorOf(refused).code).toBe('FORBIDDEN');
    expect(await stored()).toEqual(before);
    const adder = await addMember(t.db, shop.id, { tags: ['addVariations'] });
    expect((await call('POST', 'variation-types', body, { member: adder })).status).toBe(201);
  });

  it("another workspace's id: refused for a member of this one, and its records stay its own", async () => {
    const before = await stored(other.id);
    const refused = await call(
      'POST',
      'variation-types',
      { name: named(unique('Intruder ')), values: sizes() },
      { workspace: other },
    );
    expect(refused.status).toBe(403);
    expect(await stored(other.id)).toEqual(before);
    // A type of this workspace is not found from the other, nor its values.
    const type = dataOf<VariationTypeRecord>(
      await call('POST', 'variation-types', { name: named(unique('Mine ')), values: sizes() }),
    );
    const foreign = { workspace: other, member: otherAdmin };
    expect((await call('GET', `variation-types/${type.id}`, undefined, foreign)).status).toBe(404);
    expect((await call('GET', `variation-values/${type.values[0]!.id}`, undefined, foreign)).status).toBe(
      404,
    );
  });
});

describe('a value saved alone without a code', () => {
  async function sizeType(code = unique('SZ')) {
    return dataOf<VariationTypeRecord>(
      await call('POST', 'variation-types', {
        code,
        name: named('Size'),
        values: [{ name: named('Small') }],
      }),
    );
  }

  it('takes the next code derived from its type’s, on create and when an update empties it', async () => {
    const type = await sizeType();
    const large = dataOf<VariationValueRecord>(
      await call('POST', 'variation-values', { name: named('Large'), typeId: type.id }),
    );
    expect(large.code).toBe(`${type.code}-02`);
    const typed = dataOf<VariationValueRecord>(
      await call('POST', 'variation-values', { code: '', name: named('Huge'), typeId: type.id }),
    );
    expect(typed.code).toBe(`${type.code}-03`);
    const renamed = dataOf<VariationValueRecord>(
      await call('PATCH', `variation-values/${large.id}`, { code: 'L' }),
    );
    expect(renamed.code).toBe('L');
    const emptied = dataOf<VariationValueRecord>(
      await call('PATCH', `variation-values/${large.id}`, { code: '' }),
    );
    expect(emptied.code).toBe(`${type.code}-02`);
  });

  it('takes its new type’s code when moved with its code emptied', async () => {
    const [from, to] = [await sizeType(), await sizeType()];
    const value = dataOf<VariationValueRecord>(
      await call('POST', 'variation-values', { name: named('Moved'), typeId: from.id }),
    );
    const moved = dataOf<VariationValueRecord>(
      await call('PATCH', `variation-values/${value.id}`, { typeId: to.id, code: '' }),
    );
    expect(moved.code).toBe(`${to.code}-02`);
  });

  it("is refused with another workspace's type, deriving nothing from it", async () => {
    const foreignType = dataOf<VariationTypeRecord>(
      await call(
        'POST',
        'variation-types',
        { name: named('Theirs') },
        { workspace: other, member: otherAdmin },
      ),
    );
    const before = await stored();
    expectValidation(
      await call('POST', 'variation-values', { name: named('Stolen'), typeId: foreignType.id }),
      'typeId',
      validationCodes.REFERENCE_NOT_FOUND,
    );
    expect(await stored()).toEqual(before);
    const [theirs] = await t.db
      .select({ n: count() })
      .from(variationValues)
      .where(and(eq(variationValues.workspaceId, other.id), eq(variationValues.typeId, foreignType.id)));
    expect(theirs!.n).toBe(0);
  });
});
