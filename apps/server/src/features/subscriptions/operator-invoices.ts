import { type IssuedPaymentStatus, issuedPaymentStatuses } from '@dukkan/contract';
import { asc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { payments, workspaces } from '../../db/schema/index.ts';
import type { InvoiceRow } from './subscription-periods.ts';
import { SubscriptionCommandError } from './subscriptions.ts';

/** An issued invoice as the operator's list shows it (every workspace). */
interface OperatorInvoice extends InvoiceRow {
  workspaceName: string;
  /** The workspace's time zone: its invoices' dates are days of its calendar. */
  timeZone: string;
}

/**
 * Every workspace's issued invoices (or those with `status`), oldest first: where the operator
 * finds the id a payment is recorded against.
 */
export async function listInvoices(
  db: Database,
  filter: { status?: IssuedPaymentStatus } = {},
): Promise<OperatorInvoice[]> {
  if (filter.status !== undefined && !issuedPaymentStatuses.includes(filter.status)) {
    throw new SubscriptionCommandError('notFound', `No invoice status ${filter.status}`);
  }
  const rows = await db
    .select({ invoice: payments, workspaceName: workspaces.name, timeZone: workspaces.timeZone })
    .from(payments)
    .innerJoin(workspaces, eq(workspaces.id, payments.workspaceId))
    .where(filter.status === undefined ? undefined : eq(payments.status, filter.status))
    .orderBy(asc(payments.issuedAt), asc(payments.workspaceId), asc(payments.number));
  return rows.map((row) => ({ ...row.invoice, workspaceName: row.workspaceName, timeZone: row.timeZone }));
}
