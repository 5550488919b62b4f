import type { FormFieldOption } from '@dukkan/contract';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useController } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { CheckIcon, ChevronsUpDownIcon } from '../../components/ui/icons.tsx';
import { controlClassName } from '../../components/ui/input.tsx';
import { Popover, PopoverContent, PopoverTrigger } from '../../components/ui/popover.tsx';
import { cn } from '../../lib/class-names.ts';
import { useListboxKeys } from '../listbox-keys.ts';
import { FieldFrame, labelIdOf } from './field-frame.tsx';
import { type FieldComponentProps, textOf } from './field-props.ts';
import { foldForSearch } from './search-text.ts';

interface SearchableSelectProps extends FieldComponentProps {
  error: string | undefined;
  /** The choices, asked for when the list first opens (time zones take a moment to name). */
  options: () => readonly FormFieldOption[];
  /** How the chosen value is named on the button, without making the list. */
  labelOf: (value: string) => string;
  /** More text each option is found by (its name in the other language), by value. */
  searchTexts?: ReadonlyMap<string, string>;
}

/**
 * One value out of a long list (a currency, a time zone): a button naming the choice opens a
 * search box over the choices, in the combobox pattern of the record picker — typing filters (by
 * value and name, in either language where known), arrows and Home/End move, Enter or a click
 * chooses and closes, Escape closes; either way the focus is back on the button. The list opens
 * on the current choice.
 */
export function SearchableSelect({ field, id, error, options, labelOf, searchTexts }: SearchableSelectProps) {
  const { t } = useTranslation();
  const { field: controller } = useController({ name: field.name });
  const value = typeof controller.value === 'string' ? controller.value : '';
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const label = textOf(t, field.label);

  // Made when the list is first opened, then kept (`options` changes with the language).
  const [opened, setOpened] = useState(false);
  const choices = useMemo(() => (opened ? options() : []), [opened, options]);

  const labels = useMemo(
    () => new Map(choices.map((option) => [option.value, textOf(t, option.label)])),
    [choices, t],
  );
  const haystacks = useMemo(
    () =>
      new Map(
        choices.map((option) => [
          option.value,
          foldForSearch(
            `${option.value} ${labels.get(option.value)} ${searchTexts?.get(option.value) ?? ''}`,
          ),
        ]),
      ),
    [choices, labels, searchTexts],
  );
  const needle = foldForSearch(query);
  const shown = needle ? choices.filter((option) => haystacks.get(option.value)?.includes(needle)) : choices;
  const { listId, activeIndex, setActive, searchProps, optionProps } = useListboxKeys(shown.length, (index) =>
    choose(shown[index]),
  );

  // Opened, the list starts at the current choice; the highlighted choice stays in view.
  useEffect(() => {
    if (!open || query) return;
    const index = choices.findIndex((option) => option.value === value);
    setActive(Math.max(index, 0));
  }, [open, choices, value, query, setActive]);
  // The highlighted choice stays in view, from the moment the list is drawn (in a portal, after this).
  const keepInView = useCallback((item: HTMLElement | null) => {
    const box = item?.parentElement;
    if (!item || !box) return;
    // The list alone scrolls (scrollIntoView would scroll the page as well).
    const top = item.offsetTop;
    const bottom = top + item.offsetHeight;
    if (top < box.scrollTop) box.scrollTop = top;
    else if (bottom > box.scrollTop + box.clientHeight) box.scrollTop = bottom - box.clientHeight;
  }, []);

  const choose = (option: FormFieldOption | undefined) => {
    if (!option) return;
    controller.onChange(option.value);
    setOpen(false);
    setQuery('');
  };

  const chosen = value ? labelOf(value) : null;
  const valueId = `${id}-value`;
  return (
    <FieldFrame field={field} id={id} error={error}>
      {({ 'aria-required': _required, ...control }) => (
        // A button takes no aria-required (axe: aria-allowed-attr); the asterisk says it.
        <Popover
          open={open}
          onOpenChange={(next) => {
            setOpen(next);
            if (next) setOpened(true);
            if (!next) {
              setQuery('');
              controller.onBlur();
            }
          }}
        >
          <PopoverTrigger asChild>
            <button
              {...control}
              ref={controller.ref}
              type="button"
              // Named by the field's label and the choice, as a select is read.
              aria-labelledby={`${labelIdOf(id)} ${valueId}`}
              aria-haspopup="dialog"
              disabled={field.disabled}
              onKeyDown={(event) => {
                if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
                  event.preventDefault();
                  setOpened(true);
                  setOpen(true);
                }
              }}
              className={cn(controlClassName, 'flex h-10 items-center gap-2 text-start')}
            >
              <span id={valueId} className="min-w-0 flex-1 truncate">
                {chosen ? (
                  <bdi>{chosen}</bdi>
                ) : (
                  <span className="text-slate-500 dark:text-slate-400">
                    {field.placeholder ? textOf(t, field.placeholder) : t('common.choose')}
                  </span>
                )}
              </span>
              <ChevronsUpDownIcon className="size-4 shrink-0 text-slate-500" />
            </button>
          </PopoverTrigger>
          <PopoverContent
            className="w-[min(28rem,calc(100vw-2rem))] p-2"
            aria-label={label}
            onCloseAutoFocus={(event) => {
              // Back on the button, without the browser's scroll to it.
              event.preventDefault();
              document.getElementById(id)?.focus({ preventScroll: true });
            }}
          >
            <input
              {...searchProps(query, setQuery)}
              aria-label={t('form.searchChoicesOf', { field: label })}
              placeholder={t('form.searchChoices')}
              className={cn(controlClassName, 'h-10')}
            />
            <div
              id={listId}
              role="listbox"
              aria-label={label}
              className="relative mt-2 max-h-72 overflow-y-auto"
            >
              {shown.map((option, index) => (
                <div
                  key={option.value}
                  {...optionProps(index, option.value === value)}
                  ref={index === activeIndex ? keepInView : undefined}
                  className={cn(
                    'flex cursor-pointer items-center gap-2 rounded-lg px-2 py-2 text-sm text-slate-800 dark:text-slate-100',
                    index === activeIndex && 'bg-slate-100 dark:bg-slate-800',
                  )}
                >
                  <CheckIcon
                    className={cn(
                      'size-4 shrink-0 text-brand-600 dark:text-brand-400',
                      option.value !== value && 'invisible',
                    )}
                  />
                  <bdi className="min-w-0">{labels.get(option.value)}</bdi>
                </div>
              ))}
            </div>
            {shown.length === 0 && (
              <p role="status" className="px-2 py-2 text-sm text-slate-600 dark:text-slate-400">
                {t('form.noMatchingOptions')}
              </p>
            )}
          </PopoverContent>
        </Popover>
      )}
    </FieldFrame>
  );
}
