import {
  formatMoney,
  locationsResource,
  type NextInvoiceChange,
  nextInvoiceChange,
  numberFormat,
  pickLocalized,
  type UpcomingPayment,
} from '@dukkan/contract';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../components/ui/alert.tsx';
import { queryKeys } from '../../lib/query-keys.ts';
import { useFormatters } from '../../lib/use-formatters.ts';
import type { NoticedOperation, OperationNoticeOf } from '../../resource-ui/operation-notice.ts';
import { useResourceAccess } from '../../resource-ui/use-resource.ts';
import { useUpcomingInvoices } from './use-upcoming-invoices.ts';

/**
 * How an operation changes the workspace's active locations: a location is created active;
 * enabling adds one, disabling or deleting an active one takes one away.
 */
export function activeLocationChange(operation: NoticedOperation): number {
  switch (operation.kind) {
    case 'create':
      return 1;
    case 'setStatus':
      if (operation.record.status === operation.status) return 0;
      return operation.status === 'active' ? 1 : -1;
    case 'delete':
      return operation.record.status === 'active' ? -1 : 0;
  }
}

/** The next invoices a change of `change` active locations moves, each before and after (the contract's pricing). */
export function changedInvoices(
  upcoming: readonly UpcomingPayment[],
  activeLocations: number,
  change: number,
): { invoice: UpcomingPayment; change: NextInvoiceChange }[] {
  if (change === 0) return [];
  return upcoming
    .map((invoice) => ({
      invoice,
      change: nextInvoiceChange(
        {
          monthlyPricePerLocation: invoice.details.monthlyPricePerLocation,
          plan: invoice.details.plan,
          discountBasisPoints: invoice.details.discountBasisPoints,
        },
        activeLocations,
        change,
      ),
    }))
    .filter(({ change: { before, after } }) => before !== after);
}

/**
 * The locations' declared hook (`app/operation-notices.ts`): in a workspace with a paid
 * subscription that renews — in its grace too, where it names the invoice due that must be paid
 * first (a subscription that ended or is ending has no next invoice) — creating, enabling, disabling or deleting a location says in its
 * dialog how the next invoice of each changes — the amount the invoice will be issued with, by
 * the contract's `nextInvoiceChange`. Fetched for whoever may change locations; cached under the
 * locations, so each change fetches the count again.
 */
export function useLocationInvoiceNotice(): OperationNoticeOf {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const { formatDate } = useFormatters();
  const { workspaceId, allows } = useResourceAccess(locationsResource);
  const mayChange = allows('create') || allows('update') || allows('delete');
  const upcoming = useUpcomingInvoices(
    queryKeys.resource(workspaceId ?? '', locationsResource.key),
    workspaceId,
    mayChange,
  );
  return (operation) => {
    const data = upcoming.data;
    if (!data) return null;
    const changed = changedInvoices(data.data, data.meta.activeLocations, activeLocationChange(operation));
    if (changed.length === 0) return null;
    return (
      <Alert className="mt-3 space-y-1">
        <p className="font-semibold">{t('locationInvoice.title')}</p>
        {changed.map(({ invoice, change }) => (
          <p key={invoice.subscriptionId}>
            {t(invoice.afterInvoice === undefined ? 'locationInvoice.line' : 'locationInvoice.lineAfterDue', {
              app: pickLocalized(invoice.details.application, language),
              date: formatDate(invoice.dueAt),
              before: formatMoney(change.before, invoice.currency, language),
              after: formatMoney(change.after, invoice.currency, language),
              // In its grace: the invoice after the one due, issued only if that one is paid.
              number: numberFormat(language, { useGrouping: false }).format(invoice.afterInvoice ?? 0),
            })}
          </p>
        ))}
      </Alert>
    );
  };
}
