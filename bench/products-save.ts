/**
 * Saving a product with 2,048 variants in one request, against plain inserts of the same rows.
 *
 * The server (apps/server/src/main.ts in a child process, as the other benchmarks start it) gets,
 * one request at a time:
 * - `POST /api/products`: a new product choosing 16 sizes × 16 colours × 8 materials (2,048
 *   combinations) with a SKU for every variant; the server checks the options and the SKUs,
 *   generates the variants, writes the product, the 2,048 variants and their 6,144 value links,
 *   and answers the product with its variants. Fresh codes and SKUs every time.
 * - `PATCH /api/products/:id` of each saved product: a bulk edit of all 2,048 variants (every SKU
 *   changed), answered with the product and its variants.
 * - The same save with a price and a cost on every variant (issue "Prices on every variant"),
 *   then a bulk +10 % on its 2,048 prices (`applyMoneyChange`, as the grid's bulk action computes
 *   them), the save without prices measured in the same run beside it.
 * - `GET /api/products/:id` of each saved product, as edited: the product page's request (the
 *   product with its 2,048 variants), reported beside the writes, with no target.
 * Each timed from the request sent to the answer read, on loopback.
 *
 * The baseline writes the same rows through the same driver with the server's settings (a `pg`
 * pool with its connection options, or PGlite on the same folder with the server stopped), from
 * this process, with no HTTP, validation or generation, in one transaction each:
 * - `values`: the products row (count and codes included), then the variants, then the value
 *   links, each one multi-row `INSERT … VALUES` with bound parameters (the issue's baseline);
 *   the bulk edit as one `UPDATE … FROM (VALUES …)` and the product row's codes;
 * - `unnest`: the same with each column bound as one array and unnested by the database, as the
 *   server itself writes them.
 *
 * The server and the baseline take turns (BENCH_ROUNDS rounds: server, baseline, server, …), each
 * with BENCH_WARMUP_SAVES untimed saves (and edits) first; percentiles are over every timed save
 * of all rounds. Targets (issues "Products, variations and recipes" and "Prices on every
 * variant"): save p95 < 600 ms on PGlite and < 400 ms on PostgreSQL, with prices too; bulk edit
 * and bulk +10 % p95 < 500 ms (both).
 *
 * Environment: BENCH_DATABASES (pglite,postgres), BENCH_SAVES (30: timed saves per side, over the
 * rounds), BENCH_ROUNDS (3), BENCH_WARMUP_SAVES (2 per round), BENCH_VALUES (16x16x8),
 * BENCH_POSTGRES_URL (as auth.ts), BENCH_POSTGRES_SETTINGS (e.g. `jit=off`: set on the
 * benchmark's database for every connection, an experiment named in the report).
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { applyMoneyChange } from '@dukkan/contract';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import {
  type Combination,
  combinationsOf,
  type ProductWorkspace,
  productOptions,
  seedProductWorkspace,
} from './products-seed.ts';
import { benchDatabases, type DatabaseKind, databaseName, type Skipped } from './support/database-kinds.ts';
import { type BenchDatabaseOptions, freshDatabase, migrated } from './support/databases.ts';
import { type DatabaseMachine, databaseMachine, machineLine } from './support/machine.ts';
import { round1 } from './support/numbers.ts';
import { writeResult } from './support/results.ts';
import { intFromEnv, runAsScript } from './support/script.ts';
import { type RunningServer, startServer } from './support/server.ts';

/** p95 targets in ms (issues "Products, variations and recipes" and "Prices on every variant"). */
export const productsSaveTargets = {
  save: { pglite: 600, postgres: 400 },
  bulkEdit: 500,
} as const;

/** The operations the baselines write too; the priced ones are the server's alone. */
const baselineOperations = ['save', 'bulkEdit'] as const;
/** The operations with a target; `read` (the product's GET) is reported beside them. */
const targetedOperations = ['save', 'savePriced', 'bulkEdit', 'bulkPrice'] as const;
const operations = [...targetedOperations, 'read'] as const;
type Operation = (typeof operations)[number];

