/**
 * The list benchmarks' SQL: the statements the server sends for the request, captured from a
 * server with sql-capture.ts preloaded, and their plans (EXPLAIN ANALYZE) on the benchmark's data.
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import type { CapturedStatement } from '../sql-capture.ts';
import type { BenchDatabaseOptions } from './databases.ts';
import { benchDir } from './paths.ts';
import { sleep, startServer } from './server.ts';

const captureHook = join(benchDir, 'sql-capture.ts');

/**
 * Starts the server with sql-capture.ts preloaded and has `request` sent three times (the pool has
 * its connections by the last); returns the statements of the last, in the order sent.
 */
export async function captureStatements(
  variables: Record<string, string>,
  path: string,
  request: (url: string) => Promise<unknown>,
  label: string,
  workDir: string,
): Promise<CapturedStatement[]> {
  const file = join(workDir, 'statements.jsonl');
  writeFileSync(file, '');
  const server = await startServer(
    {
      ...variables,
      BENCH_SQL_CAPTURE: file,
      NODE_OPTIONS: `--import tsx --import ${pathToFileURL(captureHook).href}`,
    },
    label,
  );
  try {
    const url = `${server.url}${path}`;
    await request(url);
    await request(url);
    const before = statSync(file).size;
    await request(url);
    // A statement is written when answered: the last can land a moment after the response.
    await sleep(200);
    const lines = readFileSync(file).subarray(before).toString('utf8').trim().split('\n').filter(Boolean);
    const statements = lines
      .map((line) => JSON.parse(line) as CapturedStatement)
      .sort((a, b) => a.sentMs - b.sentMs);
    if (!statements.some((statement) => /\boffset\b/i.test(statement.text)))
      throw new Error(`no captured statement reads the page:\n${lines.join('\n')}`);
    return statements;
  } finally {
    await server.stop();
  }
}

export interface ListPlan {
  /** `page` (the records) or `count` (the total). */
  statement: 'page' | 'count';
  /** The indexes the plan reads, in order; empty for a sequential scan. */
  indexes: string[];
  /** Whether the bitmaps of several indexes are intersected (BitmapAnd). */
  bitmapAnd: boolean;
  executionMs: number;
  text: string;
}

/**
 * `EXPLAIN ANALYZE` of the captured statements that read `table` (the page, and the total if it
 * is a statement of its own) with their parameters, from this process while no server runs
 * (PGlite: one process per folder), three times each (the last is reported, warm). The planner
 * picks between plans from the statistics ANALYZE sampled, so runs can differ.
 */
export async function explainList(
  options: BenchDatabaseOptions,
  statements: CapturedStatement[],
  table: string,
): Promise<ListPlan[]> {
  let query: (text: string, params: unknown[]) => Promise<string[]>;
  let close: () => Promise<void>;
  if (options.kind === 'postgres') {
    const client = new pg.Client({ connectionString: options.url });
    await client.connect();
    query = async (text, params) =>
      (await client.query<{ 'QUERY PLAN': string }>(text, params)).rows.map((row) => row['QUERY PLAN']);
    close = () => client.end();
  } else {
    const client = new PGlite(join(options.dataDir, 'pgdata'), { extensions: { pg_trgm } });
    query = async (text, params) =>
      (await client.query<{ 'QUERY PLAN': string }>(text, params)).rows.map((row) => row['QUERY PLAN']);
    close = () => client.close();
  }
  const plans: ListPlan[] = [];
  try {
    for (const statement of statements.filter((entry) => entry.text.includes(`from "${table}"`))) {
      let lines: string[] = [];
      for (let run = 0; run < 3; run++)
        lines = await query(`EXPLAIN (ANALYZE, COSTS OFF) ${statement.text}`, statement.params);
      const text = lines.join('\n');
      plans.push({
        statement: /\boffset\b/i.test(statement.text) ? 'page' : 'count',
        indexes: [...text.matchAll(/Index (?:Only )?Scan (?:using|on) (\w+)/g)].map((match) => match[1]!),
        bitmapAnd: text.includes('BitmapAnd'),
        executionMs: Number(/Execution Time: ([\d.]+) ms/.exec(text)?.[1] ?? Number.NaN),
        text,
      });
    }
  } finally {
    await close();
  }
  return plans;
}

export const planLabel = (plans: ListPlan[]) =>
  plans
    .map(
      (plan) =>
        `${plan.statement}: ${plan.bitmapAnd ? 'BitmapAnd of ' : ''}${plan.indexes.join(' + ') || 'sequential scan'}, ${plan.executionMs} ms`,
    )
    .join('; ');
