import { type MeasurementUnitRecord, validationCodes } from '@dukkan/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { measurementUnits } from '../src/db/schema/index.ts';
import type { ReaderLocale } from '../src/resource-engine/storage.ts';
import { dataOf, expectValidation } from './helpers/api.ts';
import { listPagePlan } from './helpers/list-plan.ts';
import { callInWorkspace } from './helpers/shops.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { addMember, createWorkspace, type TestMember, unique } from './helpers/workspaces.ts';

/**
 * A record's name is in English, in Arabic or in both, never in neither: an Arabic-only shop
 * names its units in Arabic. Shown through measurement units (every localized resource shares
 * the engine's name mapping and the tables' `<table>_name_present` check).
 */
let t: TestApp;
let shop: { id: string };
let admin: TestMember;

beforeAll(async () => {
  t = await createTestApp();
  shop = await createWorkspace(t.db, 'Names Shop');
  admin = await addMember(t.db, shop.id, { isAdmin: true });
});
afterAll(async () => {
  await t?.close();
});

type Name = MeasurementUnitRecord['name'];
interface CallOptions {
  body?: unknown;
  workspace?: { id: string };
  language?: string;
}
const call = (
  method: 'GET' | 'POST' | 'PATCH',
  url: string,
  { body, workspace = shop, language = 'en' }: CallOptions = {},
) => callInWorkspace(t, workspace, `measurement-units${url}`, { method, body, member: admin, language });
const create = (name: Name, workspace = shop) =>
  call('POST', '', { body: { code: unique('u'), name, symbol: 'u' }, workspace });
const rename = (id: string, name: Name, workspace = shop) =>
  call('PATCH', `/${id}`, { body: { name }, workspace });
const storedNames = async (id: string) =>
  (
    await t.db
      .select({ nameEn: measurementUnits.nameEn, nameAr: measurementUnits.nameAr })
      .from(measurementUnits)
      .where(eq(measurementUnits.id, id))
  )[0];

describe('a name in one language', () => {
  it('an Arabic-only unit saves, and reads back with its Arabic name alone', async () => {
    const created = dataOf<MeasurementUnitRecord>(await create([{ locale: 'ar', value: ' علبة ' }]));
    expect(created.name).toEqual([{ locale: 'ar', value: 'علبة' }]);
    expect(dataOf<MeasurementUnitRecord>(await call('GET', `/${created.id}`)).name).toEqual([
      { locale: 'ar', value: 'علبة' },
    ]);
    expect(await storedNames(created.id)).toEqual({ nameEn: null, nameAr: 'علبة' });
  });

  it('an English-only unit saves, and reads back with its English name alone', async () => {
    const created = dataOf<MeasurementUnitRecord>(await create([{ locale: 'en', value: 'Box' }]));
    expect(created.name).toEqual([{ locale: 'en', value: 'Box' }]);
    expect(dataOf<MeasurementUnitRecord>(await call('GET', `/${created.id}`)).name).toEqual([
      { locale: 'en', value: 'Box' },
    ]);
    expect(await storedNames(created.id)).toEqual({ nameEn: 'Box', nameAr: null });
  });

  it('no name in either language is refused with NAME_IS_REQUIRED, on create and on update', async () => {
    expectValidation(await create([]), 'name', validationCodes.NAME_IS_REQUIRED);
    const blank = [
      { locale: 'en' as const, value: ' ' },
      { locale: 'ar' as const, value: '' },
    ];
    expectValidation(await create(blank), 'name.0.value', validationCodes.NAME_IS_REQUIRED);
    const unit = dataOf<MeasurementUnitRecord>(await create([{ locale: 'ar', value: 'كوب' }]));
    expectValidation(await rename(unit.id, []), 'name', validationCodes.NAME_IS_REQUIRED);
    expect(await storedNames(unit.id)).toEqual({ nameEn: null, nameAr: 'كوب' });
  });

  it('an update names the whole name: a language it leaves out is cleared', async () => {
    const unit = dataOf<MeasurementUnitRecord>(
      await create([
        { locale: 'en', value: 'Cup' },
        { locale: 'ar', value: 'كوب' },
      ]),
    );
    const arabicOnly = await rename(unit.id, [{ locale: 'ar', value: 'فنجان' }]);
    expect(dataOf<MeasurementUnitRecord>(arabicOnly).name).toEqual([{ locale: 'ar', value: 'فنجان' }]);
    expect(await storedNames(unit.id)).toEqual({ nameEn: null, nameAr: 'فنجان' });
    const englishOnly = await rename(unit.id, [{ locale: 'en', value: 'Mug' }]);
    expect(dataOf<MeasurementUnitRecord>(englishOnly).name).toEqual([{ locale: 'en', value: 'Mug' }]);
    expect(await storedNames(unit.id)).toEqual({ nameEn: 'Mug', nameAr: null });
    // A change that does not name the name keeps it.
    dataOf(await call('PATCH', `/${unit.id}`, { body: { symbol: 'mug' } }));
    expect(await storedNames(unit.id)).toEqual({ nameEn: 'Mug', nameAr: null });
  });

  it('the database refuses a row with neither name', async () => {
    const refusal = { cause: expect.objectContaining({ constraint: 'measurement_units_name_present' }) };
    await expect(
      t.db.insert(measurementUnits).values({ workspaceId: shop.id, code: unique('u'), symbol: 'u' }),
    ).rejects.toMatchObject(refusal);
    await expect(
      t.db
        .insert(measurementUnits)
        .values({ workspaceId: shop.id, code: unique('u'), nameEn: null, nameAr: null, symbol: 'u' }),
    ).rejects.toMatchObject(refusal);
  });
});

