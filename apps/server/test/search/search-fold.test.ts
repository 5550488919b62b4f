import { normalizeSearchText, searchTextTranslation } from '@dukkan/contract';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf } from '../helpers/api.ts';
import { callInWorkspace } from '../helpers/shops.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { addMember, createWorkspace, type TestMember } from '../helpers/workspaces.ts';

/*
 * `search_fold`, the SQL mirror of the contract's `normalizeSearchText` (migration 0022), folds
 * every text as the TypeScript does, on this database: the stored search text and the typed term
 * meet in the same form. And a list finds what people type: a name stored with hamza by a query
 * without it, a phone stored in ASCII digits by Arabic-Indic ones.
 */
let t: TestApp;
let shop: { id: string };
let admin: TestMember;

beforeAll(async () => {
  t = await createTestApp();
  shop = await createWorkspace(t.db, 'Search Fold Shop');
  admin = await addMember(t.db, shop.id, { isAdmin: true });
});
afterAll(async () => {
  await t?.close();
});

/** `search_fold` of each text, in order, in one statement. */
async function foldedInSql(texts: string[]): Promise<string[]> {
  const result = await t.db.execute(
    sql`select search_fold(typed) as folded from json_array_elements_text(${JSON.stringify(texts)}::json) with ordinality as typed_texts(typed, place) order by place`,
  );
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as {
    folded: string;
  }[];
  return rows.map((row) => row.folded);
}

const range = (first: number, last: number) => fc.integer({ min: first, max: last });
/** A character of a block the fold touches, or any code point but NUL (which a text cannot hold). */
const character = fc.oneof(
  fc.constantFrom(...searchTextTranslation.from, ...searchTextTranslation.to),
  range(0x0600, 0x06ff).map((code) => String.fromCodePoint(code)), // Arabic, with Persian letters and digits
  range(0x00c0, 0x024f).map((code) => String.fromCodePoint(code)), // accented Latin
  range(0x0370, 0x04ff).map((code) => String.fromCodePoint(code)), // Greek and Cyrillic
  range(0x0030, 0x0039).map((code) => String.fromCodePoint(code)), // ASCII digits
  range(0x0001, 0xd7ff).map((code) => String.fromCodePoint(code)),
  range(0xe000, 0x10ffff).map((code) => String.fromCodePoint(code)),
);

describe('search_fold is normalizeSearchText in SQL', () => {
  it('folds every character of the contract table as the contract does', async () => {
    const characters = [...new Set([...searchTextTranslation.from, ...searchTextTranslation.to])];
    expect(await foldedInSql(characters)).toEqual(characters.map(normalizeSearchText));
  });

  it('folds random texts of Arabic, Persian, accented Latin, both digit sets and any code point alike', async () => {
    const texts = fc.sample(
      fc.array(character, { maxLength: 24 }).map((characters) => characters.join('')),
      { numRuns: 2000, seed: 36 },
    );
    expect(await foldedInSql(texts)).toEqual(texts.map(normalizeSearchText));
  });

  it('folds texts of ASCII only, and of ASCII and the Arabic block only, alike (its faster paths, migration 0030)', async () => {
    const ascii = range(0x0001, 0x007f).map((code) => String.fromCodePoint(code));
    const arabicBlock = range(0x0600, 0x06ff).map((code) => String.fromCodePoint(code));
    const texts = [
      ...fc.sample(
        fc.array(ascii, { minLength: 1, maxLength: 24 }).map((characters) => characters.join('')),
        {
          numRuns: 500,
          seed: 37,
        },
      ),
      ...fc.sample(
        fc
          .array(fc.oneof(ascii, arabicBlock), { minLength: 1, maxLength: 24 })
          .map((characters) => characters.join('')),
        { numRuns: 1000, seed: 38 },
      ),
      // One character beyond them sends the text down the whole table.
      'Ahmad أحمد \u200c',
      'CAFÉ',
      'ΑΘΗΝΑ',
      'МОСКВА',
    ];
    expect(await foldedInSql(texts)).toEqual(texts.map(normalizeSearchText));
  });
});

