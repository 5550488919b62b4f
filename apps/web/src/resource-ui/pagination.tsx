import { numberFormat } from '@dukkan/contract';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { ChevronEndIcon, ChevronStartIcon } from '../components/ui/action-icons.tsx';
import { Button } from '../components/ui/button.tsx';
import { cn } from '../lib/class-names.ts';
import { pageSizeOptions, pageWindow } from './list-params.ts';

/** Server-side pages: "Showing 21–40 of 135", rows per page, previous/next and page numbers. */
export function Pagination({
  page,
  pageSize,
  total,
  totalCapped = false,
  onPageChange,
  onPageSizeChange,
}: {
  page: number;
  pageSize: number;
  total: number;
  /** `total` is the list's count limit and more match: "of more than 1,000". */
  totalCapped?: boolean;
  onPageChange: (page: number) => void;
  /** Without it the page size is fixed and no choice of it is shown (a record's History). */
  onPageSizeChange?: (pageSize: number) => void;
}) {
  const { t, i18n } = useTranslation();
  const sizeId = useId();
  const number = numberFormat(i18n.language);
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const from = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const to = Math.min(total, page * pageSize);

  return (
    <div className="flex flex-col gap-3 border-t border-slate-200 px-4 py-3 text-sm sm:flex-row sm:items-center sm:justify-between dark:border-slate-800">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2 text-slate-600 dark:text-slate-400">
        <p aria-live="polite">
          {t(totalCapped ? 'resourceList.showingMore' : 'resourceList.showing', {
            from: number.format(from),
            to: number.format(to),
            total: number.format(total),
          })}
        </p>
        {onPageSizeChange && (
          <div className="flex items-center gap-2">
            <label htmlFor={sizeId}>{t('resourceList.rowsPerPage')}</label>
            <select
              id={sizeId}
              value={pageSize}
              onChange={(event) => onPageSizeChange(Number(event.target.value))}
              className="h-8 rounded-lg border border-slate-300 bg-white px-2 text-sm text-slate-900 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
            >
              {pageSizeOptions.map((size) => (
                <option key={size} value={size}>
                  {number.format(size)}
                </option>
              ))}
            </select>
          </div>
        )}
      </div>
      <nav aria-label={t('resourceList.pagination')} className="flex items-center gap-1">
        <Button
          variant="ghost"
          size="sm"
          disabled={page <= 1}
          onClick={() => onPageChange(page - 1)}
          aria-label={t('resourceList.previousPage')}
          className="px-2"
        >
          <ChevronStartIcon className="size-4" />
        </Button>
        {pageWindow(Math.min(page, pageCount), pageCount).map((value, index) =>
          value === null ? (
            // Gaps sit between known numbers, so their position is a stable key.
            // biome-ignore lint/suspicious/noArrayIndexKey: see above
            <span key={`gap-${index}`} className="px-1 text-slate-400" aria-hidden="true">
              …
            </span>
          ) : (
            <button
              key={value}
              type="button"
              onClick={() => onPageChange(value)}
              aria-current={value === page ? 'page' : undefined}
              aria-label={t('resourceList.pageNumber', { page: number.format(value) })}
              className={cn(
                'h-8 min-w-8 rounded-lg px-2 text-sm tabular-nums transition-colors',
                value === page
                  ? 'bg-brand-600 font-semibold text-white dark:bg-brand-500 dark:text-slate-950'
                  : 'text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800',
              )}
            >
              {number.format(value)}
            </button>
          ),
        )}
        <Button
          variant="ghost"
          size="sm"
          // Past the counted pages of a capped list there are more: Next stays.
          disabled={page >= pageCount && !totalCapped}
          onClick={() => onPageChange(page + 1)}
          aria-label={t('resourceList.nextPage')}
          className="px-2"
        >
          <ChevronEndIcon className="size-4" />
        </Button>
      </nav>
    </div>
  );
}
