import { type CategoryRecord, type TaxRecord, validationCodes } from '@dukkan/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { categories, taxes, wasteCategories } from '../src/db/schema/index.ts';
import type { ReaderLocale } from '../src/resource-engine/storage.ts';
import { dataOf, expectValidation } from './helpers/api.ts';
import { listPagePlan } from './helpers/list-plan.ts';
import { callInWorkspace } from './helpers/shops.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { addMember, createWorkspace, type TestMember, unique } from './helpers/workspaces.ts';

/**
 * A tax's title and a category's (or waste category's) description are localized like a name:
 * `[{ locale, value }]` in English, in Arabic or in both, stored in `<field>_en` / `<field>_ar`,
 * searched in both, a tax's title sorted in the reader's language. A text missing in both
 * languages is refused with the field's own "required" code, as a name is with NAME_IS_REQUIRED.
 */
let t: TestApp;
let shop: { id: string };
let admin: TestMember;

beforeAll(async () => {
  t = await createTestApp();
  shop = await createWorkspace(t.db, 'Localized Texts Shop');
  admin = await addMember(t.db, shop.id, { isAdmin: true });
});
afterAll(async () => {
  await t?.close();
});

type Text = { locale: 'en' | 'ar'; value: string }[];
const both = (en: string, ar: string): Text => [
  { locale: 'en', value: en },
  { locale: 'ar', value: ar },
];

const call = (
  method: 'GET' | 'POST' | 'PATCH',
  path: string,
  {
    body,
    workspace = shop,
    language = 'en',
  }: { body?: unknown; workspace?: { id: string }; language?: string } = {},
) => callInWorkspace(t, workspace, path, { method, body, member: admin, language });

const taxInput = (title: unknown) => ({ code: unique('t'), title, country: 'EG', rate: 14 });
const storedTitle = async (id: string) =>
  (
    await t.db.select({ titleEn: taxes.titleEn, titleAr: taxes.titleAr }).from(taxes).where(eq(taxes.id, id))
  )[0];

