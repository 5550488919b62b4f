import {
  type PlanLength,
  type SubscriptionEvent,
  type SubscriptionRefusal,
  type SubscriptionSituation,
  type SubscriptionSummary,
  situationOf,
  transition,
  validationCodes,
  workspaceTransition,
} from '@dukkan/contract';
import { and, eq } from 'drizzle-orm';
import { auditEntry, recordAudit } from '../../db/audit-log.ts';
import type { Database } from '../../db/client.ts';
import { revokeUnusableGrants } from '../../db/oauth-grants.ts';
import { applications, payments, subscriptions } from '../../db/schema/index.ts';
import { workspaceTimeZone } from '../../db/workspace-time-zone.ts';
import { AppError, validationError } from '../../errors.ts';
import { activeLocationCount, issueInvoice } from './invoices.ts';
import {
  type ApplicationRow,
  daysLater,
  type InvoiceRow,
  periodEnd,
  type SubscriptionRow,
} from './subscription-periods.ts';

export type { ApplicationRow, InvoiceRow, SubscriptionRow };

/*
 * The contract's lifecycle table (statuses × events) applied to the stored rows: one function
 * loads a workspace's subscription to an application under a row lock, asks `transition()` and
 * writes what the event means for the row's dates, plan and invoices, or refuses.
 */

/**
 * Who causes an event: the workspace (from the dashboard), the operator (approve, reject), the
 * clock (trial, period and grace ends) or a payment provider (a paid invoice renews, a paid first
 * invoice activates).
 */
export type SubscriptionActor = 'workspace' | 'operator' | 'clock' | 'payment';

/** Why an event is refused: the lifecycle table's reason, or an application without a free trial. */
type SubscriptionRefusalReason = SubscriptionRefusal | 'noFreeTrial';

/** An event the subscription's state does not allow (409 over HTTP, exit 2 on the command line). */
export class SubscriptionEventRefused extends Error {
  override name = 'SubscriptionEventRefused';
  constructor(
    readonly event: SubscriptionEvent,
    readonly reason: SubscriptionRefusalReason,
    message: string,
  ) {
    super(message);
  }
}

const refusalMessages: Record<SubscriptionRefusalReason, string> = {
  notSubscribed: 'The workspace is not subscribed to this application',
  trialAlreadyUsed: 'The workspace has already had its free trial of this application',
  alreadyRequested: 'A subscription request to this application is already waiting for approval',
  alreadySubscribed: 'The workspace is already subscribed to this application',
  notPending: 'The subscription is not waiting for approval',
  notApproved: 'The subscription is not approved',
  notInTrial: 'The subscription is not a free trial',
  notExpired: 'The subscription has not expired',
  alreadyCancelling: 'The subscription is already cancelled and ends at the end of its period',
  notInGrace: 'The subscription is not waiting for a payment',
  noFreeTrial: 'This application has no free trial',
};

/** The refusal as the API answers it: 409 VALIDATION on `event`, with the reason for the web to translate. */
export function refusalAsHttpError(refusal: SubscriptionEventRefused): AppError {
  if (refusal.reason === 'noFreeTrial') {
    return validationError([{ path: 'event', message: validationCodes.NO_FREE_TRIAL }], refusal.message, 409);
  }
  return validationError(
    [
      {
        path: 'event',
        message: validationCodes.SUBSCRIPTION_EVENT_REFUSED,
        params: { reason: refusal.reason },
      },
    ],
    refusal.message,
    409,
  );
}

/** The lifecycle's situation of a stored row (absent: never subscribed). */
function situationOfRow(row: SubscriptionRow | null): SubscriptionSituation {
  if (!row) return situationOf(null);
  return situationOf(row.status, {
    cancelling: row.cancelling,
    inGrace: row.status === 'approved' && row.graceEndsAt !== null,
  });
}

const iso = (value: Date | null) => (value ? value.toISOString() : null);

