import { type PaymentRecord, paymentsResource } from '@dukkan/contract';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { DocumentIcon, DownloadIcon, PrinterIcon } from '../../components/ui/action-icons.tsx';
import { apiDownload } from '../../lib/api-client.ts';
import { describeApiError } from '../../lib/error-messages.ts';
import type { RowAction } from '../../resource-ui/columns.ts';
import { saveFile } from '../../resource-ui/export-menu.tsx';
import { useResourceAccess } from '../../resource-ui/use-resource.ts';

/** The address of an invoice's document page; `print` opens the browser's print dialog on it. */
export function invoiceDocumentPath(id: string, options: { lang?: string; print?: boolean } = {}): string {
  const query = new URLSearchParams();
  if (options.lang) query.set('lang', options.lang);
  if (options.print) query.set('print', '1');
  const search = query.toString();
  return `/${paymentsResource.path}/${encodeURIComponent(id)}/document${search ? `?${search}` : ''}`;
}

/**
 * Saves an invoice's document as the server writes it (`GET payments/:id/document`): one HTML
 * file with its styles inside, in `language`, to keep or send on.
 */
export async function downloadInvoiceDocument(workspaceId: string, id: string, language: string) {
  const file = await apiDownload(`/${paymentsResource.path}/${encodeURIComponent(id)}/document`, {
    query: { workspaceId, lang: language },
    language,
  });
  saveFile(file.blob, file.fileName);
}

/**
 * The row actions of an issued invoice on the payments page: view its document, print it, and
 * download it, in the reader's language (the document page offers the other). For whoever may
 * read the invoice, as the server's document is.
 */
export function useInvoiceActions(): ((record: PaymentRecord) => RowAction[]) | undefined {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { workspaceId, allows } = useResourceAccess(paymentsResource);
  if (!workspaceId || !allows('get')) return undefined;
  return (record) => [
    {
      key: 'view-document',
      label: t('payments.document.view'),
      icon: <DocumentIcon className="size-4" />,
      onSelect: () => navigate(invoiceDocumentPath(record.id)),
    },
    {
      key: 'print-document',
      label: t('payments.document.print'),
      icon: <PrinterIcon className="size-4" />,
      onSelect: () => navigate(invoiceDocumentPath(record.id, { print: true })),
    },
    {
      key: 'download-document',
      label: t('payments.document.download'),
      icon: <DownloadIcon className="size-4" />,
      onSelect: () => {
        downloadInvoiceDocument(workspaceId, record.id, i18n.language).catch((error: unknown) =>
          toast.error(
            t('payments.document.downloadFailed', { reason: describeApiError(error, t, i18n.language) }),
          ),
        );
      },
    },
  ];
}
