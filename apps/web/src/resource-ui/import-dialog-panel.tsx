import {
  clearCellMarkers,
  type ImportJob,
  type ImportJobEvent,
  type ImportMapping,
  type ImportPreview,
  type ImportReport,
  importJobEnded,
  importJobEventName,
  importMappingField,
  type ResourceDefinition,
} from '@dukkan/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../components/ui/alert.tsx';
import { Button } from '../components/ui/button.tsx';
import { Dialog, DialogBody, DialogCancel, DialogFooter } from '../components/ui/dialog.tsx';
import { apiDownload, apiEventSource, apiRequest, apiUpload, isApiError } from '../lib/api-client.ts';
import { saveFile } from './export-menu.tsx';
import { ImportPreviewTable } from './import-preview.tsx';

/** How many of a report's errors the table shows. */
const errorsShown = 100;
/** How often a running import's job is asked for (its progress is written as often). */
export const importPollMs = 1000;

type LooseTranslate = (key: string, values?: Record<string, unknown>) => string;

/** How far a job has gone: a later status, then more rows done in the same one. */
const jobStage = { queued: 0, running: 1, done: 2, failed: 2, cancelled: 2 } as const;
type JobPlace = Pick<ImportJob, 'status' | 'rowsDone'>;
const isAhead = (one: JobPlace, other: JobPlace) =>
  jobStage[one.status] > jobStage[other.status] ||
  (one.status === other.status && one.rowsDone > other.rowsDone);

/**
 * The job as last polled, moved on by its furthest streamed event when that one is further
 * along (decision 0052): the stream and the poll each may be ahead of the other.
 */
