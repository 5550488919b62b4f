import {
  type InvoiceDetails,
  type PaymentRecord,
  type PlanLength,
  periodPrice,
  type UpcomingPayment,
} from '@dukkan/contract';
import { and, asc, count, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { applications, invoiceCounters, locations, payments, subscriptions } from '../../db/schema/index.ts';
import { workspaceTimeZone } from '../../db/workspace-time-zone.ts';
import {
  type ApplicationRow,
  type InvoiceRow,
  periodEnd,
  type SubscriptionRow,
} from './subscription-periods.ts';

/*
 * Invoices: numbered per workspace from 1 without gaps, priced and described once when issued
 * (the workspace's active locations and the application's prices of that moment), never changed
 * afterwards but for their status.
 */

/** The workspace's active locations: what a period is priced for (at least one). */
export async function activeLocationCount(db: Database, workspaceId: string): Promise<number> {
  const [row] = await db
    .select({ count: count() })
    .from(locations)
    .where(and(eq(locations.workspaceId, workspaceId), eq(locations.status, 'active')));
  return row?.count ?? 0;
}

interface InvoicePeriod {
  application: ApplicationRow;
  plan: PlanLength;
  periodStart: Date;
  periodEnd: Date;
}

/** What an invoice of this period says and costs, for a workspace with `activeLocations`. */
export function invoiceDraft(
  { application, plan, periodStart, periodEnd }: InvoicePeriod,
  activeLocations: number,
): { details: InvoiceDetails; amount: number; currency: string } {
  const discountBasisPoints = application.discounts[plan];
  const details: InvoiceDetails = {
    application: [
      { locale: 'en', value: application.nameEn },
      { locale: 'ar', value: application.nameAr },
    ],
    plan,
    periodStart: periodStart.toISOString(),
    periodEnd: periodEnd.toISOString(),
    locations: Math.max(1, activeLocations),
    monthlyPricePerLocation: application.monthlyPricePerLocation,
    discountBasisPoints,
  };
  const amount = periodPrice({
    monthlyPricePerLocation: application.monthlyPricePerLocation,
    activeLocations,
    plan,
    discountBasisPoints,
  });
  return { details, amount, currency: application.currency };
}

/**
 * The workspace's next invoice number. The upsert takes the counter row's lock and holds it until
 * the issuing transaction ends: a second issue in the workspace waits for the first to commit or
 * roll back, so numbers are never skipped (a rolled-back issue gives its number back) nor taken
 * twice.
 */
async function nextInvoiceNumber(tx: Database, workspaceId: string): Promise<number> {
  const [counter] = await tx
    .insert(invoiceCounters)
    .values({ workspaceId, lastNumber: 1 })
    .onConflictDoUpdate({
      target: invoiceCounters.workspaceId,
      set: { lastNumber: sql`${invoiceCounters.lastNumber} + 1` },
    })
    .returning({ number: invoiceCounters.lastNumber });
  return counter!.number;
}

/** Issues the invoice of one period of a subscription, inside the event's transaction. */
export async function issueInvoice(
  tx: Database,
  input: InvoicePeriod & { subscription: SubscriptionRow; now: Date },
): Promise<InvoiceRow> {
  const { subscription, now } = input;
  const draft = invoiceDraft(input, await activeLocationCount(tx, subscription.workspaceId));
  const number = await nextInvoiceNumber(tx, subscription.workspaceId);
  const [invoice] = await tx
    .insert(payments)
    .values({
      workspaceId: subscription.workspaceId,
      subscriptionId: subscription.id,
      number,
      issuedAt: now,
      ...draft,
      status: 'pending',
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return invoice!;
}

/** An invoice in the contract's shape (`payments` resource). */
export function toPaymentRecord(row: InvoiceRow): PaymentRecord {
  return {
    id: row.id,
    number: row.number,
    subscriptionId: row.subscriptionId,
    issuedAt: row.issuedAt.toISOString(),
    details: row.details,
    amount: row.amount,
    currency: row.currency,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * The next period's invoice of each subscription that will renew: approved, not cancelling, and
 * its period not ended yet (once it has, the invoice is issued and listed with the others). Priced
 * as it would be issued now: the next plan, the active locations of today.
 */
export async function upcomingPayments(db: Database, workspaceId: string): Promise<UpcomingPayment[]> {
  const rows = await db
    .select({ subscription: subscriptions, application: applications })
    .from(subscriptions)
    .innerJoin(applications, eq(applications.id, subscriptions.applicationId))
    .where(
      and(
        eq(subscriptions.workspaceId, workspaceId),
        eq(subscriptions.status, 'approved'),
        eq(subscriptions.cancelling, false),
        isNull(subscriptions.graceEndsAt),
        isNotNull(subscriptions.endDate),
      ),
    )
    .orderBy(asc(subscriptions.endDate), asc(subscriptions.id));
  if (rows.length === 0) return [];
  const activeLocations = await activeLocationCount(db, workspaceId);
  const timeZone = await workspaceTimeZone(db, workspaceId);
  return rows.map(({ subscription, application }) => {
    const plan = subscription.nextPlan ?? subscription.plan!;
    const start = subscription.endDate!;
    const draft = invoiceDraft(
      { application, plan, periodStart: start, periodEnd: periodEnd(start, plan, timeZone) },
      activeLocations,
    );
    return {
      subscriptionId: subscription.id,
      ...draft,
      dueAt: start.toISOString(),
      status: 'upcoming' as const,
    };
  });
}