/** A variant's price in minor units (EGP 120.00 to 440.75) and its cost, 40 % of it. */
const variantPrice = (position: number) => 120_00 + ((position * 725) % 32_075);
const variantCost = (position: number) => Math.round(variantPrice(position) * 0.4);
/** The grid's bulk +10 %, rounded half-up to the minor unit. */
const raised = (price: number) => {
  const outcome = applyMoneyChange(price, { kind: 'percent', percent: 10 });
  if (!outcome.ok) throw new Error(`+10 % of ${price}: ${outcome.code}`);
  return outcome.minor;
};
type Writer = 'engine' | 'values' | 'unnest';

export interface TimingSummary {
  count: number;
  p50: number;
  p95: number;
  min: number;
  max: number;
  mean: number;
}

export interface ProductsSaveRow {
  database: DatabaseKind;
  writer: Writer;
  operation: Operation;
  timing: TimingSummary;
  /** Every timed run in ms, in order. */
  samplesMs: number[];
}

export interface ProductsSaveReport {
  machine: DatabaseMachine;
  settings: Settings;
  variants: number;
  valueLinks: number;
  /** The POST's body and answer, and the PATCH's (bytes). */
  bytes: { saveRequest: number; saveAnswer: number; editRequest: number; editAnswer: number };
  rows: ProductsSaveRow[];
  verdicts: {
    database: DatabaseKind;
    operation: Operation;
    p95: number;
    target: number;
    within: boolean;
    /** The server's p50 ÷ each baseline's p50 (the operations the baselines write). */
    p50Ratio?: { values: number; unnest: number };
  }[];
  skipped: Skipped[];
}

interface Settings {
  saves: number;
  rounds: number;
  warmupSaves: number;
  valueCounts: number[];
  /** BENCH_POSTGRES_SETTINGS (`jit=off,…`): database settings to try; empty for the product's. */
  postgresSettings: [string, string][];
}

/** `name=value,name=value` → pairs; names and values of letters, digits, `_` and `.` only. */
function parseSettings(text: string): [string, string][] {
  return text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const match = /^([a-z_.]+)=([\w.]+)$/.exec(entry);
      if (!match) throw new Error(`BENCH_POSTGRES_SETTINGS: ${entry} is not name=value`);
      return [match[1]!, match[2]!];
    });
}

/** Nearest-rank percentile of sorted values. */
function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))]!;
}

function summarize(samples: number[]): TimingSummary {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    count: sorted.length,
    p50: round1(percentile(sorted, 0.5)),
    p95: round1(percentile(sorted, 0.95)),
    min: round1(sorted[0]!),
    max: round1(sorted.at(-1)!),
    mean: round1(sorted.reduce((sum, value) => sum + value, 0) / sorted.length),
  };
}

/** What one save writes: the product and, per combination, its SKU. */
interface SaveData {
  code: string;
  skus: string[];
}

/** A save's SKUs: the product's code and the combination's value numbers (`SV1-003-12-07-4`). */
function saveData(code: string, combinations: Combination[], workspace: ProductWorkspace): SaveData {
  const indexOf = new Map(
    workspace.options.flatMap((option) => option.values.map((value, index) => [value.id, index + 1])),
  );
  return {
    code,
    skus: combinations.map((combination) =>
      [code, ...combination.values.map((value) => String(indexOf.get(value.id)).padStart(2, '0'))].join('-'),
    ),
  };
}

/** New SKUs for every variant of a saved product (`<code>-E<edit>-<position>`). */
const editedSkus = (code: string, edit: number, count: number) =>
  Array.from({ length: count }, (_, position) => `${code}-E${edit}-${String(position).padStart(4, '0')}`);

const productName = (code: string) => [
  { locale: 'en', value: `Bench Sneaker ${code}` },
  { locale: 'ar', value: `حذاء ${code}` },
];

/** `products.variant_codes` as the server keeps it: the variants' SKUs (and barcodes) by space. */
const variantCodes = (skus: string[]) => skus.join(' ');

// ---------------------------------------------------------------------------------------------
// The engine: HTTP requests to the real server.

interface SavedProduct {
  id: string;
  code: string;
}

interface ProductAnswer {
  data: {
    id: string;
    variantsCount: number;
    priceMin: number | null;
    variants?: { key: string; sku: string | null; price: number }[];
  };
}

async function timedRequest(url: string, init: RequestInit, label: string) {
  const started = performance.now();
  const response = await fetch(url, init);
  const body = await response.text();
  const ms = performance.now() - started;
  if (!response.ok) throw new Error(`${label} answered ${response.status}: ${body.slice(0, 500)}`);
  return { ms, body, answer: JSON.parse(body) as ProductAnswer };
}

