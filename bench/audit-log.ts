/**
 * The audit log's speed (issue 34, "Speed, measured in `bench/`"), in three parts:
 *
 * - `cost`: what recording costs a write. Two servers on one fresh database, one started with
 *   `AUDIT_LOG=off` (support/audit-off.ts: recording turned off) and one recording as always; in
 *   BENCH_ROUNDS interleaved rounds (the side going first alternates) each gets, one request at a
 *   time, the two sides in turn request by request (PostgreSQL; on PGlite, one process per
 *   folder, they take turns by round with a restart), BENCH_PRODUCT_SAVES saves of a 2,048-variant product (`POST /api/products`, as
 *   products-save.ts sends it), BENCH_CREATES catalogue creates (`POST /api/brands`) and
 *   BENCH_BULKS bulk creates of 500 brands (`POST /api/brands/bulk`). Each round's p95 per
 *   operation and side; the median of the rounds' p95; target: with the log at most 10 % higher.
 *   The audit rows of each side's products are counted, so a switch that does nothing shows.
 * - `reading`: 1 million audit rows in one workspace on PostgreSQL, seeded in one set-based
 *   `INSERT … SELECT generate_series` in the shape the recording writes (a year of changes by
 *   five members and the system, over eight resources and 50,000 records, mostly updates); then
 *   `GET /api/audit-log` sequentially, BENCH_READS timed requests each: the Activity page's first
 *   page, a page filtered by member and resource, one filtered by action and a date range, and a
 *   record's History (`resource` + `recordId`). Target: p95 at most 50 ms. The statements of each
 *   are captured (sql-capture.ts) and explained (`EXPLAIN (ANALYZE, BUFFERS)`) on the same data.
 * - `purge`: on the same rows, the workspace's retention set to one day, so that the retention
 *   work (`purgeExpiredAudit`, db/audit-retention.ts, run from this process as a server's
 *   timer runs it) deletes the whole million in batches; meanwhile autocannon sends brand creates
 *   (BENCH_WRITE_CONNECTIONS connections) for as long as the purge runs (at most
 *   BENCH_PURGE_MAX_SECONDS); the same stream for BENCH_WRITE_SECONDS before the purge is the
 *   baseline, and after it a check. Target: p99 during the purge at most 2× the baseline's.
 *
 * Environment: BENCH_AUDIT_PARTS (cost,reading,purge), BENCH_DATABASES (postgres: the cost part
 * on each listed; reading and purge on PostgreSQL only), BENCH_ROUNDS (5), BENCH_PRODUCT_SAVES
 * (20 per side and round), BENCH_CREATES (100), BENCH_BULKS (10), BENCH_AUDIT_ROWS (1000000),
 * BENCH_READS (40), BENCH_WRITE_SECONDS (15), BENCH_WRITE_CONNECTIONS (4), BENCH_PURGE_MAX_SECONDS (180),
 * BENCH_POSTGRES_URL.
 */
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { purgeExpiredAudit } from '../apps/server/src/db/audit-retention.ts';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { users } from '../apps/server/src/db/schema/index.ts';
import { combinationsOf, productOptions, seedProductWorkspace } from './products-seed.ts';
import { benchDatabases, type DatabaseKind, databaseName, type Skipped } from './support/database-kinds.ts';
import { benchWorkspaces, migrated, withFreshDatabase } from './support/databases.ts';
import { captureStatements } from './support/list-sql.ts';
import { type DatabaseMachine, databaseMachine, machineLine } from './support/machine.ts';
import { median, round1, round2 } from './support/numbers.ts';
import { writeResult } from './support/results.ts';
import { intFromEnv, runAsScript } from './support/script.ts';
import { type RunningServer, startServer } from './support/server.ts';
import { adminSession } from './support/sessions.ts';

export const auditTargets = { costP95Ratio: 1.1, readP95Ms: 50, purgeP99Ratio: 2 } as const;

/** Nearest-rank percentile. */
function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))]!;
}

/** A round's p50 and p95 as its log line prints them: `p50/p95`, to 0.1 ms. */
const p50p95 = (samples: number[]) =>
  `${round1(percentile(samples, 0.5))}/${round1(percentile(samples, 0.95))}`;

async function timed(url: string, init: RequestInit, label: string, expected = 200): Promise<number> {
  return (await timedAnswer(url, init, label, expected)).ms;
}

