import {
  type InvoiceDetails,
  type PaymentRecord,
  type PlanLength,
  periodPrice,
  type UpcomingPayment,
} from '@dukkan/contract';
import { and, asc, count, eq, isNotNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { awaitsInvoice } from '../../db/due-invoices.ts';
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
 * The next invoice of each subscription that will renew, priced as it would be issued now (the
 * active locations of today): approved and not cancelling, and
 * - its period not ended yet: the next period's invoice, on the next plan, when the period ends
 *   (once it has, the invoice is issued and listed with the others);
 * - in its grace (the next period's invoice issued and waiting for its payment): the invoice after
 *   that one, when the period it pays for ends — what a location's change moves if the workspace
 *   pays (decision 0044). A subscription whose grace ended without payment is no longer approved.
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
        isNotNull(subscriptions.endDate),
      ),
    )
    .orderBy(asc(subscriptions.endDate), asc(subscriptions.id));
  if (rows.length === 0) return [];
  const activeLocations = await activeLocationCount(db, workspaceId);
  const timeZone = await workspaceTimeZone(db, workspaceId);
  const waiting = rows.some(({ subscription }) => subscription.graceEndsAt !== null)
    ? await db
        .select()
        .from(payments)
        .where(and(eq(payments.workspaceId, workspaceId), eq(payments.status, 'pending')))
    : [];
  const upcoming: UpcomingPayment[] = [];
  for (const { subscription, application } of rows) {
    let start = subscription.endDate!;
    let plan = subscription.nextPlan ?? subscription.plan!;
    let afterInvoice: number | undefined;
    if (subscription.graceEndsAt !== null) {
      // The invoice the grace waits for: its payment renews the subscription into its period,
      // on its plan (a plan changed since still waits for the period after).
      const awaited = waiting.find((invoice) => awaitsInvoice(subscription, invoice));
      if (!awaited) continue;
      start = new Date(awaited.details.periodEnd);
      plan = subscription.nextPlan ?? awaited.details.plan;
      afterInvoice = awaited.number;
    }
    const draft = invoiceDraft(
      { application, plan, periodStart: start, periodEnd: periodEnd(start, plan, timeZone) },
      activeLocations,
    );
    upcoming.push({
      subscriptionId: subscription.id,
      ...draft,
      dueAt: start.toISOString(),
      status: 'upcoming' as const,
      ...(afterInvoice !== undefined ? { afterInvoice } : {}),
    });
  }
  // By the day each is issued.
  return upcoming.sort((a, b) => a.dueAt.localeCompare(b.dueAt));
}
