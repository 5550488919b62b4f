import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { products } from '../../src/db/schema/index.ts';
import { dataOf, named } from '../helpers/api.ts';
import { callInWorkspace } from '../helpers/shops.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { addMember, createWorkspace, type TestMember } from '../helpers/workspaces.ts';
import {
  type LabelledName,
  type LabelledQuery,
  readLabelledQueries,
  type SearchedResource,
  searchedResources,
} from './labelled-queries.ts';

/*
 * The labelled queries (`labelled-queries.json`) through the lists' own search, on this test run's
 * database: each query's records are created through the API (a product's variants as the codes
 * column its variants keep, which is what search reads of them), each query is a list request, and
 * what it finds is scored against what it should. Recall and precision are printed — over every
 * query but the typos, the typos apart, and per phenomenon — and held to the search issue's
 * targets: recall at least 0.95, precision at least 0.97 — over every query, typos and all. The
 * typos alone are held to what matching misspelt words found when it was built (0.880, decision
 * 0043), less a pair or two.
 */
const targets = { recall: 0.95, precision: 0.97 };
const typoRecall = 0.8;
const set = readLabelledQueries();

let t: TestApp;
let shop: { id: string };
let admin: TestMember;
/** Each record's id by its key in the file. */
const keyOf = new Map<string, string>();

const name = ({ en, ar }: LabelledName) => named(en ?? undefined, ar ?? undefined);
const call = (method: 'GET' | 'POST', path: string, body?: unknown) =>
  callInWorkspace(t, shop, path, { method, body, member: admin });
const created = async (key: string, path: string, body: unknown) => {
  const { id } = dataOf<{ id: string }>(await call('POST', path, body));
  keyOf.set(id, key);
  return id;
};

beforeAll(async () => {
  t = await createTestApp();
  shop = await createWorkspace(t.db, 'Labelled Search Shop');
  admin = await addMember(t.db, shop.id, { isAdmin: true });
  const unit = dataOf<{ id: string }>(
    await call('POST', 'measurement-units', { code: 'PC', name: named('Piece', 'قطعة'), symbol: 'pc' }),
  ).id;
  const { records } = set;
  for (const product of records.products) {
    const id = await created(product.key, 'products', {
      code: product.code,
      name: name(product.name),
      measurementUnitId: unit,
    });
    const codes = product.variants.flatMap((variant) => [variant.sku, variant.barcode ?? []]).flat();
    await t.db
      .update(products)
      .set({ variantCodes: codes.join(' ') })
      .where(and(eq(products.workspaceId, shop.id), eq(products.id, id)));
  }
  for (const customer of records.customers)
    await created(customer.key, 'customers', {
      code: customer.code,
      name: customer.name,
      phones: customer.phones,
    });
  for (const category of records.categories)
    await created(category.key, 'categories', {
      code: category.code,
      name: name(category.name),
      ...(category.description.en || category.description.ar
        ? { description: name(category.description) }
        : {}),
    });
  for (const brand of records.brands)
    await created(brand.key, 'brands', { code: brand.code, name: name(brand.name) });
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const paths: Record<SearchedResource, string> = {
  products: 'products',
  customers: 'customers',
  categories: 'categories',
  brands: 'brands',
};

interface Scored {
  query: LabelledQuery;
  found: string[];
}

function score(scored: Scored[]) {
  let expected = 0;
  let found = 0;
  let right = 0;
  for (const { query, found: keys } of scored) {
    expected += query.expected.length;
    found += keys.length;
    right += keys.filter((key) => query.expected.includes(key)).length;
  }
  return {
    queries: scored.length,
    recall: expected === 0 ? null : right / expected,
    precision: found === 0 ? null : right / found,
  };
}

const figure = (value: number | null) => (value === null ? '–' : value.toFixed(3));

describe('the labelled search queries through the list search', () => {
  it(`find at least ${targets.recall} of what they should, and are right at least ${targets.precision} of the time`, async () => {
    expect(new Set(set.queries.map((query) => query.resource))).toEqual(new Set(searchedResources));
    const scored: Scored[] = [];
    for (const query of set.queries) {
      const response = await call(
        'GET',
        `${paths[query.resource]}?search=${encodeURIComponent(query.text)}&pageSize=100`,
      );
      const ids = dataOf<{ id: string }[]>(response).map((record) => record.id);
      scored.push({ query, found: ids.map((id) => keyOf.get(id) ?? `(not labelled) ${id}`) });
    }
    const typo = (entry: Scored) => entry.query.phenomena.includes('typo');
    const all = score(scored.filter((entry) => !typo(entry)));
    const typos = score(scored.filter(typo));
    const overall = score(scored);
    const nothing = scored.filter((entry) => entry.query.expected.length === 0);
    const lines = [
      `labelled search queries on ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}: all but typos (${all.queries}) recall ${figure(all.recall)}, precision ${figure(all.precision)}; typos (${typos.queries}) recall ${figure(typos.recall)}, precision ${figure(typos.precision)}; all (${overall.queries}) recall ${figure(overall.recall)}, precision ${figure(overall.precision)}`,
      ...Object.keys(set.phenomena)
        .filter((phenomenon) => phenomenon !== 'typo')
        .map((phenomenon) => {
          const tagged = score(scored.filter((entry) => entry.query.phenomena.includes(phenomenon)));
          return `  ${phenomenon} (${tagged.queries}): recall ${figure(tagged.recall)}, precision ${figure(tagged.precision)}`;
        }),
      `  must find nothing (${nothing.length}): ${nothing.filter((entry) => entry.found.length > 0).length} found something`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
    const missed = scored.flatMap(({ query, found }) => [
      ...query.expected.filter((key) => !found.includes(key)).map((key) => `${query.text} missed ${key}`),
      ...found.filter((key) => !query.expected.includes(key)).map((key) => `${query.text} found ${key}`),
    ]);
    expect(overall.recall ?? 0, missed.join('\n')).toBeGreaterThanOrEqual(targets.recall);
    expect(overall.precision ?? 0, missed.join('\n')).toBeGreaterThanOrEqual(targets.precision);
    expect(all.recall ?? 0, missed.join('\n')).toBeGreaterThanOrEqual(targets.recall);
    expect(all.precision ?? 0, missed.join('\n')).toBeGreaterThanOrEqual(targets.precision);
    expect(typos.recall ?? 0, missed.join('\n')).toBeGreaterThanOrEqual(typoRecall);
  }, 120_000);
});