/** A request's time, end to end, and its answer's body. */
async function timedAnswer(
  url: string,
  init: RequestInit,
  label: string,
  expected = 200,
): Promise<{ ms: number; body: string }> {
  const started = performance.now();
  const response = await fetch(url, init);
  const body = await response.text();
  const ms = performance.now() - started;
  if (response.status !== expected)
    throw new Error(`${label} answered ${response.status}: ${body.slice(0, 400)}`);
  return { ms, body };
}

/** The machine's load average over 1, 5 and 15 minutes (Linux). */
const loadAverage = () => {
  try {
    return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  } catch {
    return '?';
  }
};

// ---------------------------------------------------------------------------------------------
// Cost: with and without the log.

const costOperations = ['productSave', 'catalogueCreate', 'bulkCreate'] as const;
type CostOperation = (typeof costOperations)[number];
type Side = 'off' | 'on';

interface CostRow {
  database: DatabaseKind;
  operation: CostOperation;
  /** Each round's p95 in ms, without and with the log. */
  roundsP95: Record<Side, number[]>;
  /** Each round's median, beside its p95: the cost on every request apart from the slowest few. */
  roundsP50: Record<Side, number[]>;
  medianP95: Record<Side, number>;
  ratio: number;
  /** Each round's p95 with ÷ without: the two sides of a round met the same tables and load. */
  roundRatios: number[];
  within: boolean;
}