function checkAnswer(
  answer: ProductAnswer,
  expected: { count: number; firstSku: string; firstPrice?: number },
  label: string,
) {
  const { variantsCount, variants } = answer.data;
  if (variantsCount !== expected.count || variants?.length !== expected.count)
    throw new Error(
      `${label}: the answer has ${variantsCount} variants counted and ${variants?.length} listed, not ${expected.count}`,
    );
  if (variants[0]?.sku !== expected.firstSku)
    throw new Error(`${label}: the first variant's SKU is ${variants[0]?.sku}, not ${expected.firstSku}`);
  if (expected.firstPrice !== undefined && variants[0]?.price !== expected.firstPrice)
    throw new Error(
      `${label}: the first variant's price is ${variants[0]?.price}, not ${expected.firstPrice}`,
    );
}

type EngineRound = Record<Operation, number[]> & { bytes: ProductsSaveReport['bytes'] };

async function engineRound(
  server: RunningServer,
  workspace: ProductWorkspace,
  combinations: Combination[],
  round: number,
  settings: Settings,
  timedSaves: number,
): Promise<EngineRound> {
  const headers = {
    cookie: workspace.cookie,
    'content-type': 'application/json',
    'accept-language': 'en',
  };
  const result: EngineRound = {
    save: [],
    savePriced: [],
    bulkEdit: [],
    bulkPrice: [],
    read: [],
    bytes: { saveRequest: 0, saveAnswer: 0, editRequest: 0, editAnswer: 0 },
  };
  const saved: (SavedProduct & {
    timed: boolean;
    priced: boolean;
    firstSku?: string;
    firstPrice?: number;
  })[] = [];
  // The save without prices and the one with them alternate, so both meet the same load.
  for (let index = 0; index < 2 * (settings.warmupSaves + timedSaves); index++) {
    const priced = index % 2 === 1;
    const timed = index >= 2 * settings.warmupSaves;
    const code = `${priced ? 'SP' : 'SV'}${round}-${String(Math.floor(index / 2) + 1).padStart(3, '0')}`;
    const data = saveData(code, combinations, workspace);
    const body = JSON.stringify({
      code,
      name: productName(code),
      measurementUnitId: workspace.measurementUnitId,
      options: productOptions(workspace),
      variants: combinations.map((combination, position) => ({
        key: combination.key,
        sku: data.skus[position],
        ...(priced ? { price: variantPrice(position), cost: variantCost(position) } : {}),
      })),
    });
    const {
      ms,
      body: answerBody,
      answer,
    } = await timedRequest(
      `${server.url}/api/products?workspaceId=${workspace.workspaceId}`,
      { method: 'POST', headers, body },
      `POST /api/products (${code})`,
    );
    checkAnswer(
      answer,
      { count: combinations.length, firstSku: data.skus[0]!, firstPrice: priced ? variantPrice(0) : 0 },
      `POST ${code}`,
    );
    if (timed) result[priced ? 'savePriced' : 'save'].push(ms);
    if (!priced) {
      result.bytes.saveRequest = Buffer.byteLength(body);
      result.bytes.saveAnswer = Buffer.byteLength(answerBody);
    }
    saved.push({ id: answer.data.id, code, timed, priced });
  }
  for (const product of saved) {
    // A priced product gets the grid's bulk +10 % on every price; the other, every SKU changed.
    const skus = product.priced
      ? saveData(product.code, combinations, workspace).skus
      : editedSkus(product.code, 1, combinations.length);
    const body = JSON.stringify({
      variants: combinations.map((combination, position) =>
        product.priced
          ? { key: combination.key, price: raised(variantPrice(position)) }
          : { key: combination.key, sku: skus[position] },
      ),
    });
    const {
      ms,
      body: answerBody,
      answer,
    } = await timedRequest(
      `${server.url}/api/products/${product.id}?workspaceId=${workspace.workspaceId}`,
      { method: 'PATCH', headers, body },
      `PATCH /api/products/${product.id} (${product.code})`,
    );
    checkAnswer(
      answer,
      {
        count: combinations.length,
        firstSku: skus[0]!,
        firstPrice: product.priced ? raised(variantPrice(0)) : 0,
      },
      `PATCH ${product.code}`,
    );
    if (product.priced && answer.data.priceMin !== raised(variantPrice(0)))
      throw new Error(`PATCH ${product.code}: the lowest price is ${answer.data.priceMin}`);
    if (product.timed) result[product.priced ? 'bulkPrice' : 'bulkEdit'].push(ms);
    product.firstSku = skus[0]!;
    product.firstPrice = product.priced ? raised(variantPrice(0)) : 0;
    if (!product.priced) {
      result.bytes.editRequest = Buffer.byteLength(body);
      result.bytes.editAnswer = Buffer.byteLength(answerBody);
    }
  }
  // The product page's request: each product read back with its variants, as edited.
  for (const product of saved) {
    const { ms, answer } = await timedRequest(
      `${server.url}/api/products/${product.id}?workspaceId=${workspace.workspaceId}`,
      { headers },
      `GET /api/products/${product.id} (${product.code})`,
    );
    checkAnswer(
      answer,
      { count: combinations.length, firstSku: product.firstSku!, firstPrice: product.firstPrice! },
      `GET ${product.code}`,
    );
    if (product.timed) result.read.push(ms);
  }
  return result;
}