/** A stored row in the contract's shape (the dashboard's card, the events' answer). */
export function toSubscriptionSummary(row: SubscriptionRow): SubscriptionSummary {
  return {
    id: row.id,
    status: row.status,
    plan: row.plan,
    nextPlan: row.nextPlan,
    startDate: iso(row.startDate),
    endDate: iso(row.endDate),
    cancelling: row.cancelling,
    graceEndsAt: iso(row.graceEndsAt),
  };
}

export interface SubscriptionEventRequest {
  workspaceId: string;
  applicationId: string;
  event: SubscriptionEvent;
  actor: SubscriptionActor;
  /** The plan of `request`, `changePlan` and a workspace's `renew`. */
  plan?: PlanLength;
  /** A payment's `renew` and `activate`: the paid invoice, whose plan (and period, for `renew`) becomes the subscription's. */
  paidInvoice?: InvoiceRow;
  /**
   * A `request` (or a lapsed subscription's `renew`) with a hosted checkout: its first invoice is
   * issued at once, for the workspace to pay instead of waiting for the operator's approval.
   */
  invoiceOnRequest?: boolean;
  /** Grace after an unpaid period's end, in days (the clock's `periodEnds`). */
  graceDays?: number;
}

/** What a mail to the workspace's admins says after an event (none for most of the workspace's own). */
export type SubscriptionNoticeKind =
  | 'requested'
  | 'approved'
  | 'activated'
  | 'rejected'
  | 'expiredSubscription'
  | 'expiredFreeTrial';

export interface AppliedSubscriptionEvent {
  /** The row before the event (null: the workspace had never subscribed). */
  previous: SubscriptionRow | null;
  subscription: SubscriptionRow;
  application: ApplicationRow;
  /** The invoice the event issued (approve, periodEnds). */
  invoice: InvoiceRow | null;
  notice: SubscriptionNoticeKind | null;
}

async function lockSubscription(
  tx: Database,
  workspaceId: string,
  applicationId: string,
): Promise<SubscriptionRow | null> {
  const [row] = await tx
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.workspaceId, workspaceId), eq(subscriptions.applicationId, applicationId)))
    .for('update');
  return row ?? null;
}

/** The application, or a 404 naming `applicationId` when no application has that id. */
async function findApplication(db: Database, applicationId: string): Promise<ApplicationRow> {
  const [application] = await db
    .select()
    .from(applications)
    .where(eq(applications.id, applicationId))
    .limit(1);
  if (!application) throw new AppError('NOT_FOUND', 'Application not found', { key: 'applicationId' });
  return application;
}

type RowValues = Partial<Omit<SubscriptionRow, 'id' | 'workspaceId' | 'applicationId' | 'createdAt'>>;

const requiredPlan = (request: SubscriptionEventRequest): PlanLength => {
  if (!request.plan) throw new Error(`The ${request.event} event needs a plan`);
  return request.plan;
};

/**
 * A request's first invoice, issued at once when the workspace pays through a hosted checkout: the
 * period it prices is from now; its payment starts the period then (`activate`).
 */
function requestedAfter(
  tx: Database,
  request: SubscriptionEventRequest,
  application: ApplicationRow,
  now: Date,
  timeZone: string,
): Effect['after'] {
  if (!request.invoiceOnRequest) return nothingAfter('requested');
  return async (row) => {
    const plan = requiredPlan(request);
    const invoice = await issueInvoice(tx, {
      subscription: row,
      application,
      plan,
      periodStart: now,
      periodEnd: periodEnd(now, plan, timeZone),
      now,
    });
    return { invoice, notice: 'requested' };
  };
}

/** A pending subscription's first invoice when it was issued on request and is still unpaid. */
async function unpaidInvoice(tx: Database, subscription: SubscriptionRow): Promise<InvoiceRow | null> {
  const [row] = await tx
    .select()
    .from(payments)
    .where(
      and(
        eq(payments.workspaceId, subscription.workspaceId),
        eq(payments.subscriptionId, subscription.id),
        eq(payments.status, 'pending'),
      ),
    )
    .limit(1);
  return row ?? null;
}