async function costOn(database: DatabaseKind, report: AuditReport, settings: Settings) {
  await withFreshDatabase(database, 'audit-cost', report, async (fresh) => {
    const workspace = await migrated(fresh.options, (db) => seedProductWorkspace(db, [16, 16, 8]));
    const combinations = combinationsOf(workspace.options);
    const headers = { cookie: workspace.cookie, 'content-type': 'application/json', 'accept-language': 'en' };
    const query = `?workspaceId=${workspace.workspaceId}`;
    const servers: Partial<Record<Side, RunningServer>> = {};
    const start = async (side: Side) => {
      servers[side] = await startServer(
        { ...fresh.variables, AUDIT_LOG: side },
        `audit cost bench (${side}) on ${database}`,
      );
      return servers[side];
    };
    const stop = async (side: Side) => {
      await servers[side]?.stop();
      delete servers[side];
    };
    let sequence = 0;
    // One request of each side in turn, in `sides`' order, so that both meet the same load.
    const batch = async (sides: Side[], timedRun: boolean) => {
      const times: Record<Side, Record<CostOperation, number[]>> = {
        off: { productSave: [], catalogueCreate: [], bulkCreate: [] },
        on: { productSave: [], catalogueCreate: [], bulkCreate: [] },
      };
      const send = async (side: Side, operation: CostOperation, path: string, body: string) => {
        const server = servers[side]!;
        const answer = await timedAnswer(
          `${server.url}${path}${query}`,
          { method: 'POST', headers, body },
          `${side}: POST ${path}`,
          201,
        );
        times[side][operation].push(answer.ms);
        return answer.body;
      };
      for (let index = 0; index < (timedRun ? settings.productSaves : 1); index++)
        for (const side of sides) {
          // The side in the product's code: the audit rows of each side's products are counted.
          const code = `${side.toUpperCase()}${++sequence}`;
          const body = JSON.stringify({
            code,
            name: [
              { locale: 'en', value: `Audit Sneaker ${code}` },
              { locale: 'ar', value: `حذاء ${code}` },
            ],
            measurementUnitId: workspace.measurementUnitId,
            options: productOptions(workspace),
            variants: combinations.map((combination, position) => ({
              key: combination.key,
              sku: `${code}-${position}`,
            })),
          });
          const saved = JSON.parse(await send(side, 'productSave', '/api/products', body)) as {
            data: { id: string };
          };
          // Removed, untimed, so that every save meets the same tables: kept, each adds 2,048
          // variants, and both sides' saves slowed by half over five rounds (196 → 282 ms).
          await timed(
            `${servers[side]!.url}/api/products/${saved.data.id}${query}`,
            { method: 'DELETE', headers: { cookie: workspace.cookie } },
            `${side}: DELETE product`,
          );
        }
      for (let index = 0; index < (timedRun ? settings.creates : 3); index++)
        for (const side of sides)
          await send(
            side,
            'catalogueCreate',
            '/api/brands',
            JSON.stringify({ name: [{ locale: 'en', value: `Audit Brand ${++sequence}` }] }),
          );
      for (let index = 0; index < (timedRun ? settings.bulks : 1); index++)
        for (const side of sides) {
          const bulk = ++sequence;
          const body = JSON.stringify(
            Array.from({ length: 500 }, (_, row) => ({
              name: [{ locale: 'en', value: `Bulk ${bulk} ${row + 1}` }],
            })),
          );
          await send(side, 'bulkCreate', '/api/brands/bulk', body);
        }
      return times;
    };
    const perRound = (): Record<CostOperation, Record<Side, number[]>> => ({
      productSave: { off: [], on: [] },
      catalogueCreate: { off: [], on: [] },
      bulkCreate: { off: [], on: [] },
    });
    const p95s = perRound();
    const p50s = perRound();
    try {
      // PostgreSQL: both servers side by side, one request each in turn (the side going first
      // alternates by round). PGlite (one process per folder): the sides take turns by round,
      // each with a server of its own.
      if (database === 'postgres') {
        await start('off');
        await start('on');
        await batch(['off', 'on'], false);
      }
      for (let round = 1; round <= settings.rounds; round++) {
        const order: Side[] = round % 2 === 1 ? ['off', 'on'] : ['on', 'off'];
        const runs: Side[][] = database === 'postgres' ? [order] : order.map((side) => [side]);
        for (const sides of runs) {
          if (database === 'pglite') {
            await start(sides[0]!);
            await batch(sides, false);
          }
          // PostgreSQL: each round starts from the same state, untimed: the dead rows of the
          // last round's removed products vacuumed and its WAL written out, so that neither lands
          // on one side's requests in the middle of a round (the round's p95 is its slowest few).
          if (database === 'postgres')
            await migrated(fresh.options, async (db) => {
              await db.execute(sql`vacuum analyze`);
              await db.execute(sql`checkpoint`);
            });
          const times = await batch(sides, true);
          if (database === 'pglite') await stop(sides[0]!);
          for (const side of sides) {
            for (const operation of costOperations) {
              p95s[operation][side].push(percentile(times[side][operation], 0.95));
              p50s[operation][side].push(percentile(times[side][operation], 0.5));
            }
            process.stdout.write(
              `  ${database} round ${round} log ${side.padEnd(3)}: save p50/p95 ${p50p95(times[side].productSave)} ms, create ${p50p95(times[side].catalogueCreate)} ms, bulk ${p50p95(times[side].bulkCreate)} ms (load ${loadAverage()})\n`,
            );
          }
        }
      }
    } finally {
      await stop('off');
      await stop('on');
    }
    // The switch checked: the audit rows of each side's product creates, by the code's prefix
    // the row holds (the products themselves are removed after each save).
    const written = await migrated(fresh.options, async (db) => {
      const { rows } = (await db.execute(
        sql`select sum(case when a.changes->'code'->>1 like 'OFF%' then 1 else 0 end)::int as off,
                   sum(case when a.changes->'code'->>1 like 'ON%' then 1 else 0 end)::int as on
            from audit_log a where a.resource = 'products' and a.action = 'create'`,
      )) as unknown as { rows: { off: number | null; on: number | null }[] };
      return { off: rows[0]?.off ?? 0, on: rows[0]?.on ?? 0 };
    });
    report.auditRowsWritten[database] = written;
    if (written.off !== 0 || written.on === 0)
      throw new Error(
        `the switch did not work: ${written.off} product audit rows without the log, ${written.on} with it`,
      );
    for (const operation of costOperations) {
      const off = median(p95s[operation].off);
      const on = median(p95s[operation].on);
      const ratio = round2(on / off);
      report.cost.push({
        database,
        operation,
        roundsP95: { off: p95s[operation].off.map(round1), on: p95s[operation].on.map(round1) },
        roundsP50: { off: p50s[operation].off.map(round1), on: p50s[operation].on.map(round1) },
        medianP95: { off: round1(off), on: round1(on) },
        ratio,
        roundRatios: p95s[operation].on.map((value, round) => round2(value / p95s[operation].off[round]!)),
        within: ratio <= auditTargets.costP95Ratio,
      });
    }
  });
}

// ---------------------------------------------------------------------------------------------
// Reading and purge: a million rows in one workspace.

