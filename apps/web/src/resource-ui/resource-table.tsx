import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { ArrowDownIcon, ArrowUpIcon } from '../components/ui/action-icons.tsx';
import { ChevronsUpDownIcon } from '../components/ui/icons.tsx';
import { cn } from '../lib/class-names.ts';
import { useOverflowsInline } from '../lib/use-overflows.ts';
import type { ResourceColumn, RowAction } from './columns.ts';
import { nextSort, sortDirection } from './list-params.ts';

/*
 * Under 36rem of room (a phone, or a narrow pane) the same table is laid out as cards, by container
 * queries (`@max-xl:`) on its frame: each row a card with its name and status on the first line,
 * its other cells as "label value" lines, its actions at the foot. One DOM for both layouts keeps
 * the table's semantics for screen readers (Chromium keeps table roles whatever the display) and
 * the tests' queries the same at every width. The header row stays as a bar of sort buttons.
 */
const cellClassName = 'px-4 py-3 align-middle @max-xl:p-0';

/** A card's "label value" line: the label is generated content, so nothing is added to the DOM. */
const cardLabel =
  '@max-xl:col-span-2 @max-xl:flex @max-xl:gap-3 @max-xl:before:w-28 @max-xl:before:shrink-0 @max-xl:before:pt-px @max-xl:before:text-xs @max-xl:before:text-slate-500 @max-xl:before:content-[attr(data-label)] @max-xl:dark:before:text-slate-400';

/** Is this column the record's status (shown beside the name on a card)? */
const isStatus = (column: { key: string; status?: boolean }) => column.status ?? column.key === 'status';

/**
 * The columns in the order shown: the status right after the record's name, so that a table
 * wider than its frame shows it without scrolling (it was the last column, past the frame's edge).
 */
export function arrangeColumns<C extends { key: string; primary?: boolean; status?: boolean }>(
  columns: readonly C[],
): C[] {
  const statuses = columns.filter(isStatus);
  const others = columns.filter((column) => !isStatus(column));
  const at = others.findIndex((column) => column.primary);
  if (at < 0 || statuses.length === 0) return [...columns];
  return [...others.slice(0, at + 1), ...statuses, ...others.slice(at + 1)];
}

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
 * The actions column, pinned to the inline end of the scrolling frame, with an edge over what
 * scrolls beneath; while the frame scrolls, the edge casts a shadow: more columns lie under it.
 */
const pinnedEnd = cn(
  'sticky end-0 z-[1] @max-xl:static',
  'shadow-[-1px_0_0_var(--color-slate-200)] rtl:shadow-[1px_0_0_var(--color-slate-200)] dark:shadow-[-1px_0_0_var(--color-slate-800)] dark:rtl:shadow-[1px_0_0_var(--color-slate-800)]',
  'group-data-scrolls/frame:shadow-[-1px_0_0_var(--color-slate-200),-8px_0_10px_-6px_rgb(15_23_42/0.25)] group-data-scrolls/frame:rtl:shadow-[1px_0_0_var(--color-slate-200),8px_0_10px_-6px_rgb(15_23_42/0.25)] group-data-scrolls/frame:dark:shadow-[-1px_0_0_var(--color-slate-800),-8px_0_10px_-6px_rgb(0_0_0/0.6)] group-data-scrolls/frame:dark:rtl:shadow-[1px_0_0_var(--color-slate-800),8px_0_10px_-6px_rgb(0_0_0/0.6)]',
  '@max-xl:shadow-none @max-xl:rtl:shadow-none @max-xl:dark:shadow-none @max-xl:dark:rtl:shadow-none @max-xl:group-data-scrolls/frame:shadow-none @max-xl:group-data-scrolls/frame:rtl:shadow-none @max-xl:group-data-scrolls/frame:dark:shadow-none @max-xl:group-data-scrolls/frame:dark:rtl:shadow-none',
);

/**
 * The rows of a list page, where a record's name, status and actions can be seen at every width.
 * Wide: a table; when it is wider than its frame it scrolls sideways inside it (the page itself
 * never does), and the actions column stays pinned to the frame's inline end. Narrow: cards (see
 * `cellClassName`). Long lists in cells are kept short by their cells (`CompactList`).
 */
