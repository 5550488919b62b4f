import {
  type PaymentRecord,
  type PlanLength,
  type SubscriptionStatus,
  type SubscriptionSummary,
  subscriptionStatuses,
} from '@dukkan/contract';
import { and, asc, eq } from 'drizzle-orm';
import { auditEntry, recordAudit } from '../../db/audit-log.ts';
import type { Database } from '../../db/client.ts';
import { awaitsInvoice } from '../../db/due-invoices.ts';
import { applications, paymentEvents, payments, subscriptions, workspaces } from '../../db/schema/index.ts';
import { workspaceTimeZone } from '../../db/workspace-time-zone.ts';
import type { Mailer } from '../../platform/mail/mailer.ts';
import type { MailLanguage } from '../../platform/mail/render.ts';
import {
  manualPaymentProvider,
  type PaymentOutcome,
  type ReportedPayment,
} from '../../platform/payments/payment-provider.ts';
import { isUuid } from '../../resource-engine/queries.ts';
import { toPaymentRecord } from './invoices.ts';
import {
  type AppliedSubscriptionEvent,
  applySubscriptionEvent,
  followRequestInvoice,
  type InvoiceRow,
  SubscriptionEventRefused,
  type SubscriptionEventRequest,
  toSubscriptionSummary,
} from './subscription-lifecycle.ts';
import { type MailLog, mailsOfEvent, sendCommittedMails, stderrMailLog } from './subscription-mails.ts';

/*
 * The subscriptions feature's operations: an event applied and its mails sent after commit (the
 * dashboard's events, the operator's decisions), and the operator's commands the command line
 * calls: list, approve, reject, record a payment.
 */

export interface SubscriptionServices {
  db: Database;
  mailer: Mailer;
  /** The app's address, for the links in the mails. */
  publicUrl: string;
  /** Where a failed mail is logged (standard error by default). */
  log?: MailLog;
  /** The acting member's language, for admins who saved none (absent: the operator, the clock). */
  causerLanguage?: MailLanguage | null;
  /** The operator's address (OPERATOR_EMAIL), told of each subscription request; absent: not told. */
  operatorEmail?: string;
}

/** What a command of the operator cannot do: an unknown id, or what the subscription's state refuses. */
export class SubscriptionCommandError extends Error {
  override name = 'SubscriptionCommandError';
  constructor(
    readonly reason: 'notFound' | 'refused' | 'alreadyPaid' | 'badInput' | 'replay' | 'mismatch',
    message: string,
  ) {
    super(message);
  }
}

interface CommittedSubscriptionEvent extends AppliedSubscriptionEvent {
  /** How many of the event's mails were sent (a failure is logged, not thrown). */
  mailsSent: number;
}

/**
 * Applies one event in its own transaction, then sends its mails (to the workspace's active
 * admins, each in their language; a request's notice to the operator) once it committed. Refusals throw `SubscriptionEventRefused`.
 */
export async function runSubscriptionEvent(
  services: SubscriptionServices,
  request: SubscriptionEventRequest,
  now: Date,
): Promise<CommittedSubscriptionEvent> {
  const { applied, mails } = await services.db.transaction(async (tx) => {
    const applied = await applySubscriptionEvent(tx, request, now);
    const mails = await mailsOfEvent(tx, applied, services.publicUrl, {
      causerLanguage: services.causerLanguage,
      operatorEmail: services.operatorEmail,
      now,
    });
    return { applied, mails };
  });
  const mailsSent = await sendCommittedMails(services.mailer, services.log ?? stderrMailLog, mails);
  return { ...applied, mailsSent };
}

/** A subscription as the operator's list shows it (every workspace). */
interface OperatorSubscription {
  id: string;
  workspaceId: string;
  workspaceName: string;
  /** The workspace's time zone: its subscription's dates are days of its calendar. */
  timeZone: string;
  applicationId: string;
  clientId: string;
  applicationName: string;
  status: SubscriptionStatus;
  plan: PlanLength | null;
  nextPlan: PlanLength | null;
  startDate: Date | null;
  endDate: Date | null;
  cancelling: boolean;
  graceEndsAt: Date | null;
  createdAt: Date;
}

/** Every workspace's subscriptions (or those in `status`), oldest first: the operator's list. */
export async function listSubscriptions(
  db: Database,
  filter: { status?: SubscriptionStatus } = {},
): Promise<OperatorSubscription[]> {
  if (filter.status !== undefined && !subscriptionStatuses.includes(filter.status)) {
    throw new SubscriptionCommandError(
      'badInput',
      `No subscription status ${filter.status} (one of ${subscriptionStatuses.join(', ')})`,
    );
  }
  return db
    .select({
      id: subscriptions.id,
      workspaceId: subscriptions.workspaceId,
      workspaceName: workspaces.name,
      timeZone: workspaces.timeZone,
      applicationId: subscriptions.applicationId,
      clientId: applications.clientId,
      applicationName: applications.nameEn,
      status: subscriptions.status,
      plan: subscriptions.plan,
      nextPlan: subscriptions.nextPlan,
      startDate: subscriptions.startDate,
      endDate: subscriptions.endDate,
      cancelling: subscriptions.cancelling,
      graceEndsAt: subscriptions.graceEndsAt,
      createdAt: subscriptions.createdAt,
    })
    .from(subscriptions)
    .innerJoin(workspaces, eq(workspaces.id, subscriptions.workspaceId))
    .innerJoin(applications, eq(applications.id, subscriptions.applicationId))
    .where(filter.status === undefined ? undefined : eq(subscriptions.status, filter.status))
    .orderBy(asc(subscriptions.createdAt), asc(subscriptions.id));
}

