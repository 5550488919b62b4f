import { numberFormat } from '@dukkan/contract';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Checkbox } from '../components/ui/checkbox.tsx';
import { ChevronDownIcon } from '../components/ui/icons.tsx';
import { cn } from '../lib/class-names.ts';
import type { ListFilterControl } from './columns.ts';
import { useRecordOptions } from './option-sources.ts';
import type { FilterValueCount } from './use-resource.ts';

/**
 * A multi-select filter: a button naming the filter and how many values are picked, opening a
 * group of checkboxes (with the number of records for each value when the server told us).
 * Escape or a click elsewhere closes it.
 */
function FilterMenu({
  filter,
  selected,
  counts,
  onChange,
}: {
  filter: ListFilterControl;
  selected: readonly string[];
  counts?: readonly FilterValueCount[];
  onChange: (values: string[]) => void;
}) {
  const { t, i18n } = useTranslation();
  const number = numberFormat(i18n.language);
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (root.current && !root.current.contains(event.target as Node)) setOpen(false);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.preventDefault();
      setOpen(false);
      button.current?.focus();
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [open]);

  const countOf = (value: string) => counts?.find((entry) => entry.value === value)?.count;
  const toggle = (value: string, checked: boolean) =>
    onChange(checked ? [...selected, value] : selected.filter((current) => current !== value));

  return (
    <div ref={root} className="relative">
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((current) => !current)}
        className={cn(
          'inline-flex h-10 items-center gap-2 rounded-lg border px-3 text-sm font-semibold shadow-xs transition-colors',
          selected.length > 0
            ? 'border-brand-300 bg-brand-50 text-brand-800 dark:border-brand-700 dark:bg-brand-500/10 dark:text-brand-300'
            : 'border-slate-300 bg-white text-slate-700 hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200 dark:hover:bg-slate-800',
        )}
      >
        {filter.label}
        {selected.length > 0 && (
          <span className="rounded-full bg-brand-600 px-1.5 text-xs text-white dark:bg-brand-500 dark:text-slate-950">
            <span className="sr-only">{t('resourceList.selectedCount', { count: selected.length })}</span>
            <span aria-hidden="true">{number.format(selected.length)}</span>
          </span>
        )}
        <ChevronDownIcon className={cn('size-4 transition-transform', open && 'rotate-180')} />
      </button>
      <div
        id={panelId}
        hidden={!open}
        className="absolute start-0 top-full z-30 mt-1 max-h-72 w-60 overflow-y-auto rounded-xl border border-slate-200 bg-white p-1.5 shadow-lg dark:border-slate-700 dark:bg-slate-800"
      >
        <fieldset>
          <legend className="sr-only">{filter.label}</legend>
          {filter.options.length === 0 && (
            <p className="px-2 py-2 text-sm text-slate-500 dark:text-slate-400">
              {t('resourceList.noOptions')}
            </p>
          )}
          {filter.options.map((option) => {
            const count = countOf(option.value);
            const optionId = `${panelId}-${option.value}`;
            return (
              <label
                key={option.value}
                htmlFor={optionId}
                className="flex cursor-pointer items-center gap-2.5 rounded-lg px-2 py-2 text-sm hover:bg-slate-100 dark:hover:bg-slate-700"
              >
                <Checkbox
                  id={optionId}
                  checked={selected.includes(option.value)}
                  onChange={(event) => toggle(option.value, event.target.checked)}
                />
                <span className="min-w-0 flex-1 truncate">{option.label}</span>
                {count !== undefined && (
                  <span className="text-xs text-slate-500 tabular-nums dark:text-slate-400">
                    {number.format(count)}
                  </span>
                )}
              </label>
            );
          })}
        </fieldset>
      </div>
    </div>
  );
}

type FilterMenuProps = Parameters<typeof FilterMenu>[0];

/** A reference filter's menu: the referenced resource's records are its options. */
function RecordFilterMenu({ resource, ...props }: FilterMenuProps & { resource: string }) {
  const { options } = useRecordOptions(resource);
  return <FilterMenu {...props} filter={{ ...props.filter, options }} />;
}

/** The menu of a declared filter, fixed values or records. */
export function ListFilterMenu(props: FilterMenuProps) {
  const resource = props.filter.resource;
  return resource ? <RecordFilterMenu {...props} resource={resource} /> : <FilterMenu {...props} />;
}
