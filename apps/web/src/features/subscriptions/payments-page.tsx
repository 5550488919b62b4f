import {
  dateTimeFormat,
  type InvoiceDetails,
  numberFormat,
  type PaymentRecord,
  type PaymentStatus,
  paymentsResource,
  pickLocalized,
  type UpcomingPayment,
} from '@dukkan/contract';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { queryKeys } from '../../lib/query-keys.ts';
import { useWorkspaceTimeZone } from '../../lib/use-formatters.ts';
import type { ResourceColumn } from '../../resource-ui/columns.ts';
import { fieldText, useDeclaredColumns } from '../../resource-ui/declared-columns.tsx';
import { ResourceScreen } from '../../resource-ui/resource-screen.tsx';
import { ResourceTable } from '../../resource-ui/resource-table.tsx';
import { useResourceAccess } from '../../resource-ui/use-resource.ts';
import { CheckoutReturnNotice } from './checkout-return.tsx';
import { DueInvoices } from './due-invoices.tsx';
import { useInvoiceActions } from './invoice-actions.tsx';
import { useUpcomingInvoices } from './use-upcoming-invoices.ts';

/** An invoice as a row: an issued one, or an upcoming one (no number yet, status `upcoming`). */
type InvoiceRow = Omit<PaymentRecord, 'number' | 'status'> & { number: number | null; status: PaymentStatus };

/** "Demo app · Quarterly · Jan 1 – Mar 31, 2027", in the reader's language. */
function InvoiceDetailsText({ details }: { details: InvoiceDetails }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  // The period's days are the workspace's, as its mails say them.
  const timeZone = useWorkspaceTimeZone();
  const period = dateTimeFormat(language, {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    ...(timeZone ? { timeZone } : {}),
  }).formatRange(new Date(details.periodStart), new Date(details.periodEnd));
  return (
    // Wrapped, in a table row as on a card: on one line it made the invoices table wider than a
    // 1280 px page, and the pinned actions column covered the last columns.
    <span>
      {t('payments.details', {
        application: pickLocalized(details.application, language),
        plan: t(`resources.subscriptions.values.plan.${details.plan}`),
        period,
      })}
    </span>
  );
}

/**
 * The declared columns with the invoice's details after its date (no column kind shows an object),
 * and its payment status taken as the row's status: the table shows it right after the number,
 * never under the pinned actions, and a card beside the number.
 */
function useInvoiceColumns(): ResourceColumn<InvoiceRow>[] {
  const { t } = useTranslation();
  // The declared cells read fields by name and show '—' for a missing number: one set of columns serves both tables.
  const declared = useDeclaredColumns<InvoiceRow>(paymentsResource).map((column) =>
    column.key === 'status' ? { ...column, status: true, className: 'whitespace-nowrap' } : column,
  );
  const details: ResourceColumn<InvoiceRow> = {
    key: 'details',
    header: fieldText(t, paymentsResource.key, 'details'),
    // Room for "Demo app · Quarterly · Jan 1 – Mar 31, 2027" on two lines at most.
    className: 'min-w-56',
    cell: (row) => <InvoiceDetailsText details={row.details} />,
  };
  const at = declared.findIndex((column) => column.key === 'issuedAt') + 1;
  return [...declared.slice(0, at), details, ...declared.slice(at)];
}

const upcomingRow = (payment: UpcomingPayment): InvoiceRow => ({
  id: `upcoming-${payment.subscriptionId}`,
  number: null,
  subscriptionId: payment.subscriptionId,
  issuedAt: payment.dueAt,
  details: payment.details,
  amount: payment.amount,
  currency: payment.currency,
  status: payment.status,
  createdAt: payment.dueAt,
  updatedAt: payment.dueAt,
});

/**
 * The next invoice of each renewing subscription (`GET payments/upcoming`), above the issued
 * ones: the same columns, dated when it will be issued, with no number and status Upcoming.
 */
function UpcomingInvoices({ columns }: { columns: ResourceColumn<InvoiceRow>[] }) {
  const { t, i18n } = useTranslation();
  const { workspaceId, allows } = useResourceAccess(paymentsResource);
  const upcoming = useUpcomingInvoices(
    queryKeys.resource(workspaceId ?? '', paymentsResource.key),
    workspaceId,
    allows('list'),
  );
  if (upcoming.isError)
    return (
      <Alert tone="error" className="flex flex-wrap items-center justify-between gap-2">
        {t('payments.upcomingFailed')}
        <Button variant="secondary" size="sm" onClick={() => void upcoming.refetch()}>
          {t('common.retry')}
        </Button>
      </Alert>
    );
  if (!upcoming.data || upcoming.data.data.length === 0) return null;
  const title = t('payments.upcomingTitle');
  const { graceDays } = upcoming.data.meta;
  return (
    <>
      <section aria-labelledby="upcoming-invoices-title" className="space-y-2">
        <div>
          <h2 id="upcoming-invoices-title" className="text-base font-semibold text-slate-900 dark:text-white">
            {title}
          </h2>
          <p className="text-sm text-slate-600 dark:text-slate-400">
            {graceDays > 0
              ? t('payments.upcomingGrace', {
                  count: graceDays,
                  n: numberFormat(i18n.language).format(graceDays),
                })
              : t('payments.upcomingNoGrace')}
          </p>
        </div>
        <Card className="overflow-hidden">
          <ResourceTable
            caption={title}
            columns={columns.map(({ sortField: _unsorted, ...column }) => column)}
            records={upcoming.data.data.map(upcomingRow)}
            sort=""
            onSort={() => undefined}
            recordLabel={(row) => pickLocalized(row.details.application, i18n.language)}
          />
        </Card>
      </section>
      <h2 className="pt-2 text-base font-semibold text-slate-900 dark:text-white">
        {t('payments.issuedTitle')}
      </h2>
    </>
  );
}

/**
 * `/payments`: the workspace's invoices on the generic list of the read-only `payments`
 * resource (its status filter, sorting and pages), those waiting for payment and the upcoming ones
 * above them.
 */
export function PaymentsPage() {
  const { t } = useTranslation();
  const columns = useInvoiceColumns();
  const invoiceActions = useInvoiceActions();
  return (
    <ResourceScreen
      definition={paymentsResource}
      title={t('nav.payments')}
      arrangeColumns={() => columns}
      extraActions={invoiceActions}
      intro={
        <>
          <CheckoutReturnNotice />
          <DueInvoices />
          <UpcomingInvoices columns={columns} />
        </>
      }
    />
  );
}
