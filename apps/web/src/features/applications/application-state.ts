import { type DashboardApplication, numberFormat } from '@dukkan/contract';
import type { TFunction } from 'i18next';
import type { BadgeTone } from '../../components/ui/badge.tsx';

const dayMs = 86_400_000;

/** Whole days until `end`, counting a started day: 1 h left is "1 day left", a past end 0. */
function daysLeft(end: string, now: number): number {
  return Math.max(0, Math.ceil((new Date(end).getTime() - now) / dayMs));
}

interface CardStateText {
  label: string;
  tone: BadgeTone;
  /** A second line under the state (when a payment is due by, which plan comes next). */
  hint?: string;
}

/**
 * What a card says of the workspace's subscription: the spec's four states verbatim, and for the
 * others what the user needs to know now (days of trial left, the period's end, a payment due).
 */
export function cardStateText(
  application: DashboardApplication,
  {
    t,
    language,
    formatDate,
    now,
  }: { t: TFunction; language: string; formatDate: (value: string) => string; now: number },
): CardStateText {
  const subscription = application.subscription;
  switch (application.card) {
    case 'freeTrial': {
      const days = subscription?.endDate ? daysLeft(subscription.endDate, now) : 0;
      const number = numberFormat(language);
      return {
        label: t('applications.state.freeTrial', { count: days, days: number.format(days) }),
        tone: 'brand',
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
          hint: t('applications.paymentDueHint', { date: formatDate(subscription.graceEndsAt) }),
        };
      if (subscription?.cancelling && end)
        return { label: t('applications.state.cancelling', { date: formatDate(end) }), tone: 'warning' };
      return {
        label: end
          ? t('applications.state.subscribed', { date: formatDate(end) })
          : t('resources.subscriptions.values.status.approved'),
        tone: 'success',
        hint: nextPlan,
      };
    }
    case 'waitingForActivation':
      return { label: t('applications.state.waitingForActivation'), tone: 'warning' };
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