describe('a tax title in each language', () => {
  it('both languages are stored apart and returned, on create, get and list', async () => {
    const created = dataOf<TaxRecord>(
      await call('POST', 'taxes', { body: taxInput(both(' Value added tax ', ' ضريبة القيمة المضافة ')) }),
    );
    const expected = both('Value added tax', 'ضريبة القيمة المضافة');
    expect(created.title).toEqual(expected);
    expect(await storedTitle(created.id)).toEqual({
      titleEn: 'Value added tax',
      titleAr: 'ضريبة القيمة المضافة',
    });
    expect(dataOf<TaxRecord>(await call('GET', `taxes/${created.id}`)).title).toEqual(expected);
    const listed = dataOf<TaxRecord[]>(await call('GET', `taxes?search=${created.code}`));
    expect(listed.map((tax) => tax.title)).toEqual([expected]);
  });

  it('one language is enough, and an update names the whole title (a language left out is cleared)', async () => {
    const arabic = dataOf<TaxRecord>(
      await call('POST', 'taxes', { body: taxInput([{ locale: 'ar', value: 'رسوم' }]) }),
    );
    expect(arabic.title).toEqual([{ locale: 'ar', value: 'رسوم' }]);
    expect(await storedTitle(arabic.id)).toEqual({ titleEn: null, titleAr: 'رسوم' });
    const renamed = await call('PATCH', `taxes/${arabic.id}`, {
      body: { title: [{ locale: 'en', value: 'Fee' }] },
    });
    expect(dataOf<TaxRecord>(renamed).title).toEqual([{ locale: 'en', value: 'Fee' }]);
    expect(await storedTitle(arabic.id)).toEqual({ titleEn: 'Fee', titleAr: null });
    // A change that does not name the title keeps it.
    dataOf(await call('PATCH', `taxes/${arabic.id}`, { body: { rate: 5 } }));
    expect(await storedTitle(arabic.id)).toEqual({ titleEn: 'Fee', titleAr: null });
  });

  it.each<[string, unknown, string]>([
    ['no language', [], 'title'],
    ['no title at all', undefined, 'title'],
    ['a text in one language only, as the title was before', 'VAT', 'title'],
    ['blank in its only language', [{ locale: 'ar', value: ' ' }], 'title.0.value'],
  ])('%s → 400 TITLE_IS_REQUIRED at %s, nothing stored', async (_label, title, path) => {
    const input = taxInput(title);
    const refused = await call('POST', 'taxes', { body: input });
    expectValidation(refused, path, validationCodes.TITLE_IS_REQUIRED);
    expect(dataOf<TaxRecord[]>(await call('GET', `taxes?search=${input.code}`))).toEqual([]);
  });

  it('a language twice → TITLE_LOCALE_REPEATED; too long → TITLE_TOO_LONG; an update to none is refused', async () => {
    expectValidation(
      await call('POST', 'taxes', {
        body: taxInput([
          { locale: 'ar', value: 'أ' },
          { locale: 'ar', value: 'ب' },
        ]),
      }),
      'title',
      validationCodes.TITLE_LOCALE_REPEATED,
    );
    expectValidation(
      await call('POST', 'taxes', { body: taxInput([{ locale: 'ar', value: 'ب'.repeat(61) }]) }),
      'title.0.value',
      validationCodes.TITLE_TOO_LONG,
    );
    const tax = dataOf<TaxRecord>(
      await call('POST', 'taxes', { body: taxInput(both('Stamp duty', 'ضريبة الدمغة')) }),
    );
    expectValidation(
      await call('PATCH', `taxes/${tax.id}`, { body: { title: [] } }),
      'title',
      validationCodes.TITLE_IS_REQUIRED,
    );
    expect(await storedTitle(tax.id)).toEqual({ titleEn: 'Stamp duty', titleAr: 'ضريبة الدمغة' });
  });

  it('a bulk takes localized titles, and refuses a row without one naming the row', async () => {
    const rows = [
      taxInput(both('Sales tax', 'ضريبة المبيعات')),
      taxInput([{ locale: 'ar', value: 'ضريبة الملاهي' }]),
    ];
    const created = dataOf<TaxRecord[]>(await call('POST', 'taxes/bulk', { body: rows }));
    expect(created.map((tax) => tax.title)).toEqual([
      both('Sales tax', 'ضريبة المبيعات'),
      [{ locale: 'ar', value: 'ضريبة الملاهي' }],
    ]);
    const refused = await call('POST', 'taxes/bulk', { body: [taxInput(both('A', 'أ')), taxInput('B')] });
    expectValidation(refused, '1.title', validationCodes.TITLE_IS_REQUIRED);
  });

  it('the database refuses a tax with neither title', async () => {
    await expect(
      t.db.insert(taxes).values({ workspaceId: shop.id, code: unique('t'), country: 'EG', rate: 1 }),
    ).rejects.toMatchObject({ cause: expect.objectContaining({ constraint: 'taxes_title_present' }) });
  });
});

