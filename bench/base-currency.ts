/**
 * Changing the base currency of a workspace whose 5,000 products have 100,000 priced variants:
 * the settings page's preview (`GET /api/workspaces/settings/base-currency-change`) and the
 * change itself (`PATCH /api/workspaces/settings`), which converts every price and cost in two
 * set-based statements in the transaction that rebases the exchange rates.
 *
 * Seeds (`products-seed.ts`'s list data, from this process) two workspaces, the first with
 * BENCH_PRODUCTS (5,000) products of 20 variants, the other with 200; then prices every variant
 * and product (EGP 50.00–549.99, a cost for half), keeps the products' ranges, and gives the
 * first workspace a rate for USD (48.55). The server (a child process, as `auth.ts` starts it)
 * then changes the base EGP → USD → EGP … BENCH_CHANGES times (6), one at a time, each after its
 * preview; every answer is checked (the base changed; the preview's count and rate).
 *
 * Environment: BENCH_DATABASES (pglite,postgres), BENCH_PRODUCTS, BENCH_CHANGES, BENCH_POSTGRES_URL.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../apps/server/src/db/client.ts';
import { listVariantsPerProduct, seedProductList } from './products-seed.ts';
import { benchDatabases, type DatabaseKind, databaseName, type Skipped } from './support/database-kinds.ts';
import { freshDatabase, migrated } from './support/databases.ts';
import { type DatabaseMachine, databaseMachine, machineLine } from './support/machine.ts';
import { median, round1 } from './support/numbers.ts';
import { writeResult } from './support/results.ts';
import { intFromEnv, runAsScript } from './support/script.ts';
import { type RunningServer, startServer } from './support/server.ts';

interface BaseCurrencyRow {
  database: DatabaseKind;
  variants: number;
  amounts: number;
  previewMs: number[];
  changeMs: number[];
}

export interface BaseCurrencyReport {
  machine: DatabaseMachine;
  settings: { products: number; changes: number };
  rows: BaseCurrencyRow[];
  skipped: Skipped[];
}

/** Prices and costs on every variant and product of the seeded data, and the products' ranges. */
async function priceEverything(db: Database, workspaceId: string) {
  await db.execute(sql`update product_variants
    set price = 5000 + abs(hashint4(position * 31 + length(key))) % 50000,
        cost = case when position % 2 = 0 then 2000 + abs(hashint4(position)) % 20000 end`);
  await db.execute(sql`update products p
    set price = 5000 + abs(hashint4(length(code))) % 50000,
        price_min = r.low, price_max = r.high
    from (select product_id, min(price) as low, max(price) as high
          from product_variants where status = 'active' group by product_id) r
    where r.product_id = p.id`);
  await db.execute(sql`insert into exchange_rates (workspace_id, currency, rate)
    values (${workspaceId}, 'USD', 48.55)`);
  await db.execute(sql`vacuum analyze`);
}

async function timed(url: string, init: RequestInit, label: string) {
  const started = performance.now();
  const response = await fetch(url, init);
  const body = await response.text();
  const ms = performance.now() - started;
  if (!response.ok) throw new Error(`${label} answered ${response.status}: ${body.slice(0, 500)}`);
  return { ms, data: (JSON.parse(body) as { data: Record<string, unknown> }).data };
}

async function benchDatabase(
  database: DatabaseKind,
  settings: BaseCurrencyReport['settings'],
  report: BaseCurrencyReport,
) {
  const fresh = await freshDatabase(database, 'base-currency', report);
  if (!fresh) return;
  let server: RunningServer | undefined;
  try {
    const seeded = await migrated(fresh.options, async (db) => {
      const seed = await seedProductList(db, {
        workspaces: 2,
        bigProducts: settings.products,
        otherProducts: 200,
      });
      await priceEverything(db, seed.workspaceId);
      return seed;
    });
    server = await startServer(fresh.variables, `base currency bench on ${database}`);
    const headers = { cookie: seeded.cookie, 'content-type': 'application/json', 'accept-language': 'en' };
    const variants = settings.products * listVariantsPerProduct;
    const row: BaseCurrencyRow = { database, variants, amounts: 0, previewMs: [], changeMs: [] };
    let base = 'EGP';
    for (let change = 0; change < settings.changes; change++) {
      const next = base === 'EGP' ? 'USD' : 'EGP';
      const preview = await timed(
        `${server.url}/api/workspaces/settings/base-currency-change?workspaceId=${seeded.workspaceId}&currency=${next}`,
        { headers },
        `preview ${next}`,
      );
      if (preview.data.refusal || !preview.data.rate || !(Number(preview.data.amounts) > variants))
        throw new Error(`preview ${next}: ${JSON.stringify(preview.data)}`);
      row.amounts = Number(preview.data.amounts);
      row.previewMs.push(preview.ms);
      const changed = await timed(
        `${server.url}/api/workspaces/settings?workspaceId=${seeded.workspaceId}`,
        { method: 'PATCH', headers, body: JSON.stringify({ baseCurrency: next }) },
        `change to ${next}`,
      );
      if (changed.data.baseCurrency !== next)
        throw new Error(`change to ${next}: ${JSON.stringify(changed.data)}`);
      row.changeMs.push(changed.ms);
      process.stdout.write(
        `  ${database.padEnd(8)} ${base} → ${next}: preview ${round1(preview.ms)} ms, change ${round1(changed.ms)} ms\n`,
      );
      base = next;
    }
    report.rows.push(row);
  } finally {
    await server?.stop();
    await fresh.cleanup();
  }
}

export function baseCurrencyMarkdown(report: BaseCurrencyReport): string {
  const lines = [
    `A base currency change of a workspace of ${report.settings.products.toLocaleString('en-US')} products × 20 priced variants (and a second workspace of 200), EGP ↔ USD ${report.settings.changes} times, one at a time, each after its preview; ${machineLine(report.machine)}`,
    '',
    '| database | variants | amounts converted | preview median | preview max | change median | change max |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...report.rows.map(
      (row) =>
        `| ${databaseName(row.database)} | ${row.variants.toLocaleString('en-US')} | ${row.amounts.toLocaleString('en-US')} | ${round1(median(row.previewMs))} ms | ${round1(Math.max(...row.previewMs))} ms | ${round1(median(row.changeMs))} ms | ${round1(Math.max(...row.changeMs))} ms |`,
    ),
  ];
  for (const skip of report.skipped) lines.push('', `${skip.database} skipped: ${skip.reason}`);
  return lines.join('\n');
}

export async function runBaseCurrencyBench(): Promise<{ report: BaseCurrencyReport; ok: boolean }> {
  const settings = { products: intFromEnv('BENCH_PRODUCTS', 5_000), changes: intFromEnv('BENCH_CHANGES', 6) };
  const databases = benchDatabases();
  const report: BaseCurrencyReport = { machine: databaseMachine(), settings, rows: [], skipped: [] };
  process.stdout.write(
    `\nChanging the base currency over ${settings.products} products × 20 variants: ${databases.join(', ')}; Node ${process.version}\n`,
  );
  for (const database of databases) await benchDatabase(database, settings, report);
  const path = writeResult('base-currency', report);
  process.stdout.write(`\n${baseCurrencyMarkdown(report)}\n\nResults: ${path}\n`);
  return { report, ok: report.rows.length === databases.length - report.skipped.length };
}

runAsScript(import.meta.url, runBaseCurrencyBench, 'base currency bench failed: ');
