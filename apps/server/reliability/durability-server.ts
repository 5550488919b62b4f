/**
 * The server the durability test kills: the real app (configuration, lock, PGlite, migrations,
 * `buildApp`) plus one harness-only route family under `/api/__durability/`. It is started only by
 * `embedded-durability.ts`; the product app never registers these routes.
 */
import { sql } from 'drizzle-orm';
import { buildApp } from '../src/app.ts';
import { ConfigError, loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';
import { DataDirLockedError } from '../src/db/lock.ts';
import { access } from '../src/http/access.ts';

/** Rows written by one batch, all in one transaction: a batch with 1 to 4 rows is a torn write. */
const rowsPerBatch = 5;

/**
 * DURABILITY_FAULT deliberately breaks the harness (never the product) to show that the test
 * notices: `autocommit` writes the five rows without a transaction (half-written batches), and
 * `ack-before-commit` answers before writing (lost acknowledged batches). Both must fail the run.
 */
const fault = process.env.DURABILITY_FAULT;

interface BatchInput {
  client: number;
  seq: number;
}

function parseBatch(body: unknown): BatchInput | undefined {
  const { client, seq } = (body ?? {}) as Record<string, unknown>;
  if (!Number.isInteger(client) || !Number.isInteger(seq)) return undefined;
  return { client: client as number, seq: seq as number };
}

async function main() {
  const config = loadConfig();
  if (config.database.kind !== 'pglite')
    throw new Error('The durability server runs on the embedded database only');
  const openStarted = performance.now();
  const database = await openDatabase(config.database);
  await database.migrate();
  const openMs = Math.round(performance.now() - openStarted);
  const { db } = database;
  await db.execute(
    sql`CREATE TABLE IF NOT EXISTS durability_rows (client int, seq int, part int, primary key (client, seq, part))`,
  );

  const app = await buildApp({ config, db, logger: { level: 'warn' } });
  app.addHook('onClose', () => database.close());

  // Answers 200 only once the transaction has committed: an acknowledged batch must survive a kill.
  app.post('/api/__durability/batch', { config: { access: access.public } }, async (request, reply) => {
    const batch = parseBatch(request.body);
    if (!batch)
      return reply.status(400).send({ error: { code: 'VALIDATION', message: 'client and seq integers' } });
    const insertParts = async (executor: Pick<typeof db, 'execute'>) => {
      // Separate statements on purpose: a crash between them must not leave some of them committed.
      for (let part = 1; part <= rowsPerBatch; part++) {
        await executor.execute(
          sql`INSERT INTO durability_rows (client, seq, part) VALUES (${batch.client}, ${batch.seq}, ${part})`,
        );
      }
    };
    if (fault === 'autocommit') {
      await insertParts(db);
    } else if (fault === 'ack-before-commit') {
      setTimeout(() => void db.transaction(insertParts).catch(() => {}), 200);
    } else {
      await db.transaction(insertParts);
    }
    return { data: { committed: true } };
  });

  // Every batch present, as [client, seq, rows]; the driver compares it with what was acknowledged.
  app.get('/api/__durability/batches', { config: { access: access.public } }, async () => {
    // Both drivers answer raw SQL with `{ rows }`; the shared Database type leaves it unknown.
    const result = (await db.execute(
      sql`SELECT client, seq, count(*)::int AS rows FROM durability_rows GROUP BY client, seq ORDER BY client, seq`,
    )) as unknown as { rows: { client: number; seq: number; rows: number }[] };
    const batches = result.rows.map((row) => [row.client, row.seq, row.rows]);
    const totalRows = result.rows.reduce((sum, row) => sum + row.rows, 0);
    return { data: { batches, totalRows } };
  });

  let closing = false;
  process.on('SIGTERM', () => {
    if (closing) return;
    closing = true;
    void app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });

  await app.listen({ host: '127.0.0.1', port: config.port });
  // Read by the driver: how long opening (and recovering) the database and migrating took.
  process.stdout.write(`durability server ready port=${config.port} pid=${process.pid} openMs=${openMs}\n`);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DataDirLockedError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(
      `durability server failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
  }
  process.exit(1);
});
