import {
  addCalendarMonths,
  type DashboardApplication,
  formatMoney,
  numberFormat,
  type PlanLength,
  periodPrice,
  pickLocalized,
  planLengths,
  planMonths,
} from '@dukkan/contract';
import { type FormEvent, useId, useState } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { usePaymentInstructions } from '../../components/how-to-pay.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Dialog, DialogBody, DialogFooter, dialogFormClassName } from '../../components/ui/dialog.tsx';
import { cn } from '../../lib/class-names.ts';
import { describeApiError } from '../../lib/error-messages.ts';
import { useFormatters, useWorkspaceTimeZone } from '../../lib/use-formatters.ts';
import { useSubscriptionEvent } from './use-applications.ts';

/** The events that choose a plan. */
export type PlanEvent = 'request' | 'renew' | 'changePlan';

/** The plan a dialog starts on: the one waiting for the next period, else the current one. */
function startingPlan(application: DashboardApplication): PlanLength {
  const subscription = application.subscription;
  return subscription?.nextPlan ?? subscription?.plan ?? 'monthly';
}

/**
 * When the period priced in the dialog starts, for an approved subscription changing plan: the
 * current period's end, or — in grace, the next period's invoice already issued — the end of the
 * period that invoice pays for (its own, the plan then waiting may have been longer than today's).
 */
function nextPeriodStart(application: DashboardApplication, timeZone: string): Date | null {
  const subscription = application.subscription;
  if (subscription?.status !== 'approved' || !subscription.endDate || !subscription.plan) return null;
  const end = new Date(subscription.endDate);
  if (!subscription.graceEndsAt) return end;
  const awaited = application.duePayment?.dueBy ? application.duePayment : null;
  return awaited
    ? new Date(awaited.periodEnd)
    : addCalendarMonths(end, planMonths[subscription.nextPlan ?? subscription.plan], timeZone);
}

/**
 * Subscribe, renew or change plan: the four plan lengths as radio cards (a native radio group:
 * arrows move and choose, Tab leaves), each with its price per location per month, its discount
 * and what one period costs for the workspace's active locations (the contract's `periodPrice`,
 * so the figure is the one the invoice will carry). A refusal is said inside, in the reader's
 * words; on success the cards are fetched again before it closes.
 */