const seededResources = [
  'products',
  'brands',
  'customers',
  'categories',
  'taxes',
  'locations',
  'memberships',
  'settings',
];
const recordsSeeded = 50_000;

/**
 * `rows` audit rows in one statement: one every `365 days / rows` back from now, by five members
 * in turn (every 100th by the system, no member), a request id per three rows, over eight
 * resources and 50,000 records (`md5('record-<n>')` as a uuid, 20 rows each); one in 20 a create,
 * one in 50 a delete, the rest updates of a name and a price.
 */
function seedStatement() {
  return `
    insert into audit_log (workspace_id, at, actor_kind, actor_user_id, request_id, address, user_agent,
                           action, resource, record_id, changes)
    select $1::uuid,
           now() - (g * (interval '365 days' / $3::int)),
           case when g % 100 = 0 then 'system' else 'member' end,
           case when g % 100 = 0 then null else ($2::uuid[])[1 + g % 5] end,
           case when g % 100 = 0 then null else 'req-' || (g / 3) end,
           case when g % 100 = 0 then null else '10.0.' || (g % 5) || '.' || (g % 250) end,
           case when g % 100 = 0 then null
                else 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36' end,
           case when g % 20 = 0 then 'create' when g % 50 = 1 then 'delete' else 'update' end,
           ($4::text[])[1 + g % 8],
           md5('record-' || (g % ${recordsSeeded}))::uuid::text,
           case when g % 20 = 0 then jsonb_build_object('name', jsonb_build_array(null, 'Item ' || g), 'price', jsonb_build_array(null, g % 1000))
                when g % 50 = 1 then jsonb_build_object('name', jsonb_build_array('Item ' || g, null))
                else jsonb_build_object('name', jsonb_build_array('Item ' || g, 'Item ' || (g + 1)),
                                        'price', jsonb_build_array(g % 1000, g % 1000 + 10)) end
    from generate_series(1, $3::int) as g`;
}

interface ReadRow {
  query: string;
  path: string;
  count: number;
  p50: number;
  p95: number;
  max: number;
  within: boolean;
  /** `EXPLAIN (ANALYZE, BUFFERS)` of the statements that read audit_log. */
  plans: { executionMs: number; text: string }[];
}

interface PurgeResult {
  rowsPurged: number;
  purgeSeconds: number;
  /** The write stream before, during and after the purge. */
  runs: {
    phase: 'before' | 'during' | 'after';
    requests: number;
    p50: number;
    p99: number;
    errors: number;
    non2xx: number;
  }[];
  ratio: number;
  within: boolean;
}