export function ResourceTable<R extends { id: string }>({
  caption,
  columns: declaredColumns,
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
  const columns = arrangeColumns(declaredColumns);
  const hasStatus = columns.some(isStatus);
  const sortable = columns.some((column) => column.sortField);
  const frame = useRef<HTMLDivElement>(null);
  const scrolls = useOverflowsInline(frame);
  return (
    // `@container`: the layout follows the room the list has, not the window's width.
    // `relative`: the sr-only texts are positioned, and must scroll (and clip) with the table rather than widen the page.
    <div className="@container">
      {/* While it scrolls sideways, the frame is a named, focusable region: arrow keys scroll it. */}
      <div
        ref={frame}
        className="group/frame relative overflow-x-auto focus-visible:outline-2 focus-visible:outline-brand-600"
        {...(scrolls ? { tabIndex: 0, role: 'region', 'aria-label': caption, 'data-scrolls': '' } : {})}
      >
        <table
          aria-busy={busy || undefined}
          className={cn(
            'w-full min-w-[42rem] text-sm @max-xl:block @max-xl:min-w-0',
            busy && 'opacity-60 transition-opacity',
          )}
        >
          <caption className="sr-only">{caption}</caption>
          <thead
            className={cn(
              'border-b border-slate-200 bg-slate-50 text-start text-xs font-semibold text-slate-600 dark:border-slate-800 dark:bg-slate-800/50 dark:text-slate-400 @max-xl:block',
              !sortable && '@max-xl:hidden',
            )}
          >
            <tr className="@max-xl:flex @max-xl:flex-wrap @max-xl:gap-x-4 @max-xl:gap-y-1 @max-xl:px-4 @max-xl:py-2">
              {columns.map((column) => (
                <th
                  key={column.key}
                  scope="col"
                  aria-sort={column.sortField ? sortDirection(sort, column.sortField) : undefined}
                  className={cn(
                    'px-4 py-2.5 text-start font-semibold whitespace-nowrap @max-xl:p-0',
                    !column.sortField && '@max-xl:hidden',
                    column.className,
                  )}
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
                  className={cn(
                    'px-4 py-2.5 text-end font-semibold @max-xl:hidden',
                    pinnedEnd,
                    // Opaque, the same colour as the header row's translucent slate-800/50 over the card.
                    'bg-slate-50 dark:bg-[color-mix(in_oklab,var(--color-slate-800)_50%,var(--color-slate-900))]',
                  )}
                >
                  <span className="sr-only">{t('resourceList.actions')}</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200 dark:divide-slate-800 @max-xl:block">
            {records.map((record) => (
              <tr
                key={record.id}
                className="group hover:bg-slate-50/70 dark:hover:bg-slate-800/40 @max-xl:grid @max-xl:grid-cols-[minmax(0,1fr)_auto] @max-xl:gap-x-3 @max-xl:gap-y-1.5 @max-xl:px-4 @max-xl:py-3"
              >
                {columns.map((column) =>
                  column.primary ? (
                    <th
                      key={column.key}
                      scope="row"
                      data-column={column.key}
                      className={cn(
                        cellClassName,
                        'min-w-40 text-start font-semibold @max-xl:col-start-1 @max-xl:min-w-0 @max-xl:row-start-1 @max-xl:self-center @max-xl:text-base',
                        !hasStatus && '@max-xl:col-span-2',
                        column.className,
                      )}
                    >
                      {column.cell(record)}
                    </th>
                  ) : isStatus(column) ? (
                    <td
                      key={column.key}
                      data-column={column.key}
                      className={cn(
                        cellClassName,
                        '@max-xl:col-start-2 @max-xl:row-start-1 @max-xl:self-center @max-xl:justify-self-end',
                        column.className,
                      )}
                    >
                      {column.cell(record)}
                    </td>
                  ) : (
                    <td
                      key={column.key}
                      data-column={column.key}
                      // On a card, the column's name comes before its value (a table says it in its header).
                      data-label={column.header}
                      className={cn(cellClassName, cardLabel, column.className)}
                    >
                      <div className="min-w-0 @max-xl:flex-1">{column.cell(record)}</div>
                    </td>
                  ),
                )}
                {actionsFor && (
                  <td
                    data-column="actions"
                    className={cn(
                      cellClassName,
                      'py-2 text-end @max-xl:col-span-2 @max-xl:bg-transparent @max-xl:group-hover:bg-transparent @max-xl:dark:bg-transparent @max-xl:dark:group-hover:bg-transparent',
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