describe('a list search folds the typed term as the stored text', () => {
  const call = (method: 'GET' | 'POST' | 'PATCH', path: string, body?: unknown) =>
    callInWorkspace(t, shop, path, { method, body, member: admin, language: 'ar' });
  const found = async (resource: string, term: string) =>
    dataOf<{ id: string }[]>(await call('GET', `${resource}?search=${encodeURIComponent(term)}`)).map(
      (record) => record.id,
    );

  it('finds a customer stored with hamza by a query without it, and a phone by Arabic-Indic digits', async () => {
    const customer = dataOf<{ id: string }>(
      await call('POST', 'customers', { code: 'FOLD-C1', name: 'أحمد مصطفى', phones: ['+201001234567'] }),
    );
    expect(await found('customers', 'احمد')).toEqual([customer.id]);
    expect(await found('customers', 'مصطفي')).toEqual([customer.id]);
    expect(await found('customers', '٠١٠٠١٢٣')).toEqual([customer.id]);
    expect(await found('customers', '۰۱۰۰۱۲۳')).toEqual([customer.id]);
    expect(await found('customers', 'محمد')).toEqual([]);
  });

  it('finds a brand by a name typed with diacritics, tatweel and teh marbuta as heh', async () => {
    const brand = dataOf<{ id: string }>(
      await call('POST', 'brands', { code: 'FOLD-B1', name: [{ locale: 'ar', value: 'مدرسة الخياطة' }] }),
    );
    expect(await found('brands', 'مدرسه')).toEqual([brand.id]);
    expect(await found('brands', 'مَدْرَسَة')).toEqual([brand.id]);
    expect(await found('brands', 'الخيـــاطة')).toEqual([brand.id]);
  });

  it('ranks with no sort given: a field that is the search, then one that starts with it, then the rest', async () => {
    const codes = ['RANK-1', 'RANK-2', 'RANK-3', 'RANK-4'];
    const names = ['Iced latte', 'Latte macchiato', 'Latte', 'قهوة لاتيه'];
    const ids = [];
    for (const [index, code] of codes.entries())
      ids.push(
        dataOf<{ id: string }>(
          await call('POST', 'brands', {
            code,
            name: [{ locale: names[index]!.startsWith('ق') ? 'ar' : 'en', value: names[index] }],
          }),
        ).id,
      );
    const [iced, macchiato, latte] = ids;
    expect(await found('brands', 'LATTE')).toEqual([latte, macchiato, iced]);
    // A sort given wins; paging keeps the ranked order.
    const sorted = dataOf<{ id: string }[]>(await call('GET', 'brands?search=latte&sort=code'));
    expect(sorted.map((record) => record.id)).toEqual([iced, macchiato, latte]);
    const second = dataOf<{ id: string }[]>(await call('GET', 'brands?search=latte&pageSize=1&page=2'));
    expect(second.map((record) => record.id)).toEqual([macchiato]);

    // A field that is the text as typed, article and all, ranks first too.
    const teaShop = dataOf<{ id: string }>(
      await call('POST', 'brands', { code: 'RANK-5', name: [{ locale: 'ar', value: 'شاي بالنعناع' }] }),
    ).id;
    const theTea = dataOf<{ id: string }>(
      await call('POST', 'brands', { code: 'RANK-6', name: [{ locale: 'ar', value: 'الشاي' }] }),
    ).id;
    expect(await found('brands', 'الشاي')).toEqual([theTea, teaShop]);
  });

  it('finds a misspelt word where nothing is found as typed: ranked, its total, pages and export exact', async () => {
    const names = ['Croissant House', 'Crescent Bakery', 'Butter croissants'];
    const ids: string[] = [];
    const brand = async (code: string, name: string) =>
      dataOf<{ id: string }>(await call('POST', 'brands', { code, name: [{ locale: 'en', value: name }] }))
        .id;
    for (const [index, name] of names.entries()) ids.push(await brand(`TYPO-${index + 1}`, name));
    const [house, , butter] = ids;
    // Nothing is `croisant` as typed: the records with a word like it, by code.
    expect(await found('brands', 'croisant')).toEqual([house, butter]);
    const page = await call('GET', 'brands?search=croisant&pageSize=1&page=2');
    expect(dataOf<{ id: string }[]>(page).map((record) => record.id)).toEqual([butter]);
    expect((page.json as { meta: { total: number } }).meta.total).toBe(2);
    // A sort given wins over the rank.
    const sorted = dataOf<{ id: string }[]>(await call('GET', 'brands?search=croisant&sort=name'));
    expect(sorted.map((record) => record.id)).toEqual([butter, house]);
    const exported = await call('GET', 'brands/export?format=csv&search=croisant');
    expect(exported.status).toBe(200);
    expect(exported.text.match(/TYPO-\d/g)).toEqual(['TYPO-1', 'TYPO-3']);
    // Too short a word, or a code, is found only as typed.
    expect(await found('brands', 'croi')).toEqual([house, butter]);
    expect(await found('brands', 'TYPO-6')).toEqual([]);

    // Once a record holds the word as typed, the search finds what is typed, in the list and
    // its export alike.
    const corner = await brand('TYPO-4', 'Croisant Corner');
    expect(await found('brands', 'croisant')).toEqual([corner]);
    const again = await call('GET', 'brands/export?format=csv&search=croisant');
    expect(again.text.match(/TYPO-\d/g)).toEqual(['TYPO-4']);

    // An edited record's new words are compared too (the words of each list, decision 0050);
    // a word it no longer holds finds it no more.
    expect(
      (await call('PATCH', `brands/${house}`, { name: [{ locale: 'en', value: 'Pistachio House' }] })).status,
    ).toBe(200);
    expect(await found('brands', 'pistacio')).toEqual([house]);
    expect(await found('brands', 'croisants')).toEqual([butter, corner]);
  });

  it('takes a term of marks alone as no search', async () => {
    const all = dataOf<unknown[]>(await call('GET', 'brands?pageSize=100'));
    expect(await found('brands', '\u064e\u0640')).toHaveLength(all.length);
  });
});