async function readingAndPurge(report: AuditReport, settings: Settings) {
  await withFreshDatabase('postgres', 'audit-read', report, async (fresh) => {
    const url = (fresh.options as { url: string }).url;
    const seeded = await migrated(fresh.options, async (db) => {
      const [workspaceId] = await benchWorkspaces(db, 1, 'Audit Bench');
      const session = await adminSession(db, workspaceId!, {
        email: 'bench-audit@dukkan.localhost',
        name: 'Audit Bench',
      });
      const [admin] = await db
        .select({ id: users.id })
        .from(users)
        .where(eq(users.email, 'bench-audit@dukkan.localhost'));
      return { workspaceId: workspaceId!, cookie: session.cookie, adminId: admin!.id };
    });
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const members = [seeded.adminId];
      for (let index = 1; index < 5; index++) {
        const { rows } = await client.query<{ id: string }>(
          `insert into users (email, name) values ($1, $2) returning id`,
          [`bench-audit-${index}@dukkan.localhost`, `Member ${index}`],
        );
        await client.query(`insert into memberships (workspace_id, user_id) values ($1, $2)`, [
          seeded.workspaceId,
          rows[0]!.id,
        ]);
        members.push(rows[0]!.id);
      }
      let started = performance.now();
      await client.query(seedStatement(), [seeded.workspaceId, members, settings.auditRows, seededResources]);
      await client.query('vacuum analyze audit_log');
      report.seedSeconds = round1((performance.now() - started) / 1000);
      const size = await client.query(`select pg_size_pretty(pg_total_relation_size('audit_log')) as size`);
      report.auditTableSize = String(size.rows[0].size);
      process.stdout.write(
        `  seeded ${settings.auditRows} audit rows in ${report.seedSeconds} s (${report.auditTableSize} with indexes)\n`,
      );

      // The queries: the Activity page (first page, two filtered pages) and a record's History.
      const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
      const record = (await client.query(`select md5('record-4242')::uuid::text as id`)).rows[0].id as string;
      const base = `/api/audit-log?workspaceId=${seeded.workspaceId}`;
      const queries = [
        { query: 'Activity, first page', path: base },
        {
          query: 'Activity, by member and resource',
          path: `${base}&actorUserId=${members[2]}&resource=customers`,
        },
        { query: 'Activity, by action and dates', path: `${base}&action=delete&at=${day(200)}..${day(170)}` },
        {
          query: 'History of one record',
          path: `${base}&resource=${seededResources[4242 % 8]}&recordId=${record}`,
        },
      ];
      const headers = { cookie: seeded.cookie, 'accept-language': 'en' };
      const server = await startServer({ ...fresh.variables, AUDIT_LOG: 'on' }, 'audit reading bench');
      try {
        for (const { query, path } of queries) {
          const first = await fetch(`${server.url}${path}`, { headers });
          const answer = (await first.json()) as { data?: unknown[]; meta?: { total?: number } };
          if (first.status !== 200 || !Array.isArray(answer.data) || answer.data.length === 0)
            throw new Error(`${query}: ${first.status} ${JSON.stringify(answer).slice(0, 300)}`);
          for (let index = 0; index < 5; index++) await timed(`${server.url}${path}`, { headers }, query);
          const times: number[] = [];
          for (let index = 0; index < settings.reads; index++)
            times.push(await timed(`${server.url}${path}`, { headers }, query));
          const p95 = round1(percentile(times, 0.95));
          report.reading.push({
            query,
            path: path
              .replace(seeded.workspaceId, '…')
              .replace(/actorUserId=[\w-]+/, 'actorUserId=…')
              .replace(record, '…'),
            count: times.length,
            p50: round1(percentile(times, 0.5)),
            p95,
            max: round1(Math.max(...times)),
            within: p95 <= auditTargets.readP95Ms,
            plans: [],
          });
          process.stdout.write(
            `  ${query}: p50 ${round1(percentile(times, 0.5))} ms, p95 ${p95} ms (${answer.data.length} rows of ${answer.meta?.total ?? '?'}; load ${loadAverage()})\n`,
          );
        }

        // The plans: the statements each request sends, captured from a second server, then
        // explained on the same data.
        for (const [index, { path }] of queries.entries()) {
          const statements = await captureStatements(
            fresh.variables,
            path,
            (requestUrl) => fetch(requestUrl, { headers }).then((response) => response.arrayBuffer()),
            'audit reading capture',
            fresh.workDir,
          );
          for (const statement of statements.filter((entry) => entry.text.includes('"audit_log"'))) {
            let lines: string[] = [];
            for (let run = 0; run < 2; run++)
              lines = (
                await client.query(`EXPLAIN (ANALYZE, BUFFERS) ${statement.text}`, statement.params)
              ).rows.map((row) => row['QUERY PLAN'] as string);
            const text = lines.join('\n');
            report.reading[index]!.plans.push({
              executionMs: Number(/Execution Time: ([\d.]+) ms/.exec(text)?.[1] ?? Number.NaN),
              text: `${statement.text}\n${text}`,
            });
          }
        }

        // Purge: the write stream alone, then while the retention work deletes every row.
        if (settings.parts.includes('purge')) {
          // A stream of brand creates for `seconds`, or until `until` settles (then stopped).
          const writeStream = async (seconds = settings.writeSeconds, until?: Promise<unknown>) => {
            let instance: autocannon.Instance | undefined;
            const result = await new Promise<autocannon.Result>((resolveRun, reject) => {
              instance = autocannon(
                {
                  url: `${server.url}/api/brands?workspaceId=${seeded.workspaceId}`,
                  method: 'POST',
                  headers: { ...headers, 'content-type': 'application/json' },
                  body: JSON.stringify({ name: [{ locale: 'en', value: 'Purge Stream Brand' }] }),
                  connections: settings.writeConnections,
                  duration: seconds,
                  timeout: 30,
                },
                (error, finished) => (error ? reject(error) : resolveRun(finished)),
              );
              void until?.then(() => instance?.stop());
            });

            return {
              requests: result.requests.total,
              p50: result.latency.p50,
              p99: result.latency.p99,
              errors: result.errors,
              non2xx: result.non2xx,
            };
          };
          await autocannon({
            url: `${server.url}/api/brands?workspaceId=${seeded.workspaceId}`,
            method: 'POST',
            headers: { ...headers, 'content-type': 'application/json' },
            body: JSON.stringify({ name: [{ locale: 'en', value: 'Warm-up Brand' }] }),
            connections: settings.writeConnections,
            duration: 3,
          });
          const purge: PurgeResult = { rowsPurged: 0, purgeSeconds: 0, runs: [], ratio: 0, within: false };
          purge.runs.push({ phase: 'before', ...(await writeStream()) });
          process.stdout.write(
            `  writes before the purge: p99 ${purge.runs[0]!.p99} ms (load ${loadAverage()})\n`,
          );
          await client.query('update workspaces set audit_retention_days = 1 where id = $1', [
            seeded.workspaceId,
          ]);
          const handle = await openDatabase(fresh.options);
          try {
            started = performance.now();
            let purgeEnded = 0;
            const purging = purgeExpiredAudit(handle.db, { now: new Date() }).then((run) => {
              purgeEnded = performance.now();
              return run;
            });
            const during = await writeStream(settings.purgeMaxSeconds, purging);
            purge.runs.push({ phase: 'during', ...during });
            const run = await purging;
            purge.purgeSeconds = round1((purgeEnded - started) / 1000);
            purge.rowsPurged = [...run.auditRows.values()].reduce((sum, rows) => sum + rows, 0);
            const streamEndedEarly = purgeEnded - started > settings.purgeMaxSeconds * 1000;
            process.stdout.write(
              `  writes during the purge: p99 ${during.p99} ms; ${purge.rowsPurged} rows purged in ${purge.purgeSeconds} s${streamEndedEarly ? ` (the stream stopped at ${settings.purgeMaxSeconds} s)` : ''} (load ${loadAverage()})\n`,
            );
          } finally {
            await handle.close();
          }
          purge.runs.push({ phase: 'after', ...(await writeStream()) });
          process.stdout.write(`  writes after the purge: p99 ${purge.runs[2]!.p99} ms\n`);
          const baseline = purge.runs[0]!.p99;
          purge.ratio = round2(purge.runs[1]!.p99 / baseline);
          purge.within = purge.ratio <= auditTargets.purgeP99Ratio;
          report.purge = purge;
        }
      } finally {
        await server.stop();
      }
    } finally {
      await client.end();
    }
  });
}