// ---------------------------------------------------------------------------------------------
// The baseline: the same rows through the same driver, from this process.

type Query = (text: string, params: unknown[]) => Promise<unknown>;

interface Driver {
  /** Runs `work` in a transaction, its statements through `query`. */
  transaction(work: (query: Query) => Promise<void>): Promise<void>;
  close(): Promise<void>;
}

async function openDriver(options: BenchDatabaseOptions): Promise<Driver> {
  if (options.kind === 'postgres') {
    // As the server's pool (apps/server/src/db/client.ts), and its write transactions
    // (db/write-transaction.ts).
    const pool = new pg.Pool({
      connectionString: options.url,
      max: 10,
      options: '-c plan_cache_mode=force_custom_plan -c jit=off',
    });
    return {
      async transaction(work) {
        const client = await pool.connect();
        try {
          await client.query('BEGIN');
          await client.query('SET LOCAL plan_cache_mode = auto');
          await work((text, params) => client.query(text, params));
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK');
          throw error;
        } finally {
          client.release();
        }
      },
      close: () => pool.end(),
    };
  }
  const client = new PGlite(join(options.dataDir, 'pgdata'), { extensions: { pg_trgm } });
  await client.waitReady;
  return {
    async transaction(work) {
      await client.transaction(async (tx: Transaction) => {
        await work((text, params) => tx.query(text, params));
      });
    },
    close: () => client.close(),
  };
}

/** `($1, $2, …), (…)` for `rows` rows of `columns` parameters, with optional casts per column. */
function valuesList(rows: number, columns: number, casts: string[] = []): string {
  const tuples: string[] = [];
  for (let row = 0; row < rows; row++) {
    const cells: string[] = [];
    for (let column = 0; column < columns; column++)
      cells.push(`$${row * columns + column + 1}${casts[column] ? `::${casts[column]}` : ''}`);
    tuples.push(`(${cells.join(', ')})`);
  }
  return tuples.join(', ');
}

const productInsert = `INSERT INTO products (id, workspace_id, code, name_en, name_ar, measurement_unit_id,
  options, variants_count, variant_codes) VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9)`;

function productParams(id: string, workspace: ProductWorkspace, data: SaveData) {
  const [en, ar] = productName(data.code);
  return [
    id,
    workspace.workspaceId,
    data.code,
    en!.value,
    ar!.value,
    workspace.measurementUnitId,
    JSON.stringify(productOptions(workspace)),
    data.skus.length,
    variantCodes(data.skus),
  ];
}

