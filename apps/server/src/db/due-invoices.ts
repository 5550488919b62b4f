import type { DuePayment } from '@dukkan/contract';
import { and, desc, eq } from 'drizzle-orm';
import type { Database } from './client.ts';
import { payments, subscriptions } from './schema/index.ts';

/*
 * The invoices waiting for their payment, as the invoices page and the dashboard's cards say them:
 * shared by the subscriptions feature (which issues and settles invoices) and the applications
 * feature (the dashboard).
 */

type SubscriptionRow = typeof subscriptions.$inferSelect;
type InvoiceRow = typeof payments.$inferSelect;

/**
 * Whether a subscription in grace waits for this invoice: the next period's (issued when its
 * period ended), whose payment renews it.
 */
export const awaitsInvoice = (subscription: SubscriptionRow, invoice: InvoiceRow) =>
  subscription.status === 'approved' &&
  subscription.graceEndsAt !== null &&
  subscription.endDate?.toISOString() === invoice.details.periodStart;

/**
 * The workspace's issued invoices waiting for their payment, newest first: each with the day it
 * must be paid by before its subscription ends — the grace's end when it is the next period's
 * invoice a subscription in grace waits for (the one whose payment renews it), else none.
 */
export async function dueInvoices(db: Database, workspaceId: string): Promise<DuePayment[]> {
  const rows = await db
    .select({ invoice: payments, subscription: subscriptions })
    .from(payments)
    .innerJoin(
      subscriptions,
      and(eq(subscriptions.workspaceId, payments.workspaceId), eq(subscriptions.id, payments.subscriptionId)),
    )
    .where(and(eq(payments.workspaceId, workspaceId), eq(payments.status, 'pending')))
    .orderBy(desc(payments.number));
  return rows.map(({ invoice, subscription }) => {
    const awaited = awaitsInvoice(subscription, invoice);
    return {
      invoiceId: invoice.id,
      number: invoice.number,
      subscriptionId: invoice.subscriptionId,
      application: invoice.details.application,
      amount: invoice.amount,
      currency: invoice.currency,
      issuedAt: invoice.issuedAt.toISOString(),
      dueBy: awaited ? subscription.graceEndsAt!.toISOString() : null,
      periodEnd: invoice.details.periodEnd,
    };
  });
}