async function findSubscription(db: Database, id: string) {
  const [row] = isUuid(id)
    ? await db.select().from(subscriptions).where(eq(subscriptions.id, id)).limit(1)
    : [];
  if (!row) throw new SubscriptionCommandError('notFound', `No subscription with id ${id}`);
  return row;
}

export interface DecidedSubscription {
  subscription: SubscriptionSummary;
  /** The workspace's time zone, which the subscription's and the invoice's dates are days of. */
  timeZone: string;
  /** The first period's invoice (approve only). */
  invoice: PaymentRecord | null;
  mailsSent: number;
}

async function decide(
  services: SubscriptionServices,
  id: string,
  event: 'approve' | 'reject',
  now: Date,
): Promise<DecidedSubscription> {
  const row = await findSubscription(services.db, id);
  try {
    const applied = await runSubscriptionEvent(
      services,
      { workspaceId: row.workspaceId, applicationId: row.applicationId, event, actor: 'operator' },
      now,
    );
    return {
      subscription: toSubscriptionSummary(applied.subscription),
      timeZone: await workspaceTimeZone(services.db, row.workspaceId),
      invoice: applied.invoice && toPaymentRecord(applied.invoice),
      mailsSent: applied.mailsSent,
    };
  } catch (error) {
    if (error instanceof SubscriptionEventRefused) {
      throw new SubscriptionCommandError(
        'refused',
        `Subscription ${id} cannot be ${event === 'approve' ? 'approved' : 'rejected'}: ${error.message}`,
      );
    }
    throw error;
  }
}

/** The operator approves a pending subscription: its first period starts now and its invoice is issued. */
export const approveSubscription = (services: SubscriptionServices, id: string, now: Date) =>
  decide(services, id, 'approve', now);

/** The operator rejects a pending subscription request. */
export const rejectSubscription = (services: SubscriptionServices, id: string, now: Date) =>
  decide(services, id, 'reject', now);

interface SettledInvoice {
  invoice: PaymentRecord;
  /** Whether the payment renewed the subscription (the next period's invoice, paid in grace). */
  renewed: boolean;
  /** Whether the payment activated a requested subscription (its first invoice, paid through a hosted checkout). */
  activated: boolean;
  /** How many mails the settlement sent (an activation's). */
  mailsSent: number;
  subscription: SubscriptionSummary;
  /** The workspace's time zone, which the subscription's dates are days of. */
  timeZone: string;
}

/**
 * Applies a payment's outcome to an invoice: its status, and for a successful payment of the
 * next period's invoice (issued when the period ended, paid during the grace) the subscription's
 * renewal into that period, or of a requested subscription's first invoice (issued on request for
 * a hosted checkout) its activation, in one transaction; an activation's mails are sent once it
 * committed. A failed payment only marks the invoice; a paid invoice is never marked again.
 *
 * A provider's report (`reported`) is checked first, in the same transaction: its event must be
 * new (its row is written here, so a replay finds it and changes nothing), and the invoice must be
 * the workspace's, of the amount and currency paid. Anything refused throws and writes nothing.
 */
