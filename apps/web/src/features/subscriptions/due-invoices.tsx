import { type DuePayment, paymentsResource, pickLocalized } from '@dukkan/contract';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { HowToPay } from '../../components/how-to-pay.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { apiRequest } from '../../lib/api-client.ts';
import { duePaymentTexts } from '../../lib/due-payment-texts.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { useFormatters } from '../../lib/use-formatters.ts';
import { useResourceAccess } from '../../resource-ui/use-resource.ts';

/**
 * The invoices waiting for their payment (`GET payments/due`), above the lists: each says its
 * amount, by when it must be paid, what follows if it is not and how to pay it (the operator's
 * bank transfer) — the dashboard's card says the same.
 */
export function DueInvoices() {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const { formatDate } = useFormatters();
  const { workspaceId, allows } = useResourceAccess(paymentsResource);
  const due = useQuery({
    queryKey: [...queryKeys.resource(workspaceId ?? '', paymentsResource.key), 'due'],
    queryFn: ({ signal }) => apiRequest<DuePayment[]>('/payments/due', { query: { workspaceId }, signal }),
    enabled: allows('list'),
  });
  if (due.isError)
    return (
      <Alert tone="error" className="flex flex-wrap items-center justify-between gap-2">
        {t('payments.due.failed')}
        <Button variant="secondary" size="sm" onClick={() => void due.refetch()}>
          {t('common.retry')}
        </Button>
      </Alert>
    );
  if (!due.data || due.data.length === 0) return null;
  return (
    <section aria-labelledby="due-invoices-title" className="space-y-2">
      <h2 id="due-invoices-title" className="text-base font-semibold text-slate-900 dark:text-white">
        {t('payments.due.title')}
      </h2>
      <ul className="grid gap-3 md:grid-cols-2">
        {due.data.map((payment) => {
          const [amount, ...rest] = duePaymentTexts(payment, { t, language, formatDate });
          return (
            <li key={payment.invoiceId}>
              <Card
                className={
                  payment.dueBy
                    ? 'h-full border-red-200 p-4 text-sm dark:border-red-900/60'
                    : 'h-full p-4 text-sm'
                }
              >
                <p className="font-semibold text-slate-900 dark:text-white">
                  {pickLocalized(payment.application, language)}
                </p>
                <p className="mt-1 text-slate-800 dark:text-slate-200">{amount}</p>
                {rest.map((line) => (
                  <p key={line} className="mt-1 text-slate-600 dark:text-slate-400">
                    {line}
                  </p>
                ))}
                <HowToPay payment={payment} className="mt-2 text-slate-600 dark:text-slate-400" />
              </Card>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