/** An unpaid invoice no longer due: failed (the spec's four statuses have no "void"), with its audit row. */
async function voidInvoice(tx: Database, invoice: InvoiceRow, now: Date): Promise<void> {
  const [failed] = await tx
    .update(payments)
    .set({ status: 'failed', updatedAt: now })
    .where(and(eq(payments.workspaceId, invoice.workspaceId), eq(payments.id, invoice.id)))
    .returning();
  await recordAudit(tx, [
    auditEntry(payments, invoice.workspaceId, 'invoices', invoice.id, invoice, failed!),
  ]);
}

/**
 * A pending request's first invoice (issued on request for a hosted checkout, still unpaid) as
 * the request now costs it: when the plan or the billed locations changed since it was issued, it
 * is voided (failed) and a new one, with the next number, is issued for `plan` and today's
 * locations (decision 0044). Invoices never change but for their status, so a Checkout Session
 * opened for the old one can only ever settle the old one. Null when there is no such invoice.
 */
export async function followRequestInvoice(
  tx: Database,
  subscription: SubscriptionRow,
  application: ApplicationRow,
  plan: PlanLength,
  now: Date,
  timeZone: string,
): Promise<InvoiceRow | null> {
  const unpaid = await unpaidInvoice(tx, subscription);
  if (!unpaid) return null;
  const locations = Math.max(1, await activeLocationCount(tx, subscription.workspaceId));
  if (unpaid.details.plan === plan && unpaid.details.locations === locations) return unpaid;
  await voidInvoice(tx, unpaid, now);
  return issueInvoice(tx, {
    subscription,
    application,
    plan,
    periodStart: now,
    periodEnd: periodEnd(now, plan, timeZone),
    now,
  });
}

/**
 * The first invoices of the workspace's pending requests, made to follow its active locations
 * after a location's create, update (enable, disable) or delete, in that write's transaction
 * (the locations' hooks, `subscriptions-resources.ts`). Each request is locked as an event would
 * lock it; a request with no unpaid invoice (bank transfer) is left as it is.
 */
export async function followRequestInvoices(tx: Database, workspaceId: string, now: Date): Promise<void> {
  const pending = await tx
    .select({ subscription: subscriptions, application: applications })
    .from(subscriptions)
    .innerJoin(applications, eq(applications.id, subscriptions.applicationId))
    .where(and(eq(subscriptions.workspaceId, workspaceId), eq(subscriptions.status, 'pending')))
    .orderBy(subscriptions.id)
    .for('update', { of: subscriptions });
  if (pending.length === 0) return;
  const timeZone = await workspaceTimeZone(tx, workspaceId);
  for (const { subscription, application } of pending) {
    if (subscription.plan)
      await followRequestInvoice(tx, subscription, application, subscription.plan, now, timeZone);
  }
}

/** A fresh request for the operator: the plan chosen, no period yet, every flag cleared. */
const requestedValues = (plan: PlanLength): RowValues => ({
  status: 'pending',
  plan,
  nextPlan: null,
  startDate: null,
  endDate: null,
  cancelling: false,
  graceEndsAt: null,
  warnedForEnd: null,
});

/** The event's audit row: the subscription's changed fields, the event as the action. */
function auditSubscription(
  tx: Database,
  request: SubscriptionEventRequest,
  previous: SubscriptionRow | null,
  subscription: SubscriptionRow,
) {
  const entry = auditEntry(
    subscriptions,
    request.workspaceId,
    'subscriptions',
    subscription.id,
    previous,
    subscription,
  );
  return recordAudit(tx, [{ ...entry, action: request.event }]);
}

/**
 * Applies one event to the workspace's subscription to an application, inside the caller's
 * transaction: the row is locked (FOR UPDATE) until it commits, so two events on one subscription
 * apply one after the other, each to what the other wrote. Throws `SubscriptionEventRefused` for
 * what the lifecycle table refuses (nothing is written), a 404 for an unknown application.
 */