export async function settleInvoice(
  services: Pick<SubscriptionServices, 'db'> & Partial<SubscriptionServices>,
  invoiceId: string,
  outcome: PaymentOutcome,
  now: Date,
  reported?: ReportedPayment,
): Promise<SettledInvoice> {
  const { settled, mails } = await services.db.transaction(async (tx) => {
    if (reported) {
      const [recorded] = await tx
        .insert(paymentEvents)
        .values({
          provider: reported.provider,
          eventId: reported.eventId,
          type: reported.eventType,
          invoiceId: isUuid(invoiceId) ? invoiceId : '00000000-0000-0000-0000-000000000000',
          receivedAt: now,
        })
        .onConflictDoNothing()
        .returning({ eventId: paymentEvents.eventId });
      if (!recorded)
        throw new SubscriptionCommandError(
          'replay',
          `Event ${reported.eventId} of ${reported.provider} was already applied`,
        );
    }
    const [invoice] = isUuid(invoiceId)
      ? await tx.select().from(payments).where(eq(payments.id, invoiceId)).for('update')
      : [];
    if (!invoice || (reported && reported.workspaceId !== invoice.workspaceId))
      throw new SubscriptionCommandError('notFound', `No invoice with id ${invoiceId}`);
    if (
      reported &&
      outcome === 'successful' &&
      (reported.amount !== invoice.amount || reported.currency !== invoice.currency)
    ) {
      throw new SubscriptionCommandError(
        'mismatch',
        `Invoice ${invoiceId} is ${invoice.amount} ${invoice.currency}, the payment ${reported.amount} ${reported.currency}`,
      );
    }
    if (invoice.status === 'successful') {
      throw new SubscriptionCommandError('alreadyPaid', `Invoice ${invoiceId} is already paid`);
    }
    const [marked] = await tx
      .update(payments)
      .set({ status: outcome, updatedAt: now })
      .where(and(eq(payments.workspaceId, invoice.workspaceId), eq(payments.id, invoiceId)))
      .returning();
    await recordAudit(tx, [
      auditEntry(payments, invoice.workspaceId, 'invoices', invoiceId, invoice, marked!),
    ]);
    const subscription = await lockSubscriptionOf(tx, invoice);
    const awaited = outcome === 'successful' && awaitsInvoice(subscription!, invoice);
    // A requested subscription's first invoice (issued on request): its payment activates it. Not
    // a voided one (failed when the request's plan or locations changed, decision 0044), paid
    // late through a checkout opened before: the money is recorded, the operator refunds it, and
    // the request waits for its current invoice.
    const activates =
      outcome === 'successful' && subscription!.status === 'pending' && invoice.status === 'pending';
    const timeZone = await workspaceTimeZone(tx, invoice.workspaceId);
    if (!awaited && !activates) {
      return {
        settled: {
          invoice: toPaymentRecord(marked!),
          renewed: false,
          activated: false,
          subscription: toSubscriptionSummary(subscription!),
          timeZone,
        },
        mails: [],
      };
    }
    const applied = await applySubscriptionEvent(
      tx,
      {
        workspaceId: subscription!.workspaceId,
        applicationId: subscription!.applicationId,
        event: activates ? 'activate' : 'renew',
        actor: 'payment',
        paidInvoice: marked!,
      },
      now,
    );
    return {
      settled: {
        invoice: toPaymentRecord(marked!),
        renewed: !activates,
        activated: activates,
        subscription: toSubscriptionSummary(applied.subscription),
        timeZone,
      },
      mails:
        services.mailer && services.publicUrl
          ? await mailsOfEvent(tx, applied, services.publicUrl, { now })
          : [],
    };
  });
  const mailsSent =
    services.mailer && mails.length > 0
      ? await sendCommittedMails(services.mailer, services.log ?? stderrMailLog, mails)
      : 0;
  return { ...settled, mailsSent };
}

/** The subscription an invoice bills, locked for the rest of the transaction. */
async function lockSubscriptionOf(db: Database, invoice: InvoiceRow) {
  const [subscription] = await db
    .select()
    .from(subscriptions)
    .where(
      and(eq(subscriptions.workspaceId, invoice.workspaceId), eq(subscriptions.id, invoice.subscriptionId)),
    )
    .for('update');
  return subscription;
}

/**
 * The invoice "Pay now" charges for one of the workspace's pending invoices: itself, or, for a
 * pending request's first invoice issued before the billed locations changed, the new invoice
 * that replaces it (`followRequestInvoice`; the old one is voided in the same transaction, under
 * the subscription's lock). A location's write reissues it already (the locations' hooks); this
 * catches a count changed where no hook runs, before anything is charged.
 */
export async function payableInvoice(db: Database, invoice: InvoiceRow, now: Date): Promise<InvoiceRow> {
  return db.transaction(async (tx) => {
    const subscription = await lockSubscriptionOf(tx, invoice);
    if (subscription?.status !== 'pending' || !subscription.plan) return invoice;
    const [application] = await tx
      .select()
      .from(applications)
      .where(eq(applications.id, subscription.applicationId));
    const followed = await followRequestInvoice(
      tx,
      subscription,
      application!,
      subscription.plan,
      now,
      await workspaceTimeZone(tx, invoice.workspaceId),
    );
    return followed ?? invoice;
  });
}

/**
 * The operator records a payment by hand (the manual payment provider): `successful` on the
 * invoice a subscription in grace waits for renews it; `failed` marks the invoice.
 */
export async function recordPayment(
  services: Pick<SubscriptionServices, 'db'> & Partial<SubscriptionServices>,
  input: { invoiceId: string; status: PaymentOutcome },
  now: Date,
): Promise<SettledInvoice> {
  if (input.status !== 'successful' && input.status !== 'failed') {
    throw new SubscriptionCommandError(
      'badInput',
      `A payment is successful or failed, not ${String(input.status)}`,
    );
  }
  const provider = manualPaymentProvider((invoiceId, outcome, at) =>
    settleInvoice(services, invoiceId, outcome, at),
  );
  return provider.recordPayment(input.invoiceId, input.status, now);
}
