import {
  type DashboardApplication,
  type DashboardMeta,
  type DuePayment,
  numberFormat,
  pickLocalized,
} from '@dukkan/contract';
import type { TFunction } from 'i18next';
import type { BadgeTone } from '../../components/ui/badge.tsx';
import { duePaymentTexts } from '../../lib/due-payment-texts.ts';

const dayMs = 86_400_000;

/** Whole days until `end`, counting a started day: 1 h left is "1 day left", a past end 0. */
function daysLeft(end: string, now: number): number {
  return Math.max(0, Math.ceil((new Date(end).getTime() - now) / dayMs));
}

interface CardStateText {
  label: string;
  tone: BadgeTone;
  /** Lines under the state: what happens next (who activates it, what is due and by when, which plan comes next). */
  hints?: string[];
  /** The invoice waiting for its payment that the hints speak of: how to pay it follows them. */
  due?: DuePayment;
}

interface StateTextTools {
  t: TFunction;
  language: string;
  formatDate: (value: string) => string;
  now: number;
  meta?: Pick<DashboardMeta, 'reviewHours'>;
}

/** "within 2 days" for a whole number of days, else "within 36 hours" (the operator's review delay). */
export function reviewDelay(t: TFunction, language: string, hours: number): string {
  const number = numberFormat(language);
  return hours % 24 === 0
    ? t('applications.delay.days', { count: hours / 24, n: number.format(hours / 24) })
    : t('applications.delay.hours', { count: hours, n: number.format(hours) });
}

/**
 * What a card says of the workspace's subscription: the spec's four states verbatim, and for the
 * others what the user needs to know now (days of trial left, the period's end, a payment due).
 */
export function cardStateText(application: DashboardApplication, tools: StateTextTools): CardStateText {
  const { t, language, formatDate, now, meta } = tools;
  const subscription = application.subscription;
  const app = pickLocalized(application.name, language);
  const due = application.duePayment;
  switch (application.card) {
    case 'freeTrial': {
      const days = subscription?.endDate ? daysLeft(subscription.endDate, now) : 0;
      const number = numberFormat(language);
      return {
        label: t('applications.state.freeTrial', { count: days, days: number.format(days) }),
        tone: 'brand',
        hints: subscription?.endDate
          ? [t('applications.trialHint', { date: formatDate(subscription.endDate), app })]
          : undefined,
      };
    }
    case 'subscribed': {
      const end = subscription?.endDate ?? null;
      const nextPlan =
        subscription?.nextPlan && subscription.nextPlan !== subscription.plan
          ? t('applications.nextPlan', {
              plan: t(`resources.subscriptions.values.plan.${subscription.nextPlan}`),
            })
          : undefined;
      if (subscription?.graceEndsAt)
        return {
          label: t('applications.state.paymentDue'),
          tone: 'danger',
          due: due ?? undefined,
          hints: due
            ? duePaymentTexts(due, tools)
            : [t('applications.paymentDueHint', { date: formatDate(subscription.graceEndsAt) })],
        };
      const dueHints = due ? duePaymentTexts(due, tools) : [];
      if (subscription?.cancelling && end)
        return {
          label: t('applications.state.cancelling', { date: formatDate(end) }),
          tone: 'warning',
          due: due ?? undefined,
          hints: dueHints.length > 0 ? dueHints : undefined,
        };
      const hints = [...(nextPlan ? [nextPlan] : []), ...dueHints];
      return {
        label: end
          ? t('applications.state.subscribed', { date: formatDate(end) })
          : t('resources.subscriptions.values.status.approved'),
        tone: 'success',
        due: due ?? undefined,
        hints: hints.length > 0 ? hints : undefined,
      };
    }
    case 'waitingForActivation':
      // Its first invoice issued with the request (a hosted checkout): paying it activates it.
      if (due)
        return {
          label: t('applications.state.waitingForActivation'),
          tone: 'warning',
          due,
          hints: [t('applications.waitingPayHint'), ...duePaymentTexts(due, tools)],
        };
      return {
        label: t('applications.state.waitingForActivation'),
        tone: 'warning',
        hints: [
          meta?.reviewHours
            ? t('applications.waitingHintWithin', { delay: reviewDelay(t, language, meta.reviewHours) })
            : t('applications.waitingHint'),
        ],
      };
    case 'expiredFreeTrial':
      return { label: t('applications.state.expiredFreeTrial'), tone: 'neutral' };
    case 'expiredSubscription':
      return { label: t('applications.state.expiredSubscription'), tone: 'neutral' };
    case 'rejected':
      return { label: t('applications.state.rejected'), tone: 'danger' };
    default:
      return { label: t('applications.state.notSubscribed'), tone: 'neutral' };
  }
}