/** Inserts the product, its variants and their value links (ids made here, as the server makes them). */
async function baselineSave(
  driver: Driver,
  writer: Exclude<Writer, 'engine'>,
  workspace: ProductWorkspace,
  combinations: Combination[],
  data: SaveData,
): Promise<{ productId: string; variantIds: string[] }> {
  const productId = randomUUID();
  const variantIds = combinations.map(() => randomUUID());
  const links = combinations.flatMap((combination, index) =>
    combination.values.map((value, position) => [variantIds[index]!, value.id, position] as const),
  );
  await driver.transaction(async (query) => {
    await query(productInsert, productParams(productId, workspace, data));
    if (writer === 'values') {
      await query(
        `INSERT INTO product_variants (id, workspace_id, product_id, key, position, sku) VALUES ${valuesList(combinations.length, 6)}`,
        combinations.flatMap((combination, index) => [
          variantIds[index],
          workspace.workspaceId,
          productId,
          combination.key,
          combination.position,
          data.skus[index],
        ]),
      );
      await query(
        `INSERT INTO product_variant_values (workspace_id, variant_id, value_id, position) VALUES ${valuesList(links.length, 4)}`,
        links.flatMap((link) => [workspace.workspaceId, ...link]),
      );
    } else {
      await query(
        `INSERT INTO product_variants (id, workspace_id, product_id, key, position, sku)
         SELECT e.id, $1, $2, e.key, e.position, e.sku
         FROM unnest($3::uuid[], $4::text[], $5::int[], $6::text[]) AS e(id, key, position, sku)`,
        [
          workspace.workspaceId,
          productId,
          variantIds,
          combinations.map((combination) => combination.key),
          combinations.map((combination) => combination.position),
          data.skus,
        ],
      );
      await query(
        'INSERT INTO product_variant_values (workspace_id, variant_id, value_id, position) SELECT $1, link.* FROM unnest($2::uuid[], $3::uuid[], $4::int[]) AS link',
        [
          workspace.workspaceId,
          links.map((link) => link[0]),
          links.map((link) => link[1]),
          links.map((link) => link[2]),
        ],
      );
    }
  });
  return { productId, variantIds };
}

/** Sets every variant's SKU and the product's codes, in one transaction. */
async function baselineEdit(
  driver: Driver,
  writer: Exclude<Writer, 'engine'>,
  product: { productId: string; variantIds: string[] },
  skus: string[],
) {
  await driver.transaction(async (query) => {
    if (writer === 'values') {
      await query(
        `UPDATE product_variants AS v SET sku = e.sku, updated_at = now()
         FROM (VALUES ${valuesList(skus.length, 2, ['uuid', 'text'])}) AS e(id, sku)
         WHERE v.id = e.id AND v.product_id = $${skus.length * 2 + 1}`,
        [...product.variantIds.flatMap((id, index) => [id, skus[index]]), product.productId],
      );
    } else {
      await query(
        `UPDATE product_variants AS v SET sku = e.sku, updated_at = now()
         FROM unnest($1::uuid[], $2::text[]) AS e(id, sku)
         WHERE v.id = e.id AND v.product_id = $3`,
        [product.variantIds, skus, product.productId],
      );
    }
    await query('UPDATE products SET variant_codes = $1, updated_at = now() WHERE id = $2', [
      variantCodes(skus),
      product.productId,
    ]);
  });
}

async function baselineRound(
  driver: Driver,
  writer: Exclude<Writer, 'engine'>,
  workspace: ProductWorkspace,
  combinations: Combination[],
  round: number,
  settings: Settings,
  timedSaves: number,
) {
  const result = { save: [] as number[], bulkEdit: [] as number[] };
  const saved: { productId: string; variantIds: string[]; code: string; timed: boolean }[] = [];
  const prefix = writer === 'values' ? 'BV' : 'BU';
  for (let index = 0; index < settings.warmupSaves + timedSaves; index++) {
    const timed = index >= settings.warmupSaves;
    const code = `${prefix}${round}-${String(index + 1).padStart(3, '0')}`;
    const data = saveData(code, combinations, workspace);
    const started = performance.now();
    const product = await baselineSave(driver, writer, workspace, combinations, data);
    if (timed) result.save.push(performance.now() - started);
    saved.push({ ...product, code, timed });
  }
  for (const product of saved) {
    const skus = editedSkus(product.code, 1, combinations.length);
    const started = performance.now();
    await baselineEdit(driver, writer, product, skus);
    if (product.timed) result.bulkEdit.push(performance.now() - started);
  }
  return result;
}

// ---------------------------------------------------------------------------------------------

