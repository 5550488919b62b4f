import type { PlanLength } from '@dukkan/contract';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll } from 'vitest';
import type { Database } from '../../src/db/client.ts';
import { locations, payments, subscriptions } from '../../src/db/schema/index.ts';
import {
  runSubscriptionEvent,
  type SubscriptionServices,
} from '../../src/features/subscriptions/subscriptions.ts';
import type { Mailer } from '../../src/platform/mail/mailer.ts';
import { createSample, testResources } from './route-scenarios.ts';
import { MemoryMailer } from './test-app.ts';
import { createTestDatabase, type TestDatabase } from './test-database.ts';

/** Subscription services on a test database with an in-memory mailer. */
export function subscriptionServices(db: Database, mailer: Mailer): SubscriptionServices {
  return { db, mailer, publicUrl: 'http://dukkan.test', log: { error() {} } as never };
}

/**
 * A migrated test database for the file's tests (closed after them), the mails sent, and the
 * subscription services on that database.
 */
export function useSubscriptionDatabase() {
  const mailer = new MemoryMailer();
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });
  const db = () => database!.db;
  return { mailer, db, services: () => subscriptionServices(db(), mailer) };
}

/** `active` active locations and `inactive` inactive ones in the workspace (under one brand). */
export async function addLocations(db: Database, workspaceId: string, active: number, inactive = 0) {
  if (active + inactive === 0) return;
  const brandId = await createSample(db, testResources.data('brands'), workspaceId);
  for (let n = 0; n < active + inactive; n++) {
    const id = await createSample(db, testResources.data('locations'), workspaceId, { brands: brandId }, n);
    if (n >= active) await db.update(locations).set({ status: 'inactive' }).where(eq(locations.id, id));
  }
}

/** The workspace's subscription to the application, as stored (or undefined). */
export async function storedSubscription(db: Database, workspaceId: string, applicationId: string) {
  const [row] = await db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.workspaceId, workspaceId), eq(subscriptions.applicationId, applicationId)));
  return row;
}

/** The workspace's invoices, by number. */
export async function invoicesOf(db: Database, workspaceId: string) {
  return db
    .select()
    .from(payments)
    .where(eq(payments.workspaceId, workspaceId))
    .orderBy(asc(payments.number));
}

/**
 * A subscription requested by the workspace and approved by the operator at `now`, through the
 * feature's own functions: its first invoice is issued.
 */
export async function approvedSubscription(
  services: SubscriptionServices,
  workspaceId: string,
  applicationId: string,
  plan: PlanLength,
  now: Date,
) {
  const request = { workspaceId, applicationId, plan };
  await runSubscriptionEvent(services, { ...request, event: 'request', actor: 'workspace' }, now);
  return runSubscriptionEvent(services, { ...request, event: 'approve', actor: 'operator' }, now);
}
