import { type DuePayment, formatMoney, numberFormat, pickLocalized } from '@dukkan/contract';
import type { TFunction } from 'i18next';

/**
 * What an invoice waiting for its payment says, on the dashboard's card and the invoices page: its
 * number and amount, by when, and what follows an unpaid grace (dates in the workspace's time
 * zone, through `formatDate`). How to pay it follows, from the operator's instructions
 * (`components/how-to-pay.tsx`).
 */
export function duePaymentTexts(
  payment: DuePayment,
  { t, language, formatDate }: { t: TFunction; language: string; formatDate: (value: string) => string },
): string[] {
  const amount = formatMoney(payment.amount, payment.currency, language);
  const number = numberFormat(language, { useGrouping: false }).format(payment.number);
  const app = pickLocalized(payment.application, language);
  return [
    payment.dueBy
      ? t('payments.due.amountBy', { number, amount, date: formatDate(payment.dueBy) })
      : t('payments.due.amount', { number, amount }),
    payment.dueBy
      ? t('payments.due.afterGrace', { date: formatDate(payment.dueBy), app })
      : t('payments.due.noDeadline'),
  ];
}
