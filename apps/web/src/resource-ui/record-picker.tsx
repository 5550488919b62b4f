import type { ResourceDefinition } from '@dukkan/contract';
import { type ReactNode, useDeferredValue, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ChevronsUpDownIcon } from '../components/ui/icons.tsx';
import { controlClassName } from '../components/ui/input.tsx';
import { Popover, PopoverContent, PopoverTrigger } from '../components/ui/popover.tsx';
import { Spinner } from '../components/ui/spinner.tsx';
import { cn } from '../lib/class-names.ts';
import { useListboxKeys } from './listbox-keys.ts';
import { NewRecordButton } from './new-record-button.tsx';
import { recordName } from './option-sources.ts';
import { useResourceList } from './use-resource.ts';

/** How many matches the picker lists: a search narrows them, nobody scrolls through more. */
const matchCount = 20;

/** A record as a picker shows it: its code, then its name in the current language. */
export function RecordLabel({ code, name }: { code?: unknown; name: ReactNode }) {
  return (
    <span className="flex min-w-0 items-baseline gap-2">
      {typeof code === 'string' && code && (
        <bdi className="shrink-0 font-mono text-xs text-slate-600 dark:text-slate-400">{code}</bdi>
      )}
      <span className="truncate">{name}</span>
    </span>
  );
}

/**
 * A searchable choice of one of a resource's records, however many the workspace has: a button
 * naming the choice opens a search box over the first matches of the resource's own list search
 * (on the server), in the combobox pattern (arrows move, Enter chooses, Escape closes and gives
 * focus back to the button). `isOffered` leaves records out (the product being edited, a type
 * already chosen); the resource's list permission is the caller's to check. "New …" is offered
 * under it when the member may add one (`NewRecordButton`): the record saved there is chosen,
 * `onChoose` told it is new.
 */
export function RecordPicker<R extends { id: string }>({
  definition,
  chosen,
  placeholder,
  searchLabel,
  emptyText,
  isOffered,
  onChoose,
  label,
  invalid,
  describedBy,
  id,
  className,
}: {
  definition: ResourceDefinition;
  /** What the button shows for the current choice; null shows the placeholder. */
  chosen: ReactNode | null;
  placeholder: string;
  /** The search box's label and placeholder ("Search products by code, name, SKU or barcode"). */
  searchLabel: string;
  /** Said when nothing matches; the list's "Nothing matches your search" by default. */
  emptyText?: string;
  isOffered?: (record: R) => boolean;
  /** A record chosen in the list, or (`created`) just made with "New …". */
  onChoose: (record: R, how: { created: boolean }) => void;
  /** The button's accessible name ("Ingredient, line 2"). */
  label: string;
  invalid?: boolean;
  describedBy?: string;
  id?: string;
  className?: string;
}) {
  const { t, i18n } = useTranslation();
  const ownId = useId();
  const buttonId = id ?? ownId;
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const search = useDeferredValue(query.trim());
  const matches = useResourceList(
    definition,
    // No sort: the matches come by relevance (a name that is the search first).
    { page: 1, pageSize: matchCount, search, sort: '', filters: {} },
    { enabled: open },
  );
  const records = ((matches.data?.data ?? []) as R[]).filter((record) => isOffered?.(record) ?? true);
  const { listId, activeIndex, searchProps, optionProps } = useListboxKeys(records.length, (index) =>
    choose(records[index]),
  );

  const choose = (record: R | undefined) => {
    if (!record) return;
    onChoose(record, { created: false });
    setOpen(false);
    setQuery('');
  };

  return (
    <>
      <Popover
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          if (!next) setQuery('');
        }}
      >
        <PopoverTrigger asChild>
          <button
            id={buttonId}
            type="button"
            aria-label={label}
            aria-invalid={invalid || undefined}
            aria-describedby={describedBy}
            className={cn(controlClassName, 'flex h-10 items-center gap-2 text-start', className)}
          >
            <span className="min-w-0 flex-1">
              {chosen ?? <span className="text-slate-500 dark:text-slate-400">{placeholder}</span>}
            </span>
            <ChevronsUpDownIcon className="size-4 shrink-0 text-slate-500" />
          </button>
        </PopoverTrigger>
        <PopoverContent className="w-[min(26rem,calc(100vw-2rem))] p-2" aria-label={label}>
          <input
            {...searchProps(query, setQuery)}
            aria-label={searchLabel}
            placeholder={searchLabel}
            className={cn(controlClassName, 'h-10')}
          />
          <div
            id={listId}
            role="listbox"
            aria-label={searchLabel}
            aria-busy={matches.isFetching || undefined}
            className="mt-2 max-h-72 overflow-y-auto"
          >
            {records.map((record, index) => (
              <div
                key={record.id}
                {...optionProps(index, index === activeIndex)}
                className={cn(
                  'cursor-pointer rounded-lg px-2 py-2 text-sm',
                  index === activeIndex && 'bg-slate-100 dark:bg-slate-800',
                )}
              >
                <RecordLabel
                  code={(record as Record<string, unknown>).code}
                  name={recordName(definition, record as Record<string, unknown>, i18n.language)}
                />
              </div>
            ))}
          </div>
          {matches.isPending ? (
            <p
              role="status"
              className="flex items-center gap-2 px-2 py-2 text-sm text-slate-600 dark:text-slate-400"
            >
              <Spinner className="size-4" />
              {t('resourceList.searching')}
            </p>
          ) : (
            records.length === 0 && (
              <p role="status" className="px-2 py-2 text-sm text-slate-600 dark:text-slate-400">
                {emptyText ?? t('resourceList.noMatch')}
              </p>
            )
          )}
        </PopoverContent>
      </Popover>
      <NewRecordButton
        resource={definition.key}
        fieldId={buttonId}
        onCreated={(record) => onChoose(record as R, { created: true })}
      />
    </>
  );
}