// ---------------------------------------------------------------------------------------------

interface Settings {
  parts: string[];
  rounds: number;
  productSaves: number;
  creates: number;
  bulks: number;
  auditRows: number;
  reads: number;
  writeSeconds: number;
  writeConnections: number;
  purgeMaxSeconds: number;
}

export interface AuditReport {
  machine: DatabaseMachine & { loadBefore: string; loadAfter?: string };
  settings: Settings;
  cost: CostRow[];
  auditRowsWritten: Partial<Record<DatabaseKind, Record<Side, number>>>;
  seedSeconds?: number;
  auditTableSize?: string;
  reading: ReadRow[];
  purge?: PurgeResult;
  skipped: Skipped[];
}

const operationName: Record<CostOperation, string> = {
  productSave: 'product save, 2,048 variants',
  catalogueCreate: 'catalogue create (a brand)',
  bulkCreate: 'bulk create, 500 brands',
};

export function auditMarkdown(report: AuditReport): string {
  const { settings } = report;
  const lines = [
    `${machineLine(report.machine)}; load average ${report.machine.loadBefore} before, ${report.machine.loadAfter ?? '?'} after`,
    '',
  ];
  if (report.cost.length) {
    lines.push(
      `Cost: ${settings.rounds} interleaved rounds, each side per round ${settings.productSaves} product saves, ${settings.creates} creates, ${settings.bulks} bulks (after an untimed one of each); the median of the rounds' p95.`,
      '',
      '| database | operation | p95 without the log (median) | p95 with the log (median) | with ÷ without | rounds without | rounds with | each round with ÷ without | p50: with ÷ without | target ≤ 1.10 |',
      '|---|---|---:|---:|---:|---|---|---|---:|---|',
      ...report.cost.map(
        (row) =>
          `| ${databaseName(row.database)} | ${operationName[row.operation]} | ${row.medianP95.off} ms | ${row.medianP95.on} ms | ${row.ratio} | ${row.roundsP95.off.join(', ')} | ${row.roundsP95.on.join(', ')} | ${row.roundRatios.join(', ')} | ${round2(median(row.roundsP50.on) / median(row.roundsP50.off))} | ${row.within ? 'met' : 'MISSED'} |`,
      ),
      '',
    );
  }
  if (report.reading.length) {
    lines.push(
      `Reading: ${settings.auditRows.toLocaleString('en-US')} audit rows in one workspace on PostgreSQL (${report.auditTableSize}, seeded in ${report.seedSeconds} s), ${settings.reads} sequential requests each after 5 untimed.`,
      '',
      '| request | p50 | p95 | max | target p95 ≤ 50 ms | statements on audit_log (EXPLAIN ANALYZE execution) |',
      '|---|---:|---:|---:|---|---|',
      ...report.reading.map(
        (row) =>
          `| ${row.query} (\`${row.path}\`) | ${row.p50} ms | ${row.p95} ms | ${row.max} ms | ${row.within ? 'met' : 'MISSED'} | ${row.plans.map((plan) => `${plan.executionMs} ms`).join(', ')} |`,
      ),
      '',
    );
  }
  if (report.purge) {
    const { purge } = report;
    lines.push(
      `Purge: ${purge.rowsPurged.toLocaleString('en-US')} rows purged in ${purge.purgeSeconds} s; brand creates by autocannon (${settings.writeConnections} connections) for ${settings.writeSeconds} s before, during the whole purge, and ${settings.writeSeconds} s after.`,
      '',
      '| writes | requests | p50 | p99 | errors / non-2xx |',
      '|---|---:|---:|---:|---|',
      ...purge.runs.map(
        (run) =>
          `| ${run.phase} the purge | ${run.requests} | ${run.p50} ms | ${run.p99} ms | ${run.errors} / ${run.non2xx} |`,
      ),
      '',
      `p99 during ÷ before: ${purge.ratio} (target ≤ 2): ${purge.within ? 'met' : 'MISSED'}`,
    );
  }
  for (const skip of report.skipped) lines.push('', `${skip.database} skipped: ${skip.reason}`);
  return lines.join('\n');
}