export function PlanDialog({
  application,
  event,
  activeLocations,
  onClose,
}: {
  application: DashboardApplication;
  event: PlanEvent;
  activeLocations: number;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const send = useSubscriptionEvent();
  const [plan, setPlan] = useState<PlanLength>(() => startingPlan(application));
  const [failure, setFailure] = useState<string | null>(null);
  const groupName = useId();
  const appName = pickLocalized(application.name, language);
  const { currency, monthlyPricePerLocation, discounts } = application.pricing;
  const percent = numberFormat(language, { style: 'percent', maximumFractionDigits: 2 });
  const number = numberFormat(language);
  // A workspace without an active location pays for one (the contract's rule): say so.
  const billedLocations = Math.max(1, activeLocations);
  const currentPlan = application.subscription?.status === 'approved' ? application.subscription.plan : null;
  const { formatDate } = useFormatters();
  const timeZone = useWorkspaceTimeZone() ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  const totalOf = (length: PlanLength) =>
    formatMoney(
      periodPrice({
        monthlyPricePerLocation,
        activeLocations,
        plan: length,
        discountBasisPoints: discounts[length],
      }),
      currency,
      language,
    );
  // When the chosen plan's invoice is issued: on the operator's approval for a request (at once with
  // a hosted checkout), else at the next period's start, from when a new plan's price applies.
  const nextStart = event === 'changePlan' ? nextPeriodStart(application, timeZone) : null;
  // With a hosted checkout a request's first invoice is issued at once, and its payment starts it.
  const payNow = usePaymentInstructions().data?.provider === 'stripe';
  const invoiceWhen =
    nextStart === null
      ? t(payNow ? 'applications.plans.invoiceOnPayment' : 'applications.plans.invoiceOnApproval', {
          amount: totalOf(plan),
        })
      : currentPlan === plan
        ? t('applications.plans.nextInvoiceOn', { amount: totalOf(plan), date: formatDate(nextStart) })
        : t('applications.plans.newPriceFrom', {
            plan: t(`resources.subscriptions.values.plan.${plan}`),
            date: formatDate(nextStart),
            amount: totalOf(plan),
            current: totalOf(currentPlan ?? plan),
          });

  const submit = async (formEvent: FormEvent) => {
    formEvent.preventDefault();
    setFailure(null);
    try {
      const summary = await send.mutateAsync({ applicationId: application.id, event, plan });
      // Renewing an expired subscription is a new request for the operator.
      const done = event === 'renew' && summary.status === 'pending' ? 'request' : event;
      toast.success(t(`applications.done.${done}`, { app: appName }));
      onClose();
    } catch (error) {
      // A refusal names its reason: `validation.SUBSCRIPTION_EVENT_REFUSED` nests `subscriptions.refusals.<reason>`.
      setFailure(describeApiError(error, t, language));
    }
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open && !send.isPending) onClose();
      }}
      title={t(`applications.plans.title.${event}`, { app: appName })}
      description={t(`applications.plans.description.${event}`)}
      size="lg"
    >
      <form noValidate onSubmit={(formEvent) => void submit(formEvent)} className={dialogFormClassName}>
        <DialogBody className="space-y-4">
          {failure && <Alert tone="error">{failure}</Alert>}
          <fieldset>
            <legend className="mb-2 text-sm font-semibold text-slate-700 dark:text-slate-200">
              {t('applications.plans.legend')}
            </legend>
            <div className="grid gap-3 sm:grid-cols-2">
              {planLengths.map((length) => {
                const discount = discounts[length];
                const perLocationMonth = periodPrice({
                  monthlyPricePerLocation,
                  activeLocations: 1,
                  plan: 'monthly',
                  discountBasisPoints: discount,
                });
                const total = periodPrice({
                  monthlyPricePerLocation,
                  activeLocations,
                  plan: length,
                  discountBasisPoints: discount,
                });
                const id = `${groupName}-${length}`;
                return (
                  <label
                    key={length}
                    htmlFor={id}
                    className={cn(
                      'relative flex cursor-pointer flex-col gap-1 rounded-xl border p-4 text-sm transition-colors has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-brand-600',
                      plan === length
                        ? 'border-brand-600 bg-brand-50/60 dark:border-brand-400 dark:bg-brand-500/10'
                        : 'border-slate-200 hover:border-slate-300 dark:border-slate-700 dark:hover:border-slate-600',
                    )}
                  >
                    <span className="flex items-center gap-2">
                      <input
                        id={id}
                        type="radio"
                        name={groupName}
                        value={length}
                        checked={plan === length}
                        onChange={() => setPlan(length)}
                        // Named by the plan alone; its discount and prices are its description.
                        aria-labelledby={`${id}-name`}
                        aria-describedby={discount > 0 ? `${id}-saving ${id}-price` : `${id}-price`}
                        className="size-4 accent-brand-600 dark:accent-brand-400"
                      />
                      <span id={`${id}-name`} className="font-semibold text-slate-900 dark:text-white">
                        {t(`resources.subscriptions.values.plan.${length}`)}
                      </span>
                      {discount > 0 && (
                        <span id={`${id}-saving`} className="ms-auto">
                          <Badge tone="success">
                            {t('applications.plans.save', { percent: percent.format(discount / 10_000) })}
                          </Badge>
                        </span>
                      )}
                      {currentPlan === length && (
                        <Badge className={discount > 0 ? undefined : 'ms-auto'}>
                          {t('applications.plans.current')}
                        </Badge>
                      )}
                    </span>
                    <span id={`${id}-price`} className="space-y-0.5 ps-6">
                      <span className="block text-slate-600 dark:text-slate-400">
                        {t('applications.price', {
                          price: formatMoney(perLocationMonth, currency, language),
                        })}
                      </span>
                      <span className="block">
                        <strong className="text-base font-semibold text-slate-900 tabular-nums dark:text-white">
                          {formatMoney(total, currency, language)}
                        </strong>{' '}
                        <span className="text-slate-600 dark:text-slate-400">
                          {t('applications.plans.forLocations', {
                            count: billedLocations,
                            locations: number.format(billedLocations),
                          })}
                        </span>
                      </span>
                    </span>
                  </label>
                );
              })}
            </div>
          </fieldset>
          {activeLocations === 0 && (
            <p className="text-sm text-slate-600 dark:text-slate-400">
              {t('applications.plans.noLocations')}
            </p>
          )}
          {/* Read again as the choice changes: the amount and its date are the chosen plan's. */}
          <p
            aria-live="polite"
            className="rounded-lg bg-slate-50 px-3 py-2.5 text-sm text-slate-700 dark:bg-slate-800/60 dark:text-slate-200"
          >
            {invoiceWhen}
          </p>
        </DialogBody>
        <DialogFooter>
          <Button variant="secondary" onClick={onClose} disabled={send.isPending}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={send.isPending}>
            {t(`applications.actions.${event}`)}
          </Button>
        </DialogFooter>
      </form>
    </Dialog>
  );
}
