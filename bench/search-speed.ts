/**
 * `npm run bench:search-speed -w @dukkan/bench`: how long the labelled search queries
 * (`apps/server/test/search/labelled-queries.json`) take through the lists, end to end, in a
 * workspace of 100,000 products with 20 variants each on PostgreSQL (10,000 on PGlite) — the
 * search issue's speed target: p95 at most 20 ms on PostgreSQL with one client, PGlite reported.
 *
 * Per database: the products list's data is seeded as products-list.ts seeds it (products-seed.ts);
 * the server is started and the labelled records (products, customers, categories, brands) are
 * created in the big workspace through the API, as the labelled test creates them; the server is
 * stopped and the labelled products' variant codes written (what search reads of a product's
 * variants, as the labelled test writes them); then the server is started afresh, every query is
 * sent once to warm it, and BENCH_PASSES (5) passes of every query follow, one request at a
 * time (the first page of the list, as the page opens it: no sort, the default page size). Each
 * answer must be 200. Reports p50, p95, p99 and the slowest per resource and over all, and how
 * many of the labelled records each pass found (recall over the large data, typos apart).
 *
 * Environment: BENCH_DATABASES (pglite,postgres), BENCH_PASSES (5), BENCH_WORKSPACES (20),
 * BENCH_PRODUCTS (100000 on PostgreSQL), BENCH_PRODUCTS_PGLITE (10000), BENCH_OTHER_PRODUCTS (200),
 * BENCH_POSTGRES_URL (as auth.ts).
 */
import { sql } from 'drizzle-orm';
import {
  type LabelledName,
  type LabelledQuery,
  readLabelledQueries,
  type SearchedResource,
  searchedResources,
} from '../apps/server/test/search/labelled-queries.ts';
import { seedProductList } from './products-seed.ts';
import { benchDatabases, type DatabaseKind, databaseName, type Skipped } from './support/database-kinds.ts';
import { freshDatabase, migrated } from './support/databases.ts';
import { type DatabaseMachine, databaseMachine, machineLine } from './support/machine.ts';
import { median, round1 } from './support/numbers.ts';
import { writeResult } from './support/results.ts';
import { intFromEnv, runAsScript } from './support/script.ts';
import { withServer } from './support/server.ts';

/** The issue's target: p95 of one client's queries, end to end, on PostgreSQL. */
export const searchSpeedTarget = { p95Ms: 20 } as const;

interface Settings {
  passes: number;
  workspaces: number;
  products: Record<DatabaseKind, number>;
  otherProducts: number;
}

interface Latencies {
  requests: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

interface DatabaseResult {
  database: DatabaseKind;
  products: number;
  variants: number;
  seedSeconds: number;
  /** By resource, and `all`. */
  latencies: Record<SearchedResource | 'all', Latencies>;
  /** Of the labelled records the queries should find, the share found (typos apart). */
  recall: { all: number; typos: number };
  /** The slowest queries by their median over the passes, with how many records they found. */
  slowest: { resource: SearchedResource; text: string; medianMs: number; total: number }[];
  withinTarget: boolean;
}

export interface SearchSpeedReport {
  machine: DatabaseMachine;
  settings: Settings;
  queries: number;
  results: DatabaseResult[];
  skipped: Skipped[];
}

function percentile(sorted: number[], share: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)]!;
}

function latenciesOf(samples: number[]): Latencies {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    requests: sorted.length,
    p50: round1(percentile(sorted, 0.5)),
    p95: round1(percentile(sorted, 0.95)),
    p99: round1(percentile(sorted, 0.99)),
    max: round1(sorted.at(-1) ?? 0),
  };
}

/** A localized name as the API takes it: one entry per language the record has. */
const named = ({ en, ar }: LabelledName) => [
  ...(en ? [{ locale: 'en', value: en }] : []),
  ...(ar ? [{ locale: 'ar', value: ar }] : []),
];

