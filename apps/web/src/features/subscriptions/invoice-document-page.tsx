import {
  type InvoiceDocument,
  invoiceDocument,
  invoiceDocumentLanguage,
  type PaymentRecord,
  paymentsResource,
} from '@dukkan/contract';
import { useEffect, useState } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { EmptyState, LoadFailed, Page } from '../../components/page.tsx';
import { DownloadIcon, PrinterIcon } from '../../components/ui/action-icons.tsx';
import { Button, buttonClassName } from '../../components/ui/button.tsx';
import { LinkBrokenIcon } from '../../components/ui/icons.tsx';
import { isApiError } from '../../lib/api-client.ts';
import { describeApiError } from '../../lib/error-messages.ts';
import { useSelectedWorkspaceIfAny } from '../../lib/workspace-context.tsx';
import { useResourceRecord } from '../../resource-ui/use-resource.ts';
import { downloadInvoiceDocument, invoiceDocumentPath } from './invoice-actions.tsx';

/**
 * The document itself, as paper: light in either theme, as it prints. Its language and direction
 * are its own (`lang`, `dir`), whatever the page's.
 */
export function InvoiceDocumentView({ document }: { document: InvoiceDocument }) {
  const head = document.headers;
  return (
    <article
      lang={document.language}
      dir={document.dir}
      aria-labelledby="invoice-document-title"
      className="mx-auto max-w-3xl rounded-lg border border-slate-200 bg-white p-4 text-slate-900 shadow-sm sm:p-8 dark:border-slate-700 print:max-w-none print:border-0 print:p-0 print:shadow-none"
    >
      <header className="flex flex-wrap justify-between gap-4 border-b-2 border-brand-700 pb-4">
        <div>
          <h2 id="invoice-document-title" className="text-2xl font-bold">
            {document.title}
          </h2>
          <p className="font-bold text-brand-700">{document.issuer}</p>
        </div>
        <div>
          <p className="text-sm text-slate-600">{document.billedTo.label}</p>
          <p className="font-semibold" data-testid="invoice-billed-to">
            {document.billedTo.name}
          </p>
        </div>
      </header>
      <dl className="my-6 grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1">
        {document.facts.map((fact) => (
          <div key={fact.key} className="contents">
            <dt className="text-slate-600">{fact.label}</dt>
            <dd className="font-semibold">{fact.value}</dd>
          </div>
        ))}
      </dl>
      <table className="w-full border-collapse text-sm">
        <thead className="max-sm:sr-only">
          <tr className="border-b border-slate-200 text-slate-600">
            <th scope="col" className="py-2 pe-2 text-start font-semibold">
              {head.description}
            </th>
            <th scope="col" className="px-2 py-2 text-start font-semibold">
              {head.quantity}
            </th>
            <th scope="col" className="px-2 py-2 text-start font-semibold">
              {head.unitPrice}
            </th>
            <th scope="col" className="py-2 ps-2 text-end font-semibold">
              {head.amount}
            </th>
          </tr>
        </thead>
        <tbody>
          {document.lines.map((line) => (
            <tr
              key={line.description}
              className="border-b border-slate-200 align-top max-sm:grid max-sm:grid-cols-[1fr_auto] max-sm:gap-x-2 max-sm:py-2"
            >
              <td className="py-2 pe-2 max-sm:py-0">{line.description}</td>
              <td className="px-2 py-2 max-sm:col-start-1 max-sm:p-0 max-sm:text-slate-600">
                {line.quantity}
              </td>
              <td className="px-2 py-2 max-sm:col-start-1 max-sm:p-0 max-sm:text-slate-600">
                {line.unitPrice}
              </td>
              <td className="py-2 ps-2 text-end whitespace-nowrap max-sm:col-start-2 max-sm:row-start-1 max-sm:p-0">
                {line.amount}
              </td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr className="text-base font-bold">
            <th scope="row" colSpan={3} className="pt-3 pe-2 text-start max-sm:hidden">
              {document.total.label}
            </th>
            <td className="pt-3 ps-2 text-end whitespace-nowrap" data-testid="invoice-total">
              <span className="sm:hidden">{document.total.label} </span>
              {document.total.value}
            </td>
          </tr>
        </tfoot>
      </table>
      <p className="mt-6 text-sm text-slate-600">{document.footer}</p>
    </article>
  );
}

const otherLanguage = { en: 'ar', ar: 'en' } as const;

/**
 * `/payments/:id/document`: an issued invoice's document in the reader's language (`?lang=` for
 * the other), with Print (the browser's dialog; the shell is not printed) and Download (the
 * server's self-contained file). `?print=1` — the payments list's Print — opens the print dialog
 * once the document is shown.
 */
export function InvoiceDocumentPage() {
  const { t, i18n } = useTranslation();
  const { id } = useParams();
  const [search, setSearch] = useSearchParams();
  const workspace = useSelectedWorkspaceIfAny();
  const invoice = useResourceRecord(paymentsResource, id);
  const [downloading, setDownloading] = useState(false);
  const language = invoiceDocumentLanguage(search.get('lang') ?? i18n.language);
  const record = invoice.data as PaymentRecord | undefined;
  const document =
    record && workspace
      ? invoiceDocument({
          invoice: record,
          workspaceName: workspace.name,
          timeZone: workspace.timeZone,
          language,
        })
      : undefined;
  const printAsked = search.get('print') === '1';

  useEffect(() => {
    if (!printAsked || !document) return;
    // Once: a reload or the back button does not print again.
    setSearch(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('print');
        return next;
      },
      { replace: true },
    );
    window.print();
  }, [printAsked, document, setSearch]);

  // The page's own heading is in the reader's language, whatever the document's.
  const title =
    record && workspace
      ? invoiceDocument({
          invoice: record,
          workspaceName: workspace.name,
          timeZone: workspace.timeZone,
          language: i18n.language,
        }).title
      : t('nav.invoiceDocument');
  const back = (
    <Link to={`/${paymentsResource.path}`} className={buttonClassName('secondary', 'sm')}>
      {t('payments.document.back')}
    </Link>
  );

  if (!document) {
    const missing =
      invoice.isError &&
      isApiError(invoice.error) &&
      (invoice.error.code === 'NOT_FOUND' || invoice.error.code === 'VALIDATION');
    return (
      <Page title={title}>
        {missing ? (
          <EmptyState icon={<LinkBrokenIcon />} title={t('payments.document.notFound')}>
            <div className="mt-4">{back}</div>
          </EmptyState>
        ) : invoice.isError ? (
          <LoadFailed
            error={invoice.error}
            message={t('payments.document.failed')}
            onRetry={() => void invoice.refetch()}
          />
        ) : (
          <p role="status" className="text-sm text-slate-600 dark:text-slate-400">
            {t('common.loading')}
          </p>
        )}
      </Page>
    );
  }

  const other = otherLanguage[language];
  async function download() {
    setDownloading(true);
    try {
      await downloadInvoiceDocument(workspace!.id, record!.id, language);
    } catch (error) {
      toast.error(
        t('payments.document.downloadFailed', { reason: describeApiError(error, t, i18n.language) }),
      );
    } finally {
      setDownloading(false);
    }
  }

  return (
    <Page title={title}>
      <div className="mx-auto mb-4 flex max-w-3xl flex-wrap items-center gap-2 print:hidden">
        {back}
        <Link
          to={invoiceDocumentPath(record!.id, { lang: other })}
          replace
          hrefLang={other}
          className={buttonClassName('secondary', 'sm')}
        >
          {t(`payments.document.in.${other}`)}
        </Link>
        <div className="ms-auto flex gap-2">
          <Button variant="secondary" size="sm" onClick={() => window.print()}>
            <PrinterIcon className="size-4" />
            {t('payments.document.print')}
          </Button>
          <Button
            variant="primary"
            size="sm"
            onClick={() => void download()}
            disabled={downloading}
            aria-busy={downloading}
          >
            <DownloadIcon className="size-4" />
            {t('payments.document.download')}
          </Button>
        </div>
      </div>
      <InvoiceDocumentView document={document} />
    </Page>
  );
}
