import type { ResourceDefinition } from '@dukkan/contract';
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DownloadIcon } from '../components/ui/action-icons.tsx';
import { ChevronDownIcon } from '../components/ui/icons.tsx';
import { Spinner } from '../components/ui/spinner.tsx';
import { apiDownload } from '../lib/api-client.ts';
import { cn } from '../lib/class-names.ts';
import type { ListParams } from './list-params.ts';
import { listRequestQuery } from './list-params.ts';

const formats = ['csv', 'xlsx'] as const;
type ExportFormat = (typeof formats)[number];

/** Saves a downloaded file under its name, as a link with `download` does. */
export function saveFile(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // After the click has handed the file to the browser's downloads.
  window.setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * The list's Export button: a menu of CSV and Excel that downloads what the list shows (its
 * search, filters and sort, every page) in the reader's language. The file is fetched, then
 * saved: the button says it is being prepared meanwhile, and a refusal is said beside it rather
 * than downloaded as a file of JSON.
 */
export function ExportMenu({
  definition,
  workspaceId,
  params,
}: {
  definition: Pick<ResourceDefinition, 'path'>;
  workspaceId: string;
  params: ListParams;
}) {
  const { t, i18n } = useTranslation();
  const [open, setOpen] = useState(false);
  const [preparing, setPreparing] = useState<ExportFormat | null>(null);
  const [failed, setFailed] = useState(false);
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const items = useRef<(HTMLButtonElement | null)[]>([]);

  useEffect(() => {
    if (!open) return;
    items.current[0]?.focus();
    const onPointerDown = (event: PointerEvent) => {
      if (root.current && !root.current.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  const close = () => {
    setOpen(false);
    button.current?.focus();
  };

  const onMenuKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = items.current.indexOf(document.activeElement as HTMLButtonElement);
    const move = (to: number) => items.current[(to + formats.length) % formats.length]?.focus();
    if (event.key === 'Escape') close();
    else if (event.key === 'ArrowDown') move(index + 1);
    else if (event.key === 'ArrowUp') move(index - 1);
    else if (event.key === 'Home') move(0);
    else if (event.key === 'End') move(formats.length - 1);
    else if (event.key === 'Tab') setOpen(false);
    else return;
    if (event.key !== 'Tab') event.preventDefault();
  };

  async function download(format: ExportFormat) {
    close();
    setFailed(false);
    setPreparing(format);
    try {
      const { page: _page, pageSize: _pageSize, ...query } = listRequestQuery(workspaceId, params);
      const file = await apiDownload(`/${definition.path}/export`, {
        query: { ...query, format },
        language: i18n.language,
      });
      saveFile(file.blob, file.fileName);
    } catch {
      setFailed(true);
    } finally {
      setPreparing(null);
    }
  }

  return (
    <div ref={root} className="relative">
      <button
        ref={button}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-busy={preparing !== null}
        disabled={preparing !== null}
        onClick={() => setOpen((current) => !current)}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' && !open) {
            event.preventDefault();
            setOpen(true);
          }
        }}
        className="inline-flex h-10 items-center gap-2 rounded-lg border border-slate-300 bg-white px-3 text-sm font-semibold text-slate-700 shadow-xs transition-colors hover:bg-slate-50 disabled:cursor-progress disabled:opacity-80 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200 dark:hover:bg-slate-800"
      >
        {preparing ? <Spinner /> : <DownloadIcon className="size-4" />}
        {preparing ? t('resourceList.exportPreparing') : t('resourceList.export')}
        {!preparing && (
          <ChevronDownIcon className={cn('size-4 transition-transform', open && 'rotate-180')} />
        )}
      </button>
      {open && (
        <div
          id={menuId}
          role="menu"
          aria-label={t('resourceList.export')}
          onKeyDown={onMenuKeyDown}
          className="absolute end-0 top-full z-30 mt-1 w-48 rounded-xl border border-slate-200 bg-white p-1.5 shadow-lg dark:border-slate-700 dark:bg-slate-800"
        >
          {formats.map((format, index) => (
            <button
              key={format}
              ref={(element) => {
                items.current[index] = element;
              }}
              type="button"
              role="menuitem"
              tabIndex={-1}
              onClick={() => void download(format)}
              className="flex w-full items-center rounded-lg px-2.5 py-2 text-start text-sm hover:bg-slate-100 focus:bg-slate-100 focus:outline-none dark:hover:bg-slate-700 dark:focus:bg-slate-700"
            >
              {t(format === 'csv' ? 'resourceList.exportCsv' : 'resourceList.exportXlsx')}
            </button>
          ))}
        </div>
      )}
      <span role="status" className="sr-only">
        {preparing ? t('resourceList.exportPreparing') : ''}
      </span>
      {failed && (
        <p
          role="alert"
          className="absolute end-0 top-full z-20 mt-1 w-56 text-end text-sm text-red-700 dark:text-red-400"
        >
          {t('resourceList.exportFailed')}
        </p>
      )}
    </div>
  );
}
