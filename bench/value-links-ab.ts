/**
 * `BENCH_A=<tree> BENCH_B=<tree> npm run bench:value-links-ab -w @dukkan/bench`: the database's
 * side of saving a product of 2,048 variants, on schemas built by two source trees' migrations
 * (and this tree's, C), in one process on embedded PGlite, their writes taking turns.
 *
 * schema-ab.ts runs each tree's whole save benchmark in a process of its own, one after another:
 * on a shared machine the load moves between the runs more than the schemas differ. Here each
 * tree's migrations build a database in memory (PGlite, the migrations folder given to this
 * tree's migrator), and the same writes are sent to each in turn, the order rotating every
 * round: in one transaction, a product, its 2,048 variants (16 × 16 × 8 values, a SKU each) in one
 * `INSERT … SELECT FROM unnest(…)` and their 6,144 value links in another — the statements the
 * server's save sends (`product-variants.ts`, `writeVariants`), the links with or without their
 * `workspace_id` as the tree's table has it. The product is deleted after each timed save (its
 * variants and links with it), outside the timing.
 *
 * Each save is timed twice: its wall time and the process's CPU time (user and system) over it.
 * The CPU time leaves out the time the process waited for a core other work held; what other
 * work costs a core it still runs on (shared caches) stays in both.
 *
 * Environment: BENCH_A, BENCH_B (source trees; their `apps/server/drizzle`), BENCH_SAVES (30
 * timed per tree, after 3 untimed), BENCH_LABELS (A,B,C).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { type Database, openDatabase } from '../apps/server/src/db/client.ts';
import { machineFacts } from './support/machine.ts';
import { median, round1 } from './support/numbers.ts';
import { repoRoot } from './support/paths.ts';
import { writeResult } from './support/results.ts';
import { intFromEnv, runAsScript } from './support/script.ts';

interface Schema {
  label: string;
  tree: string;
  db: Database;
  close: () => Promise<void>;
  /** Whether the value links carry `workspace_id` (the keyed schema). */
  linksHaveWorkspace: boolean;
  /** The references of `product_variant_values` and of `product_variants`, as `pg_constraint` shows them. */
  linkReferences: string[];
  variantReferences: string[];
  workspaceId: string;
  unitId: string;
  /** The 16, 16 and 8 values of the product's three types. */
  values: string[][];
  samples: number[];
  /** The process's CPU time (user and system) over each timed save: what a busy machine moves least. */
  cpuSamples: number[];
}

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

async function openSchema(label: string, tree: string): Promise<Schema> {
  const folder = join(tree, 'apps/server/drizzle');
  if (!existsSync(folder)) throw new Error(`${label}: no migrations at ${folder}`);
  const handle = await openDatabase({ kind: 'pglite' });
  await handle.migrate(folder);
  const { db } = handle;
  const linksHaveWorkspace =
    rowsOf<{ found: boolean }>(
      await db.execute(sql`select exists (select 1 from information_schema.columns
        where table_name = 'product_variant_values' and column_name = 'workspace_id') as found`),
    )[0]!.found === true;
  const referencesOf = async (table: string) =>
    rowsOf<{ definition: string }>(
      await db.execute(sql`select pg_get_constraintdef(oid) as definition from pg_constraint
        where conrelid = ${table}::regclass and contype = 'f' order by 1`),
    ).map((row) => row.definition);
  const linkReferences = await referencesOf('product_variant_values');
  const variantReferences = await referencesOf('product_variants');
  const [workspace] = rowsOf<{ id: string }>(
    await db.execute(sql`insert into workspaces (name) values (${`Links ${label}`}) returning id`),
  );
  const workspaceId = workspace!.id;
  const [unit] = rowsOf<{ id: string }>(
    await db.execute(sql`insert into measurement_units (workspace_id, code, name_en, symbol)
      values (${workspaceId}, 'PCS', 'Piece', 'pc') returning id`),
  );
  const values: string[][] = [];
  for (const [index, count] of [16, 16, 8].entries()) {
    const [type] = rowsOf<{ id: string }>(
      await db.execute(sql`insert into variation_types (workspace_id, code, name_en)
        values (${workspaceId}, ${`T${index}`}, ${`Type ${index}`}) returning id`),
    );
    const ids = rowsOf<{ id: string }>(
      await db.execute(sql`insert into variation_values (workspace_id, type_id, code, name_en, position)
        select ${workspaceId}, ${type!.id}, 'V' || ${index} || '-' || n, 'Value ' || n, n
        from generate_series(1, ${count}) as n returning id`),
    ).map((row) => row.id);
    values.push(ids);
  }
  return {
    label,
    tree,
    db,
    close: () => handle.close(),
    linksHaveWorkspace,
    linkReferences,
    variantReferences,
    workspaceId,
    unitId: unit!.id,
    values,
    samples: [],
    cpuSamples: [],
  };
}

const uuidArray = (values: readonly string[]) => sql`${`{${values.join(',')}}`}::uuid[]`;
const textArray = (values: readonly string[]) =>
  sql`${`{${values.map((value) => `"${value}"`).join(',')}}`}::text[]`;
const intArray = (values: readonly number[]) => sql`${`{${values.join(',')}}`}::int[]`;