/** A JSON call to the API as the seeded admin: the answer's `data`, or an error naming the call. */
async function api<T, M = unknown>(
  url: string,
  cookie: string,
  method: 'GET' | 'POST',
  body?: unknown,
): Promise<{ data: T; meta?: M; ms: number }> {
  const started = performance.now();
  const response = await fetch(url, {
    method,
    headers: {
      cookie,
      'accept-language': 'en',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const ms = performance.now() - started;
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${text.slice(0, 300)}`);
  const answer = JSON.parse(text) as { data: T; meta?: M };
  return { data: answer.data, meta: answer.meta, ms };
}

async function benchDatabase(database: DatabaseKind, settings: Settings, report: SearchSpeedReport) {
  const fresh = await freshDatabase(database, 'search-speed', report);
  if (!fresh) return;
  const { options, variables } = fresh;
  const set = readLabelledQueries();
  const say = (message: string) => process.stdout.write(`  ${database.padEnd(8)} ${message}\n`);
  try {
    const started = performance.now();
    const seed = await migrated(options, (db) =>
      seedProductList(db, {
        workspaces: settings.workspaces,
        bigProducts: settings.products[database],
        otherProducts: settings.otherProducts,
        progress: (message) =>
          say(`seeding: ${message} (${Math.round((performance.now() - started) / 1000)} s)`),
      }),
    );
    const seedSeconds = Math.round((performance.now() - started) / 100) / 10;
    say(`seeded ${seed.products.big.toLocaleString('en-US')} products in ${seedSeconds} s`);

    // The labelled records, through the API as the labelled test creates them.
    const keyOf = new Map<string, string>();
    await withServer(variables, `search speed bench on ${database} (records)`, async (server) => {
      const at = (path: string) =>
        `${server.url}/api/${path}${path.includes('?') ? '&' : '?'}workspaceId=${seed.workspaceId}`;
      const create = async (key: string, path: string, body: unknown) => {
        const { data } = await api<{ id: string }>(at(path), seed.cookie, 'POST', body);
        keyOf.set(data.id, key);
      };
      const unit = await api<{ id: string }>(at('measurement-units'), seed.cookie, 'POST', {
        code: 'LBL',
        name: named({ en: 'Labelled piece', ar: 'قطعة موسومة' }),
        symbol: 'pc',
      });
      const { records } = set;
      for (const product of records.products)
        await create(product.key, 'products', {
          code: product.code,
          name: named(product.name),
          measurementUnitId: unit.data.id,
        });
      for (const customer of records.customers)
        await create(customer.key, 'customers', {
          code: customer.code,
          name: customer.name,
          phones: customer.phones,
        });
      for (const category of records.categories)
        await create(category.key, 'categories', {
          code: category.code,
          name: named(category.name),
          ...(category.description.en || category.description.ar
            ? { description: named(category.description) }
            : {}),
        });
      for (const brand of records.brands)
        await create(brand.key, 'brands', { code: brand.code, name: named(brand.name) });
    });
    await migrated(options, async (db) => {
      for (const product of set.records.products) {
        const codes = product.variants.flatMap((variant) => [variant.sku, variant.barcode ?? []]).flat();
        await db.execute(
          sql`UPDATE products SET variant_codes = ${codes.join(' ')} WHERE workspace_id = ${seed.workspaceId} AND code = ${product.code}`,
        );
      }
      await db.execute(sql`ANALYZE`);
    });
    say(`created ${keyOf.size} labelled records`);

    const samples: Record<SearchedResource, number[]> = {
      products: [],
      customers: [],
      categories: [],
      brands: [],
    };
    const found = { all: { expected: 0, right: 0 }, typos: { expected: 0, right: 0 } };
    const byQuery = new Map<LabelledQuery, { ms: number[]; total: number }>();
    await withServer(variables, `search speed bench on ${database}`, async (server) => {
      const ask = (query: LabelledQuery) =>
        api<{ id: string }[], { total: number }>(
          `${server.url}/api/${query.resource}?workspaceId=${seed.workspaceId}&search=${encodeURIComponent(query.text)}`,
          seed.cookie,
          'GET',
        );
      for (const query of set.queries) await ask(query);
      for (let pass = 1; pass <= settings.passes; pass += 1) {
        for (const query of set.queries) {
          const { data, ms, meta } = await ask(query);
          samples[query.resource].push(ms);
          const timings = byQuery.get(query) ?? { ms: [], total: meta?.total ?? 0 };
          timings.ms.push(ms);
          byQuery.set(query, timings);
          if (pass > 1) continue;
          const keys = new Set(data.map((record) => keyOf.get(record.id)));
          const tally = query.phenomena.includes('typo') ? found.typos : found.all;
          tally.expected += query.expected.length;
          tally.right += query.expected.filter((key) => keys.has(key)).length;
        }
        say(`pass ${pass}: ${set.queries.length} queries`);
      }
    });
    const all = latenciesOf(searchedResources.flatMap((resource) => samples[resource]));
    const share = ({ expected, right }: { expected: number; right: number }) =>
      expected === 0 ? 0 : Math.round((right / expected) * 1000) / 1000;
    report.results.push({
      database,
      products: seed.products.big,
      variants: seed.variants,
      seedSeconds,
      latencies: {
        all,
        ...(Object.fromEntries(
          searchedResources.map((resource) => [resource, latenciesOf(samples[resource])]),
        ) as Record<SearchedResource, Latencies>),
      },
      recall: { all: share(found.all), typos: share(found.typos) },
      slowest: [...byQuery.entries()]
        .map(([query, timings]) => ({
          resource: query.resource,
          text: query.text,
          medianMs: round1(median(timings.ms)),
          total: timings.total,
        }))
        .sort((a, b) => b.medianMs - a.medianMs)
        .slice(0, 10),
      withinTarget: all.p95 <= searchSpeedTarget.p95Ms,
    });
    say(`p50 ${all.p50} ms, p95 ${all.p95} ms, p99 ${all.p99} ms over ${all.requests} requests`);
  } finally {
    await fresh.cleanup();
  }
}

export function searchSpeedMarkdown(report: SearchSpeedReport): string {
  const lines = [
    `The ${report.queries} labelled queries, one request at a time, ${report.settings.passes} passes after one to warm up: the first page of each list, no sort (by rank), end to end over HTTP. ${machineLine(report.machine)}.`,
    '',
    '| database | products in the workspace | list | requests | p50 | p95 | p99 | slowest |',
    '|---|---:|---|---:|---:|---:|---:|---:|',
  ];
  for (const result of report.results)
    for (const list of ['all', ...searchedResources] as const) {
      const figures = result.latencies[list];
      lines.push(
        `| ${databaseName(result.database)} | ${result.products.toLocaleString('en-US')} × 20 variants | ${list === 'all' ? '**all**' : list} | ${figures.requests} | ${figures.p50} ms | ${figures.p95} ms | ${figures.p99} ms | ${figures.max} ms |`,
      );
    }
  lines.push('');
  for (const result of report.results)
    lines.push(
      `${databaseName(result.database)}: p95 ${result.latencies.all.p95} ms against ${searchSpeedTarget.p95Ms} ms${result.database === 'postgres' ? (result.withinTarget ? ': within' : ': over') : ' (reported)'}; the labelled records found on the first page among the seeded ones: ${result.recall.all} (typos ${result.recall.typos}).`,
    );
  for (const result of report.results)
    lines.push(
      '',
      `${databaseName(result.database)}, the slowest queries (median of the passes; records found): ${result.slowest.map((entry) => `${entry.resource} \`${entry.text}\` ${entry.medianMs} ms (${entry.total.toLocaleString('en-US')})`).join(', ')}.`,
    );
  for (const skip of report.skipped) lines.push('', `${skip.database} skipped: ${skip.reason}`);
  return lines.join('\n');
}

export async function runSearchSpeedBench(): Promise<{ report: SearchSpeedReport; ok: boolean }> {
  const settings: Settings = {
    passes: intFromEnv('BENCH_PASSES', 5),
    workspaces: intFromEnv('BENCH_WORKSPACES', 20),
    products: {
      postgres: intFromEnv('BENCH_PRODUCTS', 100_000),
      pglite: intFromEnv('BENCH_PRODUCTS_PGLITE', 10_000),
    },
    otherProducts: intFromEnv('BENCH_OTHER_PRODUCTS', 200),
  };
  const databases = benchDatabases();
  const report: SearchSpeedReport = {
    machine: databaseMachine(),
    settings,
    queries: readLabelledQueries().queries.length,
    results: [],
    skipped: [],
  };
  process.stdout.write(
    `\nThe labelled search queries through the lists: ${databases.join(', ')}; ${settings.passes} passes; Node ${process.version}\n`,
  );
  let path = '';
  for (const database of databases) {
    await benchDatabase(database, settings, report);
    // Kept after each database, so that a run cut short keeps what it measured.
    path = writeResult('search-speed', report);
  }
  const postgres = report.results.find((result) => result.database === 'postgres');
  const ok = postgres ? postgres.withinTarget : report.results.length > 0;
  process.stdout.write(`\n${searchSpeedMarkdown(report)}\n\n${ok ? 'PASS' : 'FAIL'}\nResults: ${path}\n`);
  return { report, ok };
}

runAsScript(import.meta.url, runSearchSpeedBench, 'search speed bench failed: ');