export async function runAuditLogBench(): Promise<{ report: AuditReport; ok: boolean }> {
  const settings: Settings = {
    parts: (process.env.BENCH_AUDIT_PARTS ?? 'cost,reading,purge').split(',').map((part) => part.trim()),
    rounds: intFromEnv('BENCH_ROUNDS', 5),
    productSaves: intFromEnv('BENCH_PRODUCT_SAVES', 20),
    creates: intFromEnv('BENCH_CREATES', 100),
    bulks: intFromEnv('BENCH_BULKS', 10),
    auditRows: intFromEnv('BENCH_AUDIT_ROWS', 1_000_000),
    reads: intFromEnv('BENCH_READS', 40),
    writeSeconds: intFromEnv('BENCH_WRITE_SECONDS', 15),
    writeConnections: intFromEnv('BENCH_WRITE_CONNECTIONS', 4),
    purgeMaxSeconds: intFromEnv('BENCH_PURGE_MAX_SECONDS', 180),
  };
  const report: AuditReport = {
    machine: { ...databaseMachine(), loadBefore: loadAverage() },
    settings,
    cost: [],
    auditRowsWritten: {},
    reading: [],
    skipped: [],
  };
  process.stdout.write(`\nThe audit log: ${settings.parts.join(', ')}; load ${report.machine.loadBefore}\n`);
  if (settings.parts.includes('cost'))
    for (const database of process.env.BENCH_DATABASES ? benchDatabases() : (['postgres'] as DatabaseKind[]))
      await costOn(database, report, settings);
  if (settings.parts.includes('reading') || settings.parts.includes('purge'))
    await readingAndPurge(report, settings);
  report.machine.loadAfter = loadAverage();
  const path = writeResult('audit-log', report);
  const ok =
    report.cost.every((row) => row.within) &&
    report.reading.every((row) => row.within) &&
    (report.purge?.within ?? true);
  process.stdout.write(`\n${auditMarkdown(report)}\n\n${ok ? 'PASS' : 'FAIL'}\nResults: ${path}\n`);
  return { report, ok };
}

runAsScript(import.meta.url, runAuditLogBench, 'audit log bench failed: ');
