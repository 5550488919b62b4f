/**
 * Invoice numbering under concurrent issue: 20 subscription requests of one workspace approved at
 * once (each approval issues an invoice, numbered from the workspace's counter row, which every
 * issue locks until it commits), against the same 20 approvals one after another (the baseline:
 * no waiting on the counter). The numbers are checked to be 1–20 without gaps every round.
 *
 * Run in this process on the server's own modules (the feature functions the command line calls),
 * on a fresh database per kind. Environment: BENCH_DATABASES (pglite,postgres), BENCH_ROUNDS (10),
 * BENCH_INVOICES (20), BENCH_POSTGRES_URL (as auth.ts).
 */
import { eq } from 'drizzle-orm';
import type { Database } from '../apps/server/src/db/client.ts';
import { applications, payments, workspaces } from '../apps/server/src/db/schema/index.ts';
import {
  approveSubscription,
  runSubscriptionEvent,
} from '../apps/server/src/features/subscriptions/subscriptions.ts';
import type { Mailer } from '../apps/server/src/platform/mail/mailer.ts';
import { benchDatabases, type DatabaseKind, type Skipped } from './support/database-kinds.ts';
import { migrated, withFreshDatabase } from './support/databases.ts';
import { type DatabaseMachine, databaseMachine, machineLine } from './support/machine.ts';
import { type Rounds, roundsOf } from './support/numbers.ts';
import { writeResult } from './support/results.ts';
import { intFromEnv, runAsScript } from './support/script.ts';

/** The workspaces have no admins: nothing is mailed. */
const noMail: Mailer = { send: async () => undefined, close: () => undefined };

/** Milliseconds per round to approve all of them, and their median. */
type Side = Rounds;

interface InvoiceNumberingReport {
  machine: DatabaseMachine;
  invoicesPerRound: number;
  results: { database: DatabaseKind; concurrent: Side; oneAfterAnother: Side }[];
  skipped: Skipped[];
}

/** A workspace with `count` pending requests, one per application; their subscription ids. */
async function pendingRequests(db: Database, count: number, label: string, at: Date): Promise<string[]> {
  const [workspace] = await db.insert(workspaces).values({ name: label }).returning({ id: workspaces.id });
  const ids: string[] = [];
  for (let index = 0; index < count; index++) {
    const clientId = `${label.toLowerCase().replace(/\W+/g, '-')}-${index}`;
    const [application] = await db
      .insert(applications)
      .values({
        clientId,
        nameEn: `App ${clientId}`,
        nameAr: `تطبيق ${clientId}`,
        homeUrl: `https://${clientId}.example/`,
        redirectUris: [`https://${clientId}.example/callback`],
        clientType: 'public',
        currency: 'EGP',
        monthlyPricePerLocation: 10_000,
        discounts: { monthly: 0, quarterly: 500, semiannually: 1000, annually: 2000 },
      })
      .returning({ id: applications.id });
    const requested = await runSubscriptionEvent(
      { db, mailer: noMail, publicUrl: 'http://localhost:3000' },
      {
        workspaceId: workspace!.id,
        applicationId: application!.id,
        event: 'request',
        plan: 'monthly',
        actor: 'workspace',
      },
      at,
    );
    ids.push(requested.subscription.id);
  }
  return ids;
}

async function approvals(db: Database, ids: string[], concurrent: boolean, at: Date): Promise<number> {
  const services = { db, mailer: noMail, publicUrl: 'http://localhost:3000' };
  const started = performance.now();
  if (concurrent) await Promise.all(ids.map((id) => approveSubscription(services, id, at)));
  else for (const id of ids) await approveSubscription(services, id, at);
  return performance.now() - started;
}

async function checkNumbers(db: Database, ids: string[]) {
  const [first] = await db
    .select({ workspaceId: payments.workspaceId })
    .from(payments)
    .where(eq(payments.subscriptionId, ids[0]!));
  const numbers = (
    await db
      .select({ number: payments.number })
      .from(payments)
      .where(eq(payments.workspaceId, first!.workspaceId))
  )
    .map((row) => row.number)
    .sort((a, b) => a - b);
  const expected = ids.map((_, index) => index + 1);
  if (numbers.join() !== expected.join())
    throw new Error(`invoice numbers ${numbers.join()} are not 1–${ids.length}`);
}

export async function runInvoiceNumberingBench(): Promise<{ ok: boolean }> {
  const rounds = intFromEnv('BENCH_ROUNDS', 10);
  const count = intFromEnv('BENCH_INVOICES', 20);
  const at = new Date('2027-01-15T10:00:00Z');
  const report: InvoiceNumberingReport = {
    machine: databaseMachine(),
    invoicesPerRound: count,
    results: [],
    skipped: [],
  };
  for (const database of benchDatabases())
    await withFreshDatabase(database, 'invoices', report, async (fresh) => {
      const sides = await migrated(fresh.options, async (db) => {
        const concurrent: number[] = [];
        const sequential: number[] = [];
        // Taking turns, so that both sides see the same state of the database and machine.
        for (let round = 0; round < rounds; round++) {
          for (const [label, samples, together] of [
            ['Together', concurrent, true],
            ['In turn', sequential, false],
          ] as const) {
            const ids = await pendingRequests(db, count, `${label} ${round}`, at);
            samples.push(await approvals(db, ids, together, at));
            await checkNumbers(db, ids);
          }
        }
        return { concurrent: roundsOf(concurrent), oneAfterAnother: roundsOf(sequential) };
      });
      report.results.push({ database, ...sides });
      process.stdout.write(
        `  ${database}: ${count} approvals at once, median ${sides.concurrent.median} ms; one after another ${sides.oneAfterAnother.median} ms (${rounds} rounds, numbers 1–${count} each)\n`,
      );
    });
  process.stdout.write(
    `${machineLine(report.machine)}\nwritten to ${writeResult('invoice-numbering', report)}\n`,
  );
  return { ok: true };
}

runAsScript(import.meta.url, runInvoiceNumberingBench);