async function benchDatabase(database: DatabaseKind, settings: Settings, report: ProductsSaveReport) {
  const fresh = await freshDatabase(database, 'products-save', report);
  if (!fresh) return;
  const { options, variables } = fresh;

  let server: RunningServer | undefined;
  let driver: Driver | undefined;
  try {
    // An experiment (BENCH_POSTGRES_SETTINGS): settings of the database, for the server's
    // connections and the baseline's alike; reported with the results.
    if (fresh.postgres)
      for (const [setting, value] of settings.postgresSettings)
        await fresh.postgres.admin.query(`ALTER DATABASE ${fresh.postgres.name} SET ${setting} = '${value}'`);
    const workspace = await migrated(options, (db) => seedProductWorkspace(db, settings.valueCounts));
    const combinations = combinationsOf(workspace.options);
    report.variants = combinations.length;
    report.valueLinks = combinations.length * workspace.options.length;
    const samples: Record<Writer, Record<Operation, number[]>> = {
      engine: { save: [], savePriced: [], bulkEdit: [], bulkPrice: [], read: [] },
      values: { save: [], savePriced: [], bulkEdit: [], bulkPrice: [], read: [] },
      unnest: { save: [], savePriced: [], bulkEdit: [], bulkPrice: [], read: [] },
    };
    for (let round = 1; round <= settings.rounds; round++) {
      // The timed saves spread over the rounds: 30 over 3 rounds is 10 each.
      const timedSaves =
        Math.floor(settings.saves / settings.rounds) + (round <= settings.saves % settings.rounds ? 1 : 0);
      server = await startServer(variables, `products save bench on ${database}`);
      const engine = await engineRound(server, workspace, combinations, round, settings, timedSaves);
      await server.stop();
      server = undefined;
      for (const operation of operations) samples.engine[operation].push(...engine[operation]);
      report.bytes = engine.bytes;
      process.stdout.write(
        `  ${database.padEnd(8)} round ${round} engine  save p50 ${summarize(engine.save).p50} ms (with prices ${summarize(engine.savePriced).p50}), bulk edit p50 ${summarize(engine.bulkEdit).p50} ms (+10 % ${summarize(engine.bulkPrice).p50}), GET p50 ${summarize(engine.read).p50} ms\n`,
      );
      for (const writer of ['values', 'unnest'] as const) {
        driver = await openDriver(options);
        const baseline = await baselineRound(
          driver,
          writer,
          workspace,
          combinations,
          round,
          settings,
          timedSaves,
        );
        await driver.close();
        driver = undefined;
        samples[writer].save.push(...baseline.save);
        samples[writer].bulkEdit.push(...baseline.bulkEdit);
        process.stdout.write(
          `  ${database.padEnd(8)} round ${round} ${writer.padEnd(7)} save p50 ${summarize(baseline.save).p50} ms, bulk edit p50 ${summarize(baseline.bulkEdit).p50} ms\n`,
        );
      }
    }
    for (const writer of ['engine', 'values', 'unnest'] as const)
      for (const operation of writer === 'engine' ? operations : baselineOperations)
        report.rows.push({
          database,
          writer,
          operation,
          timing: summarize(samples[writer][operation]),
          samplesMs: samples[writer][operation].map(round1),
        });
    for (const operation of targetedOperations) {
      const engine = summarize(samples.engine[operation]);
      const isSave = operation === 'save' || operation === 'savePriced';
      const target = isSave ? productsSaveTargets.save[database] : productsSaveTargets.bulkEdit;
      const ratio = (writer: 'values' | 'unnest') =>
        Math.round((engine.p50 / summarize(samples[writer][operation]).p50) * 100) / 100;
      const compared = (baselineOperations as readonly Operation[]).includes(operation);
      report.verdicts.push({
        database,
        operation,
        p95: engine.p95,
        target,
        within: engine.p95 < target,
        ...(compared ? { p50Ratio: { values: ratio('values'), unnest: ratio('unnest') } } : {}),
      });
    }
  } finally {
    await server?.stop();
    await driver?.close();
    await fresh.cleanup();
  }
}

const writerName: Record<Writer, string> = {
  engine: 'server (HTTP, one request)',
  values: 'baseline: multi-row VALUES',
  unnest: 'baseline: unnest(arrays)',
};
const operationName: Record<Operation, string> = {
  save: 'create: product + variants + links',
  savePriced: 'create, every variant priced (price and cost)',
  bulkEdit: 'bulk edit: every SKU',
  bulkPrice: 'bulk +10 %: every price',
  read: 'read: GET the product with its variants',
};
const kib = (bytes: number) => `${Math.round(bytes / 1024)} KiB`;

