import {
  type DuePayment,
  formatMoney,
  numberFormat,
  type PaymentInstructions,
  paymentsResource,
  pickLocalized,
} from '@dukkan/contract';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { apiRequest } from '../lib/api-client.ts';
import { cn } from '../lib/class-names.ts';
import { queryKeys } from '../lib/query-keys.ts';
import { useSelectedWorkspaceIfAny } from '../lib/workspace-context.tsx';
import { PayNow } from './pay-now.tsx';

/** The operator's payment instructions for the selected workspace (`GET payments/instructions`). */
export function usePaymentInstructions() {
  const workspaceId = useSelectedWorkspaceIfAny()?.id ?? '';
  return useQuery({
    queryKey: queryKeys.paymentInstructions(workspaceId),
    queryFn: ({ signal }) =>
      apiRequest<PaymentInstructions>(`/${paymentsResource.path}/instructions`, {
        query: { workspaceId },
        signal,
      }),
    enabled: workspaceId !== '',
    staleTime: 5 * 60_000,
  });
}

/**
 * How to pay an invoice waiting for its payment, on the invoices page and the dashboard's card:
 * "Pay now" when the platform takes payments through a hosted checkout (`PayNow`), else the
 * operator's bank account in the reader's language (else the other), with the invoice's number as
 * the transfer's reference and its amount; with no instructions set (or unreadable), a line saying
 * to contact the operator. The account and the reference are isolated left-to-right, so an Arabic
 * page shows them as they are typed.
 */
export function HowToPay({ payment, className }: { payment: DuePayment; className?: string }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const instructions = usePaymentInstructions();
  if (instructions.isPending) return null;
  // A hosted checkout: "Pay now" instead of the bank's account.
  if (instructions.data?.provider === 'stripe') return <PayNow payment={payment} className={className} />;
  const bank = instructions.data?.bankTransfer;
  // The number as the page says it (Arabic-Indic digits in Arabic); the reference as it is typed.
  const number = numberFormat(language, { useGrouping: false }).format(payment.number);
  const reference = String(payment.number);
  if (!bank) return <p className={className}>{t('payments.howToPay.contactOperator', { number })}</p>;
  const notes = bank.notes.length > 0 ? pickLocalized(bank.notes, language) : null;
  const rows: [label: string, value: ReactNode][] = [
    [
      t('payments.howToPay.accountHolder'),
      <bdi key="holder">{pickLocalized(bank.accountHolder, language)}</bdi>,
    ],
    [t('payments.howToPay.bank'), <bdi key="bank">{pickLocalized(bank.bank, language)}</bdi>],
    [
      t('payments.howToPay.account'),
      <bdi key="account" dir="ltr" className="inline-block font-mono [overflow-wrap:anywhere]">
        {bank.account}
      </bdi>,
    ],
    [
      t('payments.howToPay.reference'),
      <bdi key="reference" dir="ltr" className="font-mono">
        {reference}
      </bdi>,
    ],
    [
      t('payments.howToPay.amount'),
      <bdi key="amount" className="whitespace-nowrap">
        {formatMoney(payment.amount, payment.currency, language)}
      </bdi>,
    ],
  ];
  return (
    <div className={cn('rounded-md border border-slate-200 p-3 dark:border-slate-700', className)}>
      <p className="font-medium text-slate-900 dark:text-white">{t('payments.howToPay.title', { number })}</p>
      <dl className="mt-1 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-0.5">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-slate-600 dark:text-slate-400">{label}</dt>
            <dd className="text-slate-900 dark:text-slate-100">{value}</dd>
          </div>
        ))}
      </dl>
      {notes && <p className="mt-2 whitespace-pre-line text-slate-700 dark:text-slate-300">{notes}</p>}
      <p className="mt-2 text-slate-600 dark:text-slate-400">{t('payments.howToPay.afterTransfer')}</p>
    </div>
  );
}
