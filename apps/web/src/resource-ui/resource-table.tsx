import { useTranslation } from 'react-i18next';
import { ArrowDownIcon, ArrowUpIcon } from '../components/ui/action-icons.tsx';
import { ChevronsUpDownIcon } from '../components/ui/icons.tsx';
import { cn } from '../lib/class-names.ts';
import type { ResourceColumn, RowAction } from './columns.ts';
import { nextSort, sortDirection } from './list-params.ts';

const cellClassName = 'px-4 py-3 align-middle';

function SortHeader({
  label,
  field,
  sort,
  onSort,
}: {
  label: string;
  field: string;
  sort: string;
  onSort: (sort: string) => void;
}) {
  const { t } = useTranslation();
  const direction = sortDirection(sort, field);
  const Icon =
    direction === 'ascending' ? ArrowUpIcon : direction === 'descending' ? ArrowDownIcon : ChevronsUpDownIcon;
  return (
    <button
      type="button"
      onClick={() => onSort(nextSort(sort, field))}
      className="-mx-1.5 inline-flex items-center gap-1.5 rounded-md px-1.5 py-0.5 hover:bg-slate-200/60 hover:text-slate-900 dark:hover:bg-slate-700/60 dark:hover:text-white"
    >
      {label}
      <Icon className={cn('size-3.5', direction === 'none' && 'opacity-50')} />
      <span className="sr-only">
        {direction === 'ascending'
          ? t('resourceList.sortedAscending')
          : direction === 'descending'
            ? t('resourceList.sortedDescending')
            : t('resourceList.sortable')}
      </span>
    </button>
  );
}

/**
 * The rows of a list page. A table wider than its frame scrolls sideways inside it (the page
 * itself never does), and the actions column stays pinned to the frame's inline end, so a row's
 * Edit, Disable and Delete are always on screen.
 */
/** The actions column, pinned to the inline end of the scrolling frame, with an edge over what scrolls beneath. */
const pinnedEnd =
  'sticky end-0 z-[1] shadow-[-1px_0_0_var(--color-slate-200)] rtl:shadow-[1px_0_0_var(--color-slate-200)] dark:shadow-[-1px_0_0_var(--color-slate-800)] dark:rtl:shadow-[1px_0_0_var(--color-slate-800)]';

export function ResourceTable<R extends { id: string }>({
  caption,
  columns,
  records,
  sort,
  onSort,
  actionsFor,
  recordLabel,
  busy,
}: {
  caption: string;
  columns: readonly ResourceColumn<R>[];
  records: readonly R[];
  sort: string;
  onSort: (sort: string) => void;
  actionsFor?: (record: R) => RowAction[];
  recordLabel: (record: R) => string;
  busy?: boolean;
}) {
  const { t } = useTranslation();
  const hasActions = Boolean(actionsFor);
  return (
    // `relative`: the sr-only texts are positioned, and must scroll (and clip) with the table rather than widen the page.
    <div className="relative overflow-x-auto">
      <table
        aria-busy={busy || undefined}
        className={cn('w-full min-w-[42rem] text-sm', busy && 'opacity-60 transition-opacity')}
      >
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b border-slate-200 bg-slate-50 text-start text-xs font-medium text-slate-600 dark:border-slate-800 dark:bg-slate-800/50 dark:text-slate-400">
          <tr>
            {columns.map((column) => (
              <th
                key={column.key}
                scope="col"
                aria-sort={column.sortField ? sortDirection(sort, column.sortField) : undefined}
                className={cn('px-4 py-2.5 text-start font-medium whitespace-nowrap', column.className)}
              >
                {column.sortField ? (
                  <SortHeader label={column.header} field={column.sortField} sort={sort} onSort={onSort} />
                ) : (
                  column.header
                )}
              </th>
            ))}
            {hasActions && (
              <th
                scope="col"
                className={cn('px-4 py-2.5 text-end font-medium', pinnedEnd, 'bg-slate-50 dark:bg-slate-800')}
              >
                <span className="sr-only">{t('resourceList.actions')}</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
          {records.map((record) => (
            <tr key={record.id} className="group hover:bg-slate-50/70 dark:hover:bg-slate-800/40">
              {columns.map((column) =>
                column.primary ? (
                  <th
                    key={column.key}
                    scope="row"
                    className={cn(cellClassName, 'text-start font-medium', column.className)}
                  >
                    {column.cell(record)}
                  </th>
                ) : (
                  <td key={column.key} className={cn(cellClassName, column.className)}>
                    {column.cell(record)}
                  </td>
                ),
              )}
              {actionsFor && (
                <td
                  className={cn(
                    cellClassName,
                    'py-2 text-end',
                    pinnedEnd,
                    'bg-white group-hover:bg-slate-50 dark:bg-slate-900 dark:group-hover:bg-slate-800',
                  )}
                >
                  <div className="flex justify-end gap-0.5">
                    {actionsFor(record).map((action) => (
                      <button
                        key={action.key}
                        type="button"
                        onClick={action.onSelect}
                        aria-label={t('resourceList.actionOn', {
                          action: action.label,
                          name: recordLabel(record),
                        })}
                        title={action.label}
                        className={cn(
                          'grid size-9 place-items-center rounded-lg transition-colors',
                          action.tone === 'danger'
                            ? 'text-red-600 hover:bg-red-50 dark:text-red-400 dark:hover:bg-red-500/10'
                            : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white',
                        )}
                      >
                        {action.icon}
                      </button>
                    ))}
                  </div>
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Grey bars where rows will be, so the page does not jump when they arrive. */
export function TableSkeleton({ columns, rows = 5 }: { columns: number; rows?: number }) {
  const { t } = useTranslation();
  return (
    <div role="status" className="divide-y divide-slate-200 dark:divide-slate-800">
      <span className="sr-only">{t('common.loading')}</span>
      {Array.from({ length: rows }, (_, row) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have nothing else to key on
        <div key={row} aria-hidden="true" className="flex items-center gap-6 px-4 py-4">
          {Array.from({ length: columns }, (_, column) => (
            <span
              // biome-ignore lint/suspicious/noArrayIndexKey: as above
              key={column}
              className={cn(
                'h-3.5 animate-pulse rounded bg-slate-200 dark:bg-slate-800',
                column === 0 ? 'w-24' : 'flex-1',
              )}
            />
          ))}
        </div>
      ))}
    </div>
  );
}