describe('sorted by name', () => {
  let sorted: { id: string };
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    sorted = await createWorkspace(t.db, unique('Sorted names '));
    await addMember(t.db, sorted.id, { user: admin.user, isAdmin: true });
    const add = async (name: Name) => dataOf<MeasurementUnitRecord>(await create(name, sorted)).id;
    ids.apple = await add([{ locale: 'en', value: 'Apple' }]);
    ids.zebra = await add([
      { locale: 'en', value: 'Zebra' },
      { locale: 'ar', value: 'حمار وحشي' },
    ]);
    ids.mango = await add([
      { locale: 'en', value: 'mango' },
      { locale: 'ar', value: 'مانجو' },
    ]);
    // Two Arabic-only units named against the order of their ids: a sort that took them for
    // unnamed (tied, then ordered by id) would list them the other way round.
    const [low, high] = [
      await add([{ locale: 'ar', value: 'س' }]),
      await add([{ locale: 'ar', value: 'ص' }]),
    ].sort();
    ids.house = low!;
    ids.rabbit = high!;
    dataOf(await rename(ids.house, [{ locale: 'ar', value: 'بيت' }], sorted));
    dataOf(await rename(ids.rabbit, [{ locale: 'ar', value: 'أرنب' }], sorted));
  });

  const order = async (sort: string, language: string) => {
    const page = await call('GET', `?sort=${sort}&pageSize=100`, { workspace: sorted, language });
    const keyOf = new Map(Object.entries(ids).map(([key, id]) => [id, key]));
    return dataOf<MeasurementUnitRecord[]>(page).map((unit) => keyOf.get(unit.id));
  };

  it('an English reader: by the English name, a unit named only in Arabic by its Arabic name', async () => {
    // ICU's root collation puts Latin letters before Arabic ones.
    const expected = ['apple', 'mango', 'zebra', 'rabbit', 'house'];
    expect(await order('name', 'en-US,en;q=0.9')).toEqual(expected);
    expect(await order('-name', 'en')).toEqual([...expected].reverse());
  });

  it('an Arabic reader: by the Arabic name, a unit named only in English by its English name', async () => {
    const expected = ['apple', 'rabbit', 'house', 'zebra', 'mango'];
    expect(await order('name', 'ar')).toEqual(expected);
    expect(await order('-name', 'ar-EG,ar;q=0.9')).toEqual([...expected].reverse());
  });

  it.each<[ReaderLocale, string]>([
    ['en', 'name'],
    ['en', '-name'],
    ['ar', 'name'],
    ['ar', '-name'],
  ])('a reader in %s sorting by %s reads the name index of that language', async (locale, sort) => {
    const plan = await listPagePlan(t.db, 'measurementUnits', measurementUnits, sorted.id, { sort, locale });
    expect(plan).toMatch(new RegExp(`Index Scan (Backward )?using measurement_units_name_${locale}_idx`));
    // Only the id tie-break is sorted, within runs of equal names (an incremental sort).
    expect(plan, plan).not.toMatch(/(^|-> {2})Sort\b/m);
  });
});
