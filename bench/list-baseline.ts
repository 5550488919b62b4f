/**
 * What the bare baselines of the list benchmarks share (catalogue-list-baseline.ts,
 * products-list-baseline.ts): `node:http`, no framework, no validation, no ORM. Every request
 * replays the statements the real server sent for the benchmark's list request (captured by
 * sql-capture.ts) with the same parameters, on the same driver with the same settings — `pg` with
 * a pool of DATABASE_POOL_SIZE and the server's connection options, named prepared statements
 * under the names the server gave them, or PGlite in this process on DATA_DIR (stop the server
 * first: one process per folder) — in the same order, those the server had in flight together
 * sent together; and answers the same `{ data, meta }` JSON: the records from the statement that
 * returns the list's rows, the total from the one that counts them (or the page's window count).
 * The first statements (the session and membership lookup) must return a row, else 401.
 *
 * Nothing from support/, whose load, database and session modules load autocannon and the
 * server's modules: a baseline's process is measured (its memory and CPU), so it loads only its
 * drivers.
 *
 * Environment: BASELINE_PLAN (a JSON file: statements, page, pageSize), DATABASE_URL or DATA_DIR,
 * DATABASE_POOL_SIZE (10), HOST, PORT. `GET /api/health` answers 200 for the start check.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import type { CapturedStatement } from './sql-capture.ts';

export interface BaselinePlan {
  statements: CapturedStatement[];
  page: number;
  pageSize: number;
}

export type Row = Record<string, unknown>;

const iso = (value: unknown) => (value instanceof Date ? value.toISOString() : value);

/** The fields every catalogue record starts with (id, code, times, status), from its row. */
export const catalogueRecordHead = (row: Row) => ({
  id: row.id,
  code: row.code,
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at),
  status: row.status,
});

/**
 * Statements in the order sent, grouped into phases: one sent before the previous ones of its
 * phase were answered joins them (the server had them in flight together, `Promise.all`).
 */
function phasesOf(statements: CapturedStatement[]): CapturedStatement[][] {
  const phases: CapturedStatement[][] = [];
  let answeredBy = Number.NEGATIVE_INFINITY;
  for (const statement of [...statements].sort((a, b) => a.sentMs - b.sentMs)) {
    const current = phases.at(-1);
    if (current && statement.sentMs < answeredBy) {
      current.push(statement);
      answeredBy = Math.max(answeredBy, statement.answeredMs);
    } else {
      phases.push([statement]);
      answeredBy = statement.answeredMs;
    }
  }
  return phases;
}

/** The total: a statement answering one `count`, else the page rows' window `count`. */
function totalOf(results: Row[][], records: Row[]): number {
  const counted = results.find((rows) => rows.length === 1 && Object.keys(rows[0]!).join() === 'count');
  if (counted) return Number(counted[0]!.count);
  return records.length > 0 && 'count' in records[0]! ? Number(records[0]!.count) : 0;
}

/**
 * Serves BASELINE_PLAN's list until SIGTERM: the records are the rows of the first statement whose
 * first row `isRecord`, each answered as `record` makes it.
 */
export async function serveListBaseline(list: {
  isRecord: (row: Row) => boolean;
  record: (row: Row) => unknown;
}) {
  const plan = JSON.parse(readFileSync(process.env.BASELINE_PLAN ?? '', 'utf8')) as BaselinePlan;
  const [checks, ...work] = phasesOf(plan.statements);
  if (!checks || work.length === 0) throw new Error('BASELINE_PLAN needs an access check and the list');

  let run: (statement: CapturedStatement) => Promise<Row[]>;
  let close: () => Promise<void>;
  if (process.env.DATABASE_URL) {
    const pool = new pg.Pool({
      connectionString: process.env.DATABASE_URL,
      max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
      // As the server's pool (apps/server/src/db/client.ts).
      options: '-c plan_cache_mode=force_custom_plan -c jit=off',
    });
    // Named as the server named them: each connection parses a named statement once, then binds
    // and executes it, as the server's prepared statements do.
    run = async ({ text, params, name }) =>
      (await pool.query<Row>(name ? { name, text, values: params } : { text, values: params })).rows;
    close = () => pool.end();
  } else {
    const dataDir = process.env.DATA_DIR;
    if (!dataDir) throw new Error('DATABASE_URL or DATA_DIR is required');
    const client = new PGlite(join(dataDir, 'pgdata'), { extensions: { pg_trgm } });
    await client.waitReady;
    run = async ({ text, params }) => (await client.query<Row>(text, params)).rows;
    close = () => client.close();
  }

  const server = createServer((request, response) => {
    if (request.url === '/api/health') {
      response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      response.end('{"status":"ok"}');
      return;
    }
    void (async () => {
      try {
        const checked = await Promise.all(checks.map((check) => run(check)));
        if (checked.some((rows) => rows.length === 0)) {
          response.writeHead(401, { 'content-type': 'application/json; charset=utf-8' });
          response.end('{"error":"UNAUTHORIZED"}');
          return;
        }
        const results: Row[][] = [];
        for (const phase of work)
          results.push(...(await Promise.all(phase.map((statement) => run(statement)))));
        const records = results.find((rows) => rows.length > 0 && list.isRecord(rows[0]!)) ?? [];
        const body = JSON.stringify({
          data: records.map((row) => list.record(row)),
          meta: { total: totalOf(results, records), page: plan.page, pageSize: plan.pageSize },
        });
        response.writeHead(200, {
          'content-type': 'application/json; charset=utf-8',
          'content-length': Buffer.byteLength(body),
        });
        response.end(body);
      } catch (error) {
        process.stderr.write(`baseline: ${(error as Error).message}\n`);
        response.writeHead(500);
        response.end();
      }
    })();
  });

  // Fastify's defaults, so that neither side closes a connection the other keeps.
  server.keepAliveTimeout = 72_000;
  server.requestTimeout = 0;

  process.on('SIGTERM', () => {
    server.close();
    void close().then(() => process.exit(0));
  });

  server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1');
}
