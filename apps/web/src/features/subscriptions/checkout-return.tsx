import { paymentsResource } from '@dukkan/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { queryKeys } from '../../lib/query-keys.ts';
import { useResourceAccess } from '../../resource-ui/use-resource.ts';

/** How the hosted checkout sends the payer back (`checkout-routes.ts`: its success and cancel addresses). */
type CheckoutReturn = 'paid' | 'cancelled';

const returns: readonly string[] = ['paid', 'cancelled'] satisfies CheckoutReturn[];

/**
 * After a paid checkout, the invoices are read again this often, this many times (a minute): the
 * provider's webhook may arrive after the payer is back, and the invoice then turns Successful
 * (and leaves Waiting for payment) without a reload.
 */
export const confirmationPoll = { everyMs: 5_000, times: 12 };

/**
 * The word on /payments for a payer the hosted checkout sent back (`?checkout=paid` or
 * `?checkout=cancelled`): paid, that the provider is confirming the payment and the invoice (and a
 * requested subscription) follow when it has; cancelled, that nothing was charged and Pay now is
 * still there. Read once: the parameter leaves the address at once (replacing the history entry),
 * so a reload or a shared link does not say it again. A polite status, dismissible. While a paid
 * one is shown, the invoices are read again for a minute (`confirmationPoll`).
 */
export function CheckoutReturnNotice() {
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const given = search.get('checkout');
  const [shown, setShown] = useState<CheckoutReturn | null>(
    given && returns.includes(given) ? (given as CheckoutReturn) : null,
  );
  const queryClient = useQueryClient();
  const { workspaceId } = useResourceAccess(paymentsResource);
  useEffect(() => {
    if (shown !== 'paid' || !workspaceId) return;
    let left = confirmationPoll.times;
    const timer = setInterval(() => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.resource(workspaceId, paymentsResource.key) });
      left -= 1;
      if (left === 0) clearInterval(timer);
    }, confirmationPoll.everyMs);
    return () => clearInterval(timer);
  }, [shown, workspaceId, queryClient]);
  useEffect(() => {
    if (given === null) return;
    if (returns.includes(given)) setShown(given as CheckoutReturn);
    setSearch(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('checkout');
        return next;
      },
      { replace: true },
    );
  }, [given, setSearch]);
  if (!shown) return null;
  return (
    <Alert
      tone={shown === 'paid' ? 'success' : 'info'}
      className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2"
    >
      <div className="min-w-0 flex-1 space-y-0.5">
        <p className="font-semibold">{t(`payments.checkoutReturn.${shown}Title`)}</p>
        <p>{t(`payments.checkoutReturn.${shown}`)}</p>
      </div>
      <Button variant="secondary" size="sm" onClick={() => setShown(null)}>
        {t('payments.checkoutReturn.dismiss')}
      </Button>
    </Alert>
  );
}
