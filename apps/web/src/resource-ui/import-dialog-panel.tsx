import { clearCellMarkers, type ImportReport, type ResourceDefinition } from '@dukkan/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../components/ui/alert.tsx';
import { Button } from '../components/ui/button.tsx';
import { Dialog, DialogBody, DialogCancel, DialogFooter } from '../components/ui/dialog.tsx';
import { apiDownload, apiUpload, isApiError } from '../lib/api-client.ts';
import { saveFile } from './export-menu.tsx';

/** How many of a report's errors the table shows. */
const errorsShown = 100;

type LooseTranslate = (key: string, values?: Record<string, unknown>) => string;

/** The import dialog itself, in a chunk of its own (see `import-dialog.tsx`). */
export function ImportDialog({
  definition,
  workspaceId,
  onClose,
}: {
  definition: Pick<ResourceDefinition, 'key' | 'path'>;
  workspaceId: string;
  onClose: () => void;
}) {
  const { t: typed, i18n } = useTranslation();
  const t = typed as unknown as LooseTranslate;
  const queryClient = useQueryClient();
  const inputId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [report, setReport] = useState<ImportReport | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [busy, setBusy] = useState<'check' | 'import' | null>(null);

  /** A validation code in the reader's language, with its params; unknown codes as they came. */
  const message = (code: string, params?: Record<string, unknown>) =>
    i18n.exists(`validation.${code}`) ? t(`validation.${code}`, params) : code;

  async function send(dryRun: boolean) {
    if (!file) return;
    setBusy(dryRun ? 'check' : 'import');
    setRefusal(null);
    try {
      const answer = await apiUpload<ImportReport>(`/${definition.path}/import`, 'file', [file], {
        workspaceId,
        dryRun: String(dryRun),
      });
      setReport(answer);
      if (answer.committed) await queryClient.invalidateQueries({ queryKey: [workspaceId, definition.key] });
    } catch (error) {
      setReport(null);
      const issue = isApiError(error) ? error.body?.issues?.[0] : undefined;
      setRefusal(issue ? message(issue.message, issue.params) : t('resourceList.import.failed'));
    } finally {
      setBusy(null);
    }
  }

  async function template(format: 'csv' | 'xlsx') {
    try {
      const answer = await apiDownload(`/${definition.path}/import-template`, {
        query: { workspaceId, format },
        language: i18n.language,
      });
      saveFile(answer.blob, answer.fileName);
    } catch {
      setRefusal(t('resourceList.import.failed'));
    }
  }

  const checked = report && !report.dryRun ? null : report;
  const done = report?.committed ? report : null;
  const changes = checked ? checked.counts.create + checked.counts.update : 0;

  return (
    <Dialog
      open
      onOpenChange={(next) => !next && onClose()}
      title={t('resourceList.import.title')}
      description={t('resourceList.import.intro', {
        marker: clearCellMarkers[i18n.language === 'ar' ? 1 : 0],
      })}
      size="lg"
    >
      <DialogBody className="space-y-4">
        <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
          <span>{t('resourceList.import.template')}</span>
          <Button variant="ghost" size="sm" onClick={() => void template('csv')}>
            {t('resourceList.exportCsv')}
          </Button>
          <Button variant="ghost" size="sm" onClick={() => void template('xlsx')}>
            {t('resourceList.exportXlsx')}
          </Button>
        </p>
        <div className="space-y-1.5">
          <label htmlFor={inputId} className="block text-sm font-medium">
            {t('resourceList.import.file')}
          </label>
          <input
            id={inputId}
            type="file"
            accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            onChange={(event) => {
              setFile(event.target.files?.[0] ?? null);
              setReport(null);
              setRefusal(null);
            }}
            className="block w-full text-sm file:me-3 file:rounded-lg file:border-0 file:bg-slate-100 file:px-3 file:py-2 file:font-semibold dark:file:bg-slate-800 dark:file:text-slate-200"
          />
        </div>
        {refusal && <Alert tone="error">{refusal}</Alert>}
        {done && (
          <Alert tone="success">
            {t('resourceList.import.done', { create: done.counts.create, update: done.counts.update })}
          </Alert>
        )}
        {checked && (
          <div className="space-y-3" role="status">
            <p className="text-sm">
              {t('resourceList.import.counts', {
                rows: checked.rows,
                create: checked.counts.create,
                update: checked.counts.update,
                unchanged: checked.counts.unchanged,
              })}
            </p>
            {checked.errors.length > 0 && (
              <>
                <p className="text-sm font-semibold text-red-700 dark:text-red-400">
                  {t('resourceList.import.errors', { number: checked.errors.length })}
                </p>
                <div className="max-h-72 overflow-auto rounded-lg border border-slate-200 dark:border-slate-700">
                  <table className="w-full text-start text-sm">
                    <caption className="sr-only">{t('resourceList.import.errorsCaption')}</caption>
                    <thead className="sticky top-0 bg-slate-50 dark:bg-slate-800">
                      <tr>
                        <th scope="col" className="px-3 py-2 text-start font-semibold">
                          {t('resourceList.import.row')}
                        </th>
                        <th scope="col" className="px-3 py-2 text-start font-semibold">
                          {t('resourceList.import.column')}
                        </th>
                        <th scope="col" className="px-3 py-2 text-start font-semibold">
                          {t('resourceList.import.message')}
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {checked.errors.slice(0, errorsShown).map((error, index) => (
                        <tr
                          // Errors are a fixed list for this report: their order is their identity.
                          // biome-ignore lint/suspicious/noArrayIndexKey: see above
                          key={index}
                          className="border-t border-slate-200 dark:border-slate-700"
                        >
                          <td className="px-3 py-2 tabular-nums">{error.row}</td>
                          <td className="px-3 py-2">{error.column ?? ''}</td>
                          <td className="px-3 py-2">{message(error.code, error.params)}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
                {checked.errors.length > errorsShown && (
                  <p className="text-sm">
                    {t('resourceList.import.moreErrors', { number: checked.errors.length - errorsShown })}
                  </p>
                )}
              </>
            )}
          </div>
        )}
      </DialogBody>
      <DialogFooter>
        <DialogCancel>{done ? t('resourceList.import.close') : undefined}</DialogCancel>
        {!done && (
          <Button
            variant="secondary"
            disabled={!file}
            loading={busy === 'check'}
            onClick={() => void send(true)}
          >
            {t('resourceList.import.check')}
          </Button>
        )}
        {!done && (
          <Button
            disabled={!checked || checked.errors.length > 0 || changes === 0}
            loading={busy === 'import'}
            onClick={() => void send(false)}
          >
            {t('resourceList.import.commit')}
          </Button>
        )}
      </DialogFooter>
    </Dialog>
  );
}