export function productsSaveMarkdown(report: ProductsSaveReport): string {
  const { settings } = report;
  const lines = [
    `One product with ${report.variants.toLocaleString('en-US')} variants (${settings.valueCounts.join(' × ')} values, a SKU each) and ${report.valueLinks.toLocaleString('en-US')} value links saved in one \`POST /api/products\`, then all its variants' SKUs changed in one \`PATCH\`; ${settings.saves} timed of each per writer over ${settings.rounds} interleaved rounds (after ${settings.warmupSaves} untimed per round), one at a time; the server over HTTP on loopback (request ${kib(report.bytes.saveRequest)}, answer ${kib(report.bytes.saveAnswer)}; edit ${kib(report.bytes.editRequest)}, answer ${kib(report.bytes.editAnswer)}), the baselines in one transaction each through the same driver without HTTP; ${machineLine(report.machine)}`,
    '',
    ...(settings.postgresSettings.length
      ? [
          `Experiment: PostgreSQL database settings ${settings.postgresSettings.map(([name, value]) => `\`${name} = ${value}\``).join(', ')} (not the product's configuration).`,
          '',
        ]
      : []),
    '| database | operation | writer | p50 | p95 | min | max |',
    '|---|---|---|---:|---:|---:|---:|',
    ...report.rows.map(
      (row) =>
        `| ${databaseName(row.database)} | ${operationName[row.operation]} | ${writerName[row.writer]} | ${row.timing.p50} ms | ${row.timing.p95} ms | ${row.timing.min} ms | ${row.timing.max} ms |`,
    ),
    '',
    '| database | target | server p95 | verdict | server p50 ÷ baseline p50 (VALUES, unnest) |',
    '|---|---|---:|---|---:|',
    ...report.verdicts.map(
      (verdict) =>
        `| ${databaseName(verdict.database)} | ${operationName[verdict.operation]}: p95 < ${verdict.target} ms | ${verdict.p95} ms | ${verdict.within ? 'within' : 'OVER'} | ${verdict.p50Ratio ? `${verdict.p50Ratio.values}, ${verdict.p50Ratio.unnest}` : '–'} |`,
    ),
  ];
  for (const skip of report.skipped) lines.push('', `${skip.database} skipped: ${skip.reason}`);
  return lines.join('\n');
}

export async function runProductsSaveBench(): Promise<{ report: ProductsSaveReport; ok: boolean }> {
  const valueCounts = (process.env.BENCH_VALUES ?? '16x16x8').split('x').map(Number);
  if (valueCounts.some((count) => !Number.isInteger(count) || count <= 0))
    throw new Error('BENCH_VALUES must be counts of values joined by x, e.g. 16x16x8');
  const settings: Settings = {
    saves: intFromEnv('BENCH_SAVES', 30),
    rounds: intFromEnv('BENCH_ROUNDS', 3),
    warmupSaves: intFromEnv('BENCH_WARMUP_SAVES', 2),
    valueCounts,
    postgresSettings: parseSettings(process.env.BENCH_POSTGRES_SETTINGS ?? ''),
  };
  const databases = benchDatabases();
  const report: ProductsSaveReport = {
    machine: databaseMachine(),
    settings,
    variants: 0,
    valueLinks: 0,
    bytes: { saveRequest: 0, saveAnswer: 0, editRequest: 0, editAnswer: 0 },
    rows: [],
    verdicts: [],
    skipped: [],
  };
  process.stdout.write(
    `\nSaving a product of ${valueCounts.join(' × ')} variants: ${databases.join(', ')}; ${settings.saves} saves and bulk edits per writer over ${settings.rounds} rounds; Node ${process.version}\n`,
  );
  for (const database of databases) await benchDatabase(database, settings, report);
  const path = writeResult('products-save', report);
  const measuredAll =
    report.verdicts.length === targetedOperations.length * (databases.length - report.skipped.length);
  const ok = measuredAll && report.verdicts.every((verdict) => verdict.within);
  process.stdout.write(
    `\n${productsSaveMarkdown(report)}\n\nSave p95 (with or without prices) < ${productsSaveTargets.save.pglite} ms (PGlite) / < ${productsSaveTargets.save.postgres} ms (PostgreSQL), bulk edit and bulk +10 % p95 < ${productsSaveTargets.bulkEdit} ms: ${ok ? 'PASS' : 'FAIL'}\nResults: ${path}\n`,
  );
  return { report, ok };
}

runAsScript(import.meta.url, runProductsSaveBench, 'products save bench failed: ');