describe('taxes searched and sorted by title', () => {
  let sorted: { id: string };
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    sorted = await createWorkspace(t.db, unique('Sorted taxes '));
    await addMember(t.db, sorted.id, { user: admin.user, isAdmin: true });
    const add = async (title: Text) =>
      dataOf<TaxRecord>(await call('POST', 'taxes', { body: taxInput(title), workspace: sorted })).id;
    // English order: apple, mango, zebra, then the Arabic-only ones; Arabic order differs.
    ids.apple = await add([{ locale: 'en', value: 'Apple levy' }]);
    ids.zebra = await add(both('Zebra duty', 'أ رسم'));
    ids.mango = await add(both('mango tax', 'ي ضريبة'));
    ids.house = await add([{ locale: 'ar', value: 'ب ضريبة' }]);
  });

  const order = async (sort: string, language: string) => {
    const page = await call('GET', `taxes?sort=${sort}&pageSize=100`, { workspace: sorted, language });
    const keyOf = new Map(Object.entries(ids).map(([key, id]) => [id, key]));
    return dataOf<TaxRecord[]>(page).map((tax) => keyOf.get(tax.id));
  };

  it('an English reader: by the English title, a tax titled only in Arabic by its Arabic title', async () => {
    expect(await order('title', 'en')).toEqual(['apple', 'mango', 'zebra', 'house']);
    expect(await order('-title', 'en')).toEqual(['house', 'zebra', 'mango', 'apple']);
  });

  it('an Arabic reader: by the Arabic title, a tax titled only in English by its English title', async () => {
    // ICU's root collation puts Latin letters before Arabic ones.
    expect(await order('title', 'ar')).toEqual(['apple', 'zebra', 'house', 'mango']);
    expect(await order('-title', 'ar')).toEqual(['mango', 'house', 'zebra', 'apple']);
  });

  it.each<[ReaderLocale, string]>([
    ['en', 'title'],
    ['en', '-title'],
    ['ar', 'title'],
    ['ar', '-title'],
  ])('a reader in %s sorting by %s reads the title index of that language', async (locale, sort) => {
    const plan = await listPagePlan(t.db, 'taxes', taxes, sorted.id, { sort, locale });
    expect(plan).toMatch(new RegExp(`Index Scan (Backward )?using taxes_title_${locale}_idx`));
  });

  it('a search finds a tax by its title in either language', async () => {
    const found = async (term: string) =>
      dataOf<TaxRecord[]>(
        await call('GET', `taxes?search=${encodeURIComponent(term)}&pageSize=100`, { workspace: sorted }),
      ).map((tax) => tax.id);
    expect(await found('zebra duty')).toEqual([ids.zebra]);
    expect(await found('أ رسم')).toEqual([ids.zebra]);
    expect(await found('ب ضريبة')).toEqual([ids.house]);
  });
});

describe.each([
  { path: 'categories', table: categories },
  { path: 'waste-categories', table: wasteCategories },
])('a description in each language: $path', ({ path, table }) => {
  const input = (description: unknown) => ({
    code: unique('c'),
    name: [{ locale: 'en', value: 'Drinks' }],
    description,
  });
  const stored = async (id: string) =>
    (
      await t.db
        .select({ en: table.descriptionEn, ar: table.descriptionAr })
        .from(table)
        .where(eq(table.id, id))
    )[0];

  it('both languages are stored apart, returned, and found by a search in either', async () => {
    const tag = unique('');
    const description = both(`Hot and cold ${tag}`, `ساخنة وباردة ${tag}`);
    const created = dataOf<CategoryRecord>(await call('POST', path, { body: input(description) }));
    expect(created.description).toEqual(description);
    expect(await stored(created.id)).toEqual({ en: `Hot and cold ${tag}`, ar: `ساخنة وباردة ${tag}` });
    expect(dataOf<CategoryRecord>(await call('GET', `${path}/${created.id}`)).description).toEqual(
      description,
    );
    for (const term of [`hot and cold ${tag}`, `ساخنة وباردة ${tag}`]) {
      const found = dataOf<CategoryRecord[]>(await call('GET', `${path}?search=${encodeURIComponent(term)}`));
      expect(
        found.map((category) => category.id),
        term,
      ).toEqual([created.id]);
    }
  });

  it('an Arabic description alone is enough; none is DESCRIPTION_IS_REQUIRED, as no name is NAME_IS_REQUIRED', async () => {
    const arabic = dataOf<CategoryRecord>(
      await call('POST', path, { body: input([{ locale: 'ar', value: 'كل ما يُشرب' }]) }),
    );
    expect(await stored(arabic.id)).toEqual({ en: null, ar: 'كل ما يُشرب' });
    expectValidation(
      await call('POST', path, { body: input([]) }),
      'description',
      validationCodes.DESCRIPTION_IS_REQUIRED,
    );
    expectValidation(
      await call('POST', path, { body: input('Everything to drink') }),
      'description',
      validationCodes.DESCRIPTION_IS_REQUIRED,
    );
    expectValidation(
      await call('POST', path, { body: { ...input([{ locale: 'en', value: 'x' }]), name: [] } }),
      'name',
      validationCodes.NAME_IS_REQUIRED,
    );
    expectValidation(
      await call('POST', path, { body: input([{ locale: 'en', value: 'x'.repeat(255) }]) }),
      'description.0.value',
      validationCodes.DESCRIPTION_TOO_LONG,
    );
  });
});