export async function applySubscriptionEvent(
  tx: Database,
  request: SubscriptionEventRequest,
  now: Date,
): Promise<AppliedSubscriptionEvent> {
  const application = await findApplication(tx, request.applicationId);
  // Periods, trials and graces are counted in the workspace's calendar.
  const timeZone = await workspaceTimeZone(tx, request.workspaceId);
  // Twice at most: a first subscription inserted by someone else meanwhile is then read and locked.
  for (let attempt = 0; attempt < 2; attempt++) {
    const previous = await lockSubscription(tx, request.workspaceId, request.applicationId);
    const situation = situationOfRow(previous);
    const verdict =
      request.actor === 'workspace'
        ? workspaceTransition(situation, request.event)
        : transition(situation, request.event);
    if (!verdict.allowed) {
      throw new SubscriptionEventRefused(request.event, verdict.reason, refusalMessages[verdict.reason]);
    }
    const effect = await effectOf(tx, request, previous, application, verdict.to, now, timeZone);
    if (previous) {
      const [subscription] = await tx
        .update(subscriptions)
        .set({ ...effect.values, updatedAt: now })
        .where(and(eq(subscriptions.workspaceId, previous.workspaceId), eq(subscriptions.id, previous.id)))
        .returning();
      await auditSubscription(tx, request, previous, subscription!);
      // A subscription that no longer lets the workspace use the application ends its sign-ins.
      await revokeUnusableGrants(tx, { workspaceId: request.workspaceId });
      return { previous, subscription: subscription!, application, ...(await effect.after(subscription!)) };
    }
    const [inserted] = await tx
      .insert(subscriptions)
      .values({
        workspaceId: request.workspaceId,
        applicationId: request.applicationId,
        status: 'pending',
        ...effect.values,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing({ target: [subscriptions.workspaceId, subscriptions.applicationId] })
      .returning();
    if (inserted) {
      await auditSubscription(tx, request, null, inserted);
      return { previous, subscription: inserted, application, ...(await effect.after(inserted)) };
    }
  }
  throw new Error('The subscription row changed twice while an event was applied');
}

interface Effect {
  values: RowValues;
  /** What follows the row's write in the same transaction: the invoice it issues, the mail it sends. */
  after(row: SubscriptionRow): Promise<{ invoice: InvoiceRow | null; notice: SubscriptionNoticeKind | null }>;
}

const nothingAfter =
  (notice: SubscriptionNoticeKind | null = null): Effect['after'] =>
  async () => ({ invoice: null, notice });

/** What an allowed event writes, beyond the status the table leads to. */
async function effectOf(
  tx: Database,
  request: SubscriptionEventRequest,
  from: SubscriptionRow | null,
  application: ApplicationRow,
  to: SubscriptionSituation,
  now: Date,
  timeZone: string,
): Promise<Effect> {
  const status = to.status!;
  switch (request.event) {
    case 'startTrial': {
      // The table lets only a workspace that never subscribed start one (a row never returns to null).
      if (application.trialDays === 0) {
        throw new SubscriptionEventRefused('startTrial', 'noFreeTrial', refusalMessages.noFreeTrial);
      }
      return {
        values: {
          status,
          plan: null,
          nextPlan: null,
          startDate: now,
          endDate: daysLater(now, application.trialDays, timeZone),
          cancelling: false,
          graceEndsAt: null,
          trialUsed: true,
          warnedForEnd: null,
        },
        after: nothingAfter(),
      };
    }
    case 'request':
      return {
        values: requestedValues(requiredPlan(request)),
        after: requestedAfter(tx, request, application, now, timeZone),
      };
    case 'renew': {
      // A lapsed subscription's renewal is a new request for the operator.
      if (status === 'pending')
        return {
          values: requestedValues(requiredPlan(request)),
          after: requestedAfter(tx, request, application, now, timeZone),
        };
      if (request.actor === 'payment') {
        const paid = request.paidInvoice;
        if (!paid || !from) throw new Error('A payment renews a subscription with its paid invoice');
        // The paid invoice's period, exactly as it was issued and priced; a plan changed since
        // it was issued still waits for the period after.
        const plan = paid.details.plan;
        return {
          values: {
            status,
            plan,
            nextPlan: from.nextPlan !== null && from.nextPlan !== plan ? from.nextPlan : null,
            startDate: new Date(paid.details.periodStart),
            endDate: new Date(paid.details.periodEnd),
            graceEndsAt: null,
          },
          after: nothingAfter(),
        };
      }
      // Only a payment renews an approved subscription (workspaceTransition refuses the workspace).
      throw new Error('An approved subscription is renewed by its paid invoice');
    }
    case 'changePlan': {
      const plan = requiredPlan(request);
      if (from?.status === 'pending')
        return {
          values: { plan },
          // A first invoice already issued for the old plan follows the new one.
          async after(row) {
            const unpaid = await unpaidInvoice(tx, row);
            const followed = await followRequestInvoice(tx, row, application, plan, now, timeZone);
            return { invoice: followed && followed.id !== unpaid?.id ? followed : null, notice: null };
          },
        };
      return { values: { nextPlan: plan === from?.plan ? null : plan }, after: nothingAfter() };
    }
    case 'cancel': {
      if (status === 'expiredFreeTrial')
        return { values: { status, endDate: now, warnedForEnd: null }, after: nothingAfter() };
      if (status === 'expiredSubscription')
        return {
          values: { status, cancelling: false, nextPlan: null, graceEndsAt: null },
          after: nothingAfter(),
        };
      return { values: { cancelling: true, nextPlan: null }, after: nothingAfter() };
    }
    case 'approve': {
      const plan = from?.plan;
      if (!plan) throw new Error('A pending subscription has a plan');
      const endDate = periodEnd(now, plan, timeZone);
      return {
        values: { status, startDate: now, endDate, cancelling: false, graceEndsAt: null, nextPlan: null },
        async after(row) {
          // A request whose first invoice was issued on request (a hosted checkout) keeps that
          // one, made to follow the locations billed today.
          const invoiced = await followRequestInvoice(tx, row, application, plan, now, timeZone);
          if (invoiced) return { invoice: invoiced, notice: 'approved' };
          const invoice = await issueInvoice(tx, {
            subscription: row,
            application,
            plan,
            periodStart: now,
            periodEnd: endDate,
            now,
          });
          return { invoice, notice: 'approved' };
        },
      };
    }
    case 'activate': {
      const paid = request.paidInvoice;
      if (request.actor !== 'payment' || !paid)
        throw new Error('A subscription is activated by the payment of its first invoice');
      // The plan paid for; the period starts with the payment, as an approval's starts with it.
      const plan = paid.details.plan;
      return {
        values: {
          status,
          plan,
          startDate: now,
          endDate: periodEnd(now, plan, timeZone),
          cancelling: false,
          graceEndsAt: null,
          nextPlan: null,
        },
        after: async () => ({ invoice: paid, notice: 'activated' }),
      };
    }
    case 'reject':
      return {
        values: { status, startDate: null, endDate: null, nextPlan: null },
        async after() {
          // A first invoice issued on request (a hosted checkout) and still unpaid is no longer
          // due: failed, so that Pay now and the payment-due card leave it (decision 0044).
          const unpaid = from ? await unpaidInvoice(tx, from) : null;
          if (unpaid) await voidInvoice(tx, unpaid, now);
          return { invoice: null, notice: 'rejected' };
        },
      };
    case 'periodEnds': {
      if (status === 'expiredSubscription')
        return {
          values: { status, cancelling: false, nextPlan: null, graceEndsAt: null },
          after: nothingAfter('expiredSubscription'),
        };
      const end = from?.endDate;
      const currentPlan = from?.plan;
      if (!end || !currentPlan) throw new Error('An approved subscription has a period and a plan');
      const plan = from.nextPlan ?? currentPlan;
      return {
        values: { graceEndsAt: daysLater(end, request.graceDays ?? 0, timeZone) },
        async after(row) {
          const invoice = await issueInvoice(tx, {
            subscription: row,
            application,
            plan,
            periodStart: end,
            periodEnd: periodEnd(end, plan, timeZone),
            now,
          });
          return { invoice, notice: null };
        },
      };
    }
    case 'graceEnds':
      return {
        values: { status, cancelling: false, graceEndsAt: null, nextPlan: null },
        after: nothingAfter('expiredSubscription'),
      };
    case 'trialEnds':
      return { values: { status }, after: nothingAfter('expiredFreeTrial') };
  }
}
