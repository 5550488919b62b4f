import { and, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';
import { memberships, users, workspaces } from '../../db/schema/index.ts';
import { workspaceTimeZone } from '../../db/workspace-time-zone.ts';
import { operatorLanguage, recipientLanguage } from '../../http/mail-language.ts';
import { type Mailer, type OutgoingMail, sendAfterCommit } from '../../platform/mail/mailer.ts';
import type { MailLanguage } from '../../platform/mail/render.ts';
import { activeLocationCount, invoiceDraft } from './invoices.ts';
import type { AppliedSubscriptionEvent } from './subscription-lifecycle.ts';
import {
  type SubscriptionMailContext,
  subscriptionApprovedMail,
  subscriptionEndingSoonMail,
  subscriptionExpiredMail,
  subscriptionRejectedMail,
  subscriptionRequestedMail,
  subscriptionRequestNoticeMail,
} from './subscription-mail-texts.ts';
import {
  type ApplicationRow,
  type InvoiceRow,
  periodEnd,
  type SubscriptionRow,
} from './subscription-periods.ts';

/*
 * A workspace's subscription mails go to its active admins, each in their saved language, else
 * the language of the member who caused the event (none for the operator's and the clock's).
 * They are written inside the event's transaction (who the admins are at that moment) and sent
 * once it has committed: a rolled-back event mails nothing.
 */

export type MailLog = Pick<FastifyBaseLogger, 'error'>;

/** Logs a failed mail to standard error where no request logger exists (the command line, the clock). */
export const stderrMailLog: MailLog = {
  error(object: unknown, message?: string) {
    const { to, err } = (object ?? {}) as { to?: string; err?: Error };
    process.stderr.write(`${message ?? 'mail error'}${to ? ` (${to})` : ''}: ${err?.message ?? ''}\n`);
  },
} as MailLog;

interface Recipient {
  email: string;
  language: MailLanguage | null;
  workspaceName: string;
  timeZone: string;
}

/** The workspace's active admins with their language, and the workspace's name and time zone. */
async function adminRecipients(db: Database, workspaceId: string): Promise<Recipient[]> {
  return db
    .select({
      email: users.email,
      language: users.language,
      workspaceName: workspaces.name,
      timeZone: workspaces.timeZone,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .innerJoin(workspaces, eq(workspaces.id, memberships.workspaceId))
    .where(
      and(
        eq(memberships.workspaceId, workspaceId),
        eq(memberships.isAdmin, true),
        eq(memberships.status, 'active'),
      ),
    )
    .orderBy(users.email);
}

type Render = (language: MailLanguage, context: SubscriptionMailContext) => Omit<OutgoingMail, 'to'>;

/** One mail per active admin of the workspace, each in the language the rule gives them. */
async function mailsToAdmins(
  db: Database,
  workspaceId: string,
  application: ApplicationRow,
  link: string,
  render: Render,
  causerLanguage: MailLanguage | null = null,
): Promise<OutgoingMail[]> {
  const recipients = await adminRecipients(db, workspaceId);
  return recipients.map((recipient) => {
    const language = recipientLanguage({ recipient: recipient.language, causer: causerLanguage });
    return {
      to: recipient.email,
      ...render(language, {
        workspaceName: recipient.workspaceName,
        timeZone: recipient.timeZone,
        applicationName: language === 'ar' ? application.nameAr : application.nameEn,
        link,
      }),
    };
  });
}

const dashboardLink = (publicUrl: string) => `${publicUrl}/`;
const paymentsLink = (publicUrl: string) => `${publicUrl}/payments`;

/**
 * The operator's notice of a request, as an access request's: the workspace, the application, the
 * plan and what its first invoice would be if approved now (the invoices' own pricing), in the
 * operator's language.
 */
async function requestNoticeToOperator(
  db: Database,
  applied: AppliedSubscriptionEvent,
  operatorEmail: string,
  now: Date,
): Promise<OutgoingMail> {
  const { subscription, application } = applied;
  const [workspace] = await db
    .select({ name: workspaces.name })
    .from(workspaces)
    .where(eq(workspaces.id, subscription.workspaceId));
  const activeLocations = await activeLocationCount(db, subscription.workspaceId);
  const plan = subscription.plan!;
  const timeZone = await workspaceTimeZone(db, subscription.workspaceId);
  const draft = invoiceDraft(
    { application, plan, periodStart: now, periodEnd: periodEnd(now, plan, timeZone) },
    activeLocations,
  );
  return {
    to: operatorEmail,
    ...subscriptionRequestNoticeMail(await operatorLanguage(db, operatorEmail), {
      subscriptionId: subscription.id,
      workspaceName: workspace?.name ?? '',
      workspaceId: subscription.workspaceId,
      applicationName: { en: application.nameEn, ar: application.nameAr },
      clientId: application.clientId,
      plan,
      activeLocations,
      amount: draft.amount,
      currency: draft.currency,
    }),
  };
}

/** Who else an event may mail beyond the workspace's admins: the operator, for a request. */
export interface EventMailOptions {
  /** The acting member's language (null for the operator and the clock). */
  causerLanguage?: MailLanguage | null;
  /** The operator's address (OPERATOR_EMAIL): told of each subscription request. */
  operatorEmail?: string;
  /** When the event happened (the request's first invoice is priced as of then). */
  now?: Date;
}

/** The mails an applied event sends (none for most of the workspace's own events). */
export async function mailsOfEvent(
  db: Database,
  applied: AppliedSubscriptionEvent,
  publicUrl: string,
  { causerLanguage = null, operatorEmail, now = new Date() }: EventMailOptions = {},
): Promise<OutgoingMail[]> {
  const { subscription, application, invoice, notice } = applied;
  const to = (link: string, render: Render) =>
    mailsToAdmins(db, subscription.workspaceId, application, link, render, causerLanguage);
  switch (notice) {
    case null:
      return [];
    case 'requested':
      return [
        ...(await to(dashboardLink(publicUrl), (language, context) =>
          subscriptionRequestedMail(language, { ...context, plan: subscription.plan!, invoice }),
        )),
        ...(operatorEmail ? [await requestNoticeToOperator(db, applied, operatorEmail, now)] : []),
      ];
    case 'approved':
    case 'activated':
      return to(paymentsLink(publicUrl), (language, context) =>
        subscriptionApprovedMail(language, {
          ...context,
          paid: notice === 'activated',
          plan: subscription.plan!,
          periodEnd: subscription.endDate!,
          amount: invoice!.amount,
          currency: invoice!.currency,
        }),
      );
    case 'rejected':
      return to(dashboardLink(publicUrl), subscriptionRejectedMail);
    case 'expiredFreeTrial':
      return to(dashboardLink(publicUrl), (language, context) =>
        subscriptionExpiredMail(language, { ...context, kind: 'trial' }),
      );
    case 'expiredSubscription':
      return to(dashboardLink(publicUrl), (language, context) =>
        subscriptionExpiredMail(language, { ...context, kind: 'subscription' }),
      );
  }
}

/** The "ends in 3 days" mails of a subscription's current period (or trial). */
export async function endingSoonMails(
  db: Database,
  subscription: SubscriptionRow,
  application: ApplicationRow,
  next: Pick<InvoiceRow, 'amount' | 'currency'> | null,
  publicUrl: string,
): Promise<OutgoingMail[]> {
  const kind =
    subscription.status === 'freeTrial' ? 'trial' : subscription.cancelling ? 'cancelling' : 'renewing';
  return mailsToAdmins(
    db,
    subscription.workspaceId,
    application,
    dashboardLink(publicUrl),
    (language, context) =>
      subscriptionEndingSoonMail(language, {
        ...context,
        kind,
        endDate: subscription.endDate!,
        next: kind === 'renewing' && next ? next : undefined,
      }),
  );
}

/** Sends mails after their transaction committed; a failure is logged, never thrown. How many went. */
export async function sendCommittedMails(
  mailer: Mailer,
  log: MailLog,
  mails: OutgoingMail[],
): Promise<number> {
  let sent = 0;
  for (const mail of mails) if (await sendAfterCommit(mailer, log, mail)) sent += 1;
  return sent;
}