function latestJob(job: ImportJob, event: ImportJobEvent | undefined): ImportJob {
  if (!event || event.jobId !== job.id || !isAhead(event, job)) return job;
  return { ...job, status: event.status, rowsDone: event.rowsDone, rowsTotal: event.rowsTotal };
}

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
  // The file's first rows and the column each header fills (decision 0046): proposed by the
  // server from the headers' names, corrected here, sent with the check and the import.
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [mapping, setMapping] = useState<{ file: File; value: ImportMapping } | null>(null);

  /** A validation code in the reader's language, with its params; unknown codes as they came. */
  const message = (code: string, params?: Record<string, unknown>) => {
    if (i18n.exists(`validation.${code}`)) return t(`validation.${code}`, params);
    // The mapping's codes are said only here: they are in the signed-in texts.
    if (i18n.exists(`resourceList.import.mapping.${code}`))
      return t(`resourceList.import.mapping.${code}`, params);
    return code;
  };

  // Asked again in another language for the columns' names; the member's choices are kept.
  // biome-ignore lint/correctness/useExhaustiveDependencies: one preview per file and language
  useEffect(() => {
    setPreview(null);
    if (!file) return;
    let live = true;
    apiUpload<ImportPreview>(`/${definition.path}/import/preview`, 'file', [file], { workspaceId }, 'POST', {
      language: i18n.language,
    })
      .then((read) => {
        if (!live) return;
        setPreview(read);
        // The member's choices so far stay for the headers this file shares (a file picked again).
        setMapping((kept) => ({
          file,
          value: {
            ...read.mapping,
            ...Object.fromEntries(
              Object.entries(kept?.value ?? {}).filter(([header]) => Object.hasOwn(read.mapping, header)),
            ),
          },
        }));
      })
      .catch((error: unknown) => {
        if (!live) return;
        const issue = isApiError(error) ? error.body?.issues?.[0] : undefined;
        setRefusal(issue ? message(issue.message, issue.params) : t('resourceList.import.failed'));
      });
    return () => {
      live = false;
    };
  }, [file, i18n.language]);

  // The import is a job (decision 0042): sent, then asked for every second until it ends. A
  // member who comes back finds the list's running job again, and the last one's end.
  const [job, setJob] = useState<ImportJob | null>(null);
  const [last, setLast] = useState<ImportJob | null>(null);
  const jobPath = (id: string) => `/${definition.path}/import-jobs/${id}`;

  function settle(ended: ImportJob) {
    setJob(null);
    setBusy(null);
    if (ended.status === 'done' && ended.report) {
      setReport(ended.report);
      if (ended.report.committed)
        void queryClient.invalidateQueries({ queryKey: [workspaceId, definition.key] });
    } else if (ended.status === 'cancelled') {
      setRefusal(t('resourceList.import.cancelled'));
    } else {
      const issue = ended.error?.issues?.[0];
      setRefusal(issue ? message(issue.message, issue.params) : t('resourceList.import.failed'));
    }
  }

  // biome-ignore lint/correctness/useExhaustiveDependencies: asked once, when the dialog opens
  useEffect(() => {
    let live = true;
    apiRequest<ImportJob[]>(`/${definition.path}/import-jobs`, { query: { workspaceId } })
      .then(([latest]) => {
        if (!live || !latest) return;
        if (importJobEnded(latest.status)) setLast(latest);
        else {
          setBusy(latest.dryRun ? 'check' : 'import');
          setJob(latest);
        }
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);

  // The list's jobs as they move, pushed by the process that runs them (decision 0052): opened
  // with the dialog, before a file is sent, since on the embedded database a run holds every
  // other request, the poll's included, until it ends. The furthest event of each job is kept:
  // one may come before the upload's answer names its job.
  const [streamed, setStreamed] = useState<Record<string, ImportJobEvent>>({});
  // biome-ignore lint/correctness/useExhaustiveDependencies: one stream while the dialog is open
  useEffect(() => {
    const source = apiEventSource(`/${definition.path}/import-jobs/events`, { workspaceId });
    if (!source) return;
    source.addEventListener(importJobEventName, (message) => {
      let event: ImportJobEvent;
      try {
        event = JSON.parse((message as MessageEvent<string>).data) as ImportJobEvent;
      } catch {
        return;
      }
      setStreamed((kept) => {
        const before = kept[event.jobId];
        return before && !isAhead(event, before) ? kept : { ...kept, [event.jobId]: event };
      });
    });
    return () => source.close();
  }, []);

  const polledId = job?.id;
  // Asked every second as well (another instance may run the job, out of this stream's reach),
  // never twice at once: on the embedded database each ask waits for the run's end.
  const endStreamed = polledId !== undefined && importJobEnded(streamed[polledId]?.status ?? 'queued');
  // biome-ignore lint/correctness/useExhaustiveDependencies: one poll per job, by its id
  useEffect(() => {
    if (!polledId) return;
    let live = true;
    let asking = false;
    const ask = () => {
      if (asking) return;
      asking = true;
      apiRequest<ImportJob>(jobPath(polledId), { query: { workspaceId } })
        .then((data) => {
          if (!live) return;
          if (importJobEnded(data.status)) settle(data);
          else setJob(data);
        })
        .catch(() => undefined)
        .finally(() => {
          asking = false;
        });
    };
    // The stream told of the end: its report is asked for at once.
    if (endStreamed) ask();
    const timer = setInterval(ask, importPollMs);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [polledId, endStreamed]);
  const shown = job ? latestJob(job, streamed[job.id]) : null;

  async function send(dryRun: boolean) {
    if (!file) return;
    setBusy(dryRun ? 'check' : 'import');
    setRefusal(null);
    setLast(null);
    try {
      const chosen = mapping?.file === file ? mapping.value : undefined;
      const queued = await apiUpload<ImportJob>(
        `/${definition.path}/import`,
        'file',
        [file],
        { workspaceId, dryRun: String(dryRun) },
        'POST',
        {
          fields: chosen ? { [importMappingField]: JSON.stringify(chosen) } : {},
          language: i18n.language,
        },
      );
      if (importJobEnded(queued.status)) settle(queued);
      else setJob(queued);
    } catch (error) {
      setReport(null);
      setBusy(null);
      const issue = isApiError(error) ? error.body?.issues?.[0] : undefined;
      setRefusal(issue ? message(issue.message, issue.params) : t('resourceList.import.failed'));
    }
  }

  async function cancel() {
    if (!job) return;
    try {
      const data = await apiRequest<ImportJob>(`${jobPath(job.id)}/cancel`, {
        method: 'POST',
        query: { workspaceId },
      });
      settle(data);
    } catch {
      // Ended meanwhile: the next poll tells how.
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
      size="xl"
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
        {file && !preview && !refusal && (
          <p className="text-sm text-slate-600 dark:text-slate-300" role="status">
            {t('resourceList.import.preview.reading')}
          </p>
        )}
        {preview && mapping && (
          <ImportPreviewTable
            preview={preview}
            mapping={mapping.value}
            onChange={(value) => {
              // Another mapping is another file to check: the last report no longer says it.
              setMapping({ file: mapping.file, value });
              setReport(null);
              setRefusal(null);
            }}
          />
        )}
        {last && (
          <p className="text-sm text-slate-600 dark:text-slate-300">
            {t('resourceList.import.last', {
              file: last.fileName ?? '',
              status: t(`resourceList.import.status.${last.status}`),
            })}
          </p>
        )}
        {shown && (
          <div className="space-y-1.5" role="status">
            <progress
              className="h-2 w-full"
              aria-label={t('resourceList.import.progressLabel')}
              max={Math.max(shown.rowsTotal, 1)}
              value={shown.rowsDone}
            />
            <p className="text-sm tabular-nums">
              {shown.status === 'queued'
                ? t('resourceList.import.waiting')
                : t('resourceList.import.progress', { done: shown.rowsDone, total: shown.rowsTotal })}
            </p>
          </div>
        )}
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
        {job && (
          <Button variant="secondary" onClick={() => void cancel()}>
            {t('resourceList.import.cancel')}
          </Button>
        )}
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
