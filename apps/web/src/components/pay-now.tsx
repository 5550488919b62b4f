import {
  type CheckoutStarted,
  type DuePayment,
  formatMoney,
  numberFormat,
  paymentsResource,
  tagFor,
} from '@dukkan/contract';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apiRequest } from '../lib/api-client.ts';
import { cn } from '../lib/class-names.ts';
import { describeApiError } from '../lib/error-messages.ts';
import { usePermissionCheck, useSelectedWorkspaceIfAny } from '../lib/workspace-context.tsx';
import { Alert } from './ui/alert.tsx';
import { Button } from './ui/button.tsx';

/** Where the browser goes: the provider's checkout page (replaced in the web's tests). */
export const checkoutNavigation = { open: (url: string) => window.location.assign(url) };

/**
 * "Pay now" on an invoice waiting for its payment, when the platform takes payments through a
 * hosted checkout (PAYMENT_PROVIDER=stripe): asks the server for a checkout of the invoice
 * (`POST payments/:invoiceId/checkout`) and sends the browser to the provider's page, which comes
 * back to /payments. The button says it is opening the page meanwhile; a refusal (the invoice
 * no longer pending, the provider unreachable) is said in the reader's language. A member without
 * the edit permission of payments is told who can pay.
 */
export function PayNow({ payment, className }: { payment: DuePayment; className?: string }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const workspaceId = useSelectedWorkspaceIfAny()?.id ?? '';
  const may = usePermissionCheck()({ and: [tagFor(paymentsResource, 'update')] });
  const number = numberFormat(language, { useGrouping: false }).format(payment.number);
  const checkout = useMutation({
    mutationFn: () =>
      apiRequest<CheckoutStarted>(`/${paymentsResource.path}/${payment.invoiceId}/checkout`, {
        method: 'POST',
        query: { workspaceId },
      }),
    onSuccess: ({ url }) => checkoutNavigation.open(url),
  });
  if (!may) return <p className={className}>{t('payments.payNow.askAdmin', { number })}</p>;
  // Opening: from the click until the provider's page replaces this one.
  const opening = checkout.isPending || checkout.isSuccess;
  return (
    <div className={cn('rounded-md border border-slate-200 p-3 dark:border-slate-700', className)}>
      <p className="font-medium text-slate-900 dark:text-white">{t('payments.payNow.title', { number })}</p>
      <p className="mt-1 text-slate-600 dark:text-slate-400">{t('payments.payNow.hint')}</p>
      <Button
        className="mt-2"
        size="sm"
        disabled={opening}
        aria-busy={opening}
        onClick={() => checkout.mutate()}
      >
        {opening
          ? t('payments.payNow.opening')
          : t('payments.payNow.button', { amount: formatMoney(payment.amount, payment.currency, language) })}
      </Button>
      {checkout.isError && (
        <Alert tone="error" className="mt-2">
          {describeApiError(checkout.error, t, language)}
        </Alert>
      )}
    </div>
  );
}