/** One save's writes, timed: the product, its variants and their links in one transaction. */
async function save(schema: Schema, round: number): Promise<{ elapsed: number; cpu: number }> {
  const { db, workspaceId } = schema;
  const [a, b, c] = schema.values as [string[], string[], string[]];
  const variantIds: string[] = [];
  const keys: string[] = [];
  const skus: string[] = [];
  const links: [string, string, number][] = [];
  for (const x of a)
    for (const y of b)
      for (const z of c) {
        const id = crypto.randomUUID();
        variantIds.push(id);
        keys.push(`${x}-${y}-${z}`);
        skus.push(`R${round}-${variantIds.length}`);
        links.push([id, x, 0], [id, y, 1], [id, z, 2]);
      }
  const productId = crypto.randomUUID();
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  await db.transaction(async (tx) => {
    await tx.execute(sql`insert into products (id, workspace_id, code, name_en, measurement_unit_id)
      values (${productId}, ${workspaceId}, ${`P${round}`}, 'Shirt', ${schema.unitId})`);
    await tx.execute(sql`insert into product_variants (id, workspace_id, product_id, key, position, sku)
      select e.id, ${workspaceId}, ${productId}, e.key, e.position, e.sku
      from unnest(${uuidArray(variantIds)}, ${textArray(keys)}, ${intArray(keys.map((_, index) => index))}, ${textArray(skus)})
        as e(id, key, position, sku)`);
    const linkArrays = sql`unnest(${uuidArray(links.map((link) => link[0]))}, ${uuidArray(links.map((link) => link[1]))}, ${intArray(links.map((link) => link[2]))}) as link`;
    await tx.execute(
      schema.linksHaveWorkspace
        ? sql`insert into product_variant_values (workspace_id, variant_id, value_id, position)
            select ${workspaceId}, link.* from ${linkArrays}`
        : sql`insert into product_variant_values (variant_id, value_id, position) select link.* from ${linkArrays}`,
    );
  });
  const elapsed = performance.now() - started;
  const cpuUsed = process.cpuUsage(cpuBefore);
  await db.execute(sql`delete from products where workspace_id = ${workspaceId} and id = ${productId}`);
  return { elapsed, cpu: (cpuUsed.user + cpuUsed.system) / 1000 };
}

export async function runValueLinksAb() {
  const trees = [process.env.BENCH_A, process.env.BENCH_B, process.env.BENCH_C ?? repoRoot].filter(
    (tree): tree is string => Boolean(tree),
  );
  if (trees.length < 2) throw new Error('BENCH_A and BENCH_B (source trees) are required');
  const labels = (process.env.BENCH_LABELS ?? 'A,B,C').split(',');
  const saves = intFromEnv('BENCH_SAVES', 30);
  const schemas: Schema[] = [];
  for (const [index, tree] of trees.entries())
    schemas.push(await openSchema(labels[index] ?? `T${index}`, tree));
  try {
    for (const schema of schemas)
      process.stdout.write(
        `${schema.label} ${schema.tree}: links ${schema.linksHaveWorkspace ? 'with' : 'without'} workspace_id; the links' references: ${schema.linkReferences.join('; ')}; the variants': ${schema.variantReferences.join('; ')}\n`,
      );
    for (let round = 1; round <= saves + 3; round += 1) {
      const order = schemas.map((_, index) => schemas[(index + round) % schemas.length]!);
      for (const schema of order) {
        const { elapsed, cpu } = await save(schema, round);
        if (round > 3) {
          schema.samples.push(elapsed);
          schema.cpuSamples.push(cpu);
        }
      }
    }
    const load = (await import('node:os')).loadavg()[0]!.toFixed(1);
    const first = schemas[0]!;
    const percentile = (samples: number[], share: number) =>
      [...samples].sort((x, y) => x - y)[Math.ceil(share * samples.length) - 1]!;
    const results = schemas.map((schema) => ({
      label: schema.label,
      tree: schema.tree,
      linksHaveWorkspace: schema.linksHaveWorkspace,
      linkReferences: schema.linkReferences,
      variantReferences: schema.variantReferences,
      p50: round1(median(schema.samples)),
      p95: round1(percentile(schema.samples, 0.95)),
      ratio: Math.round((median(schema.samples) / median(first.samples)) * 100) / 100,
      cpuP50: round1(median(schema.cpuSamples)),
      cpuRatio: Math.round((median(schema.cpuSamples) / median(first.cpuSamples)) * 100) / 100,
    }));
    const lines = [
      '',
      `${saves} saves per schema (after 3 untimed), turns rotating; ${machineFacts().cpus} cores, Node ${process.version}, load ${load} at the end`,
      '',
      `| schema | value links | references: variants, links | p50 | p95 | p50 ÷ ${first.label} | CPU p50 | CPU ÷ ${first.label} |`,
      '|---|---|---:|---:|---:|---:|---:|---:|',
      ...results.map(
        (row) =>
          `| ${row.label} | ${row.linksHaveWorkspace ? 'with `workspace_id`' : 'without `workspace_id`'} | ${row.variantReferences.length}, ${row.linkReferences.length} | ${row.p50} ms | ${row.p95} ms | ${row.ratio} | ${row.cpuP50} ms | ${row.cpuRatio} |`,
      ),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
    const path = writeResult('value-links-ab', { machine: machineFacts(), saves, results });
    process.stdout.write(`Results: ${path}\n`);
    return { ok: true };
  } finally {
    for (const schema of schemas) await schema.close();
  }
}

runAsScript(import.meta.url, runValueLinksAb, 'value links bench failed: ');
