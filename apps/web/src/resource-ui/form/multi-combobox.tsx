import type { FormFieldOption } from '@dukkan/contract';
import { useCombobox } from 'downshift';
import {
  type ChangeEvent,
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useController } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { CheckIcon, ChevronsUpDownIcon, CloseIcon } from '../../components/ui/icons.tsx';
import { controlClassName } from '../../components/ui/input.tsx';
import { Popover, PopoverAnchor, PopoverContent } from '../../components/ui/popover.tsx';
import { cn } from '../../lib/class-names.ts';
import { FieldFrame } from './field-frame.tsx';
import { type FieldComponentProps, textOf } from './field-props.ts';
import { foldForSearch } from './search-text.ts';

interface MultiComboboxProps extends FieldComponentProps {
  error: string | undefined;
  options: readonly FormFieldOption[];
  /** More text each option is found by (its name in the other language), by value. */
  searchTexts?: ReadonlyMap<string, string>;
  /** Beside the box: "New …" for records. */
  action?: ReactNode;
}

const { stateChangeTypes: change } = useCombobox;

/** A DOM event downshift skips when this is set (the handler before its own took care of it). */
type DownshiftEvent = Event & { preventDownshiftDefault?: boolean };

/**
 * The input's props without an active descendant that is not in the list (downshift keeps
 * highlighting the first option while the filter leaves none).
 */
function withoutStaleDescendant<P extends { 'aria-activedescendant'?: string }>(props: P, shown: boolean): P {
  return shown ? props : { ...props, 'aria-activedescendant': undefined };
}

/**
 * Several values out of a long list (every currency): one box and one tab stop. Typing filters the
 * choices (by code and by name in either language), arrows move, Enter or a click adds or removes
 * the highlighted one and the list stays open for the next; Escape closes the list (and only the
 * list: it is the top layer over a dialog). The chosen values are chips before the box, each with
 * a "Remove …" button; Backspace in the empty box removes the last. The ARIA 1.2 combobox (input,
 * listbox, active descendant) is downshift's; the list floats in a Radix popover under the box.
 */
export function MultiCombobox({ field, id, error, options, searchTexts, action }: MultiComboboxProps) {
  const { t } = useTranslation();
  const { field: controller } = useController({ name: field.name });
  const selected: string[] = Array.isArray(controller.value) ? controller.value : [];
  // The box's text, set in its own event handlers: downshift reports its changes only after
  // rendering, and a box controlled from those reports dropped letters typed quickly.
  const [query, setQuery] = useState('');
  const anchor = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLInputElement | null>(null);
  const label = textOf(t, field.label);

  const labels = useMemo(
    () => new Map(options.map((option) => [option.value, textOf(t, option.label)])),
    [options, t],
  );
  const haystacks = useMemo(
    () =>
      new Map(
        options.map((option) => [
          option.value,
          foldForSearch(
            `${option.value} ${labels.get(option.value)} ${searchTexts?.get(option.value) ?? ''}`,
          ),
        ]),
      ),
    [options, labels, searchTexts],
  );
  const needle = foldForSearch(query);
  const shown = needle ? options.filter((option) => haystacks.get(option.value)?.includes(needle)) : options;
  const labelOf = (value: string) => labels.get(value) ?? value;

  const setSelected = (values: string[]) => controller.onChange(values);
  const toggle = (value: string) =>
    setSelected(selected.includes(value) ? selected.filter((item) => item !== value) : [...selected, value]);

  const {
    getInputProps,
    getMenuProps,
    getItemProps,
    highlightedIndex,
    isOpen,
    closeMenu,
    setHighlightedIndex,
  } = useCombobox<FormFieldOption>({
    items: [...shown],
    itemToString: (item) => (item ? labelOf(item.value) : ''),
    itemToKey: (item) => item?.value,
    inputValue: query,
    selectedItem: null,
    defaultHighlightedIndex: 0,
    inputId: id,
    menuId: `${id}-listbox`,
    getItemId: (index) => `${id}-option-${index}`,
    // Escape in a closed list empties the box.
    onInputValueChange: (changes) => setQuery(changes.inputValue ?? ''),
    // Leaving the box chooses nothing (a Tab past the list must not add the highlighted one).
    stateReducer: (_state, { type, changes }) =>
      type === change.InputBlur ? { ...changes, selectedItem: null, inputValue: '' } : changes,
  });

  /** Adds or removes a choice; the list stays open on it, the search cleared for the next one. */
  const choose = (option: FormFieldOption) => {
    toggle(option.value);
    setQuery('');
    setHighlightedIndex(options.indexOf(option));
  };
  const remove = (value: string) => {
    setSelected(selected.filter((item) => item !== value));
    input.current?.focus();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement> & { nativeEvent: DownshiftEvent }) => {
    const option = shown[highlightedIndex];
    if (event.key === 'Enter' && isOpen && option) {
      event.preventDefault();
      event.nativeEvent.preventDownshiftDefault = true;
      choose(option);
    } else if (event.key === 'Backspace' && query === '' && selected.length > 0 && !event.repeat) {
      setSelected(selected.slice(0, -1));
    }
  };

  return (
    <FieldFrame field={field} id={id} error={error} action={action}>
      {(control) => (
        <Popover open={isOpen && !field.disabled} onOpenChange={(open) => !open && closeMenu()}>
          <PopoverAnchor asChild>
            <div
              ref={anchor}
              className={cn(
                controlClassName,
                'flex min-h-10 flex-wrap items-center gap-1.5 px-2 py-1.5 focus-within:border-brand-600 dark:focus-within:border-brand-400',
                control['aria-invalid'] && 'border-red-500 dark:border-red-400',
                field.disabled && 'cursor-not-allowed bg-slate-100 dark:bg-slate-800',
              )}
            >
              {selected.map((value) => (
                <span
                  key={value}
                  className="inline-flex max-w-full items-center gap-0.5 rounded-md bg-slate-100 py-0.5 ps-2 pe-0.5 text-sm text-slate-800 dark:bg-slate-800 dark:text-slate-100"
                >
                  <bdi className="truncate">{labelOf(value)}</bdi>
                  <button
                    type="button"
                    onClick={() => remove(value)}
                    disabled={field.disabled}
                    aria-label={t('form.removeChoice', { name: labelOf(value) })}
                    className="inline-flex size-6 shrink-0 items-center justify-center rounded text-slate-600 hover:bg-slate-200 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-brand-600 dark:text-slate-300 dark:hover:bg-slate-700 dark:hover:text-white"
                  >
                    <CloseIcon className="size-3.5" />
                  </button>
                </span>
              ))}
              <input
                {...withoutStaleDescendant(
                  getInputProps({
                    ...control,
                    ref: (element: HTMLInputElement | null) => {
                      input.current = element;
                      controller.ref(element);
                    },
                    onChange: (event: ChangeEvent<HTMLInputElement>) => setQuery(event.target.value),
                    onBlur: () => {
                      setQuery('');
                      controller.onBlur();
                    },
                    onKeyDown,
                    'aria-label': label,
                    disabled: field.disabled,
                    placeholder: selected.length === 0 ? t('form.searchChoices') : undefined,
                  }),
                  highlightedIndex < shown.length,
                )}
                className="h-7 min-w-[8rem] flex-1 border-0 bg-transparent p-0 text-sm outline-none placeholder:text-slate-400 disabled:cursor-not-allowed dark:placeholder:text-slate-500"
              />
              <ChevronsUpDownIcon className="pointer-events-none size-4 shrink-0 text-slate-500" />
            </div>
          </PopoverAnchor>
          <PopoverContent
            inline
            role="presentation"
            sideOffset={4}
            className="w-(--radix-popover-trigger-width) p-1"
            onOpenAutoFocus={(event) => event.preventDefault()}
            onCloseAutoFocus={(event) => event.preventDefault()}
            onInteractOutside={(event) => {
              // The box is the list's own: a click or focus there is not "outside".
              if (anchor.current?.contains(event.target as Node)) event.preventDefault();
            }}
          >
            <div
              {...getMenuProps(
                { 'aria-label': label, 'aria-multiselectable': true },
                { suppressRefError: true },
              )}
              role="listbox"
              className="max-h-64 overflow-y-auto"
            >
              {shown.map((option, index) => {
                const chosen = selected.includes(option.value);
                return (
                  <div
                    key={option.value}
                    {...getItemProps({
                      item: option,
                      index,
                      onClick: (event: MouseEvent & { nativeEvent: DownshiftEvent }) => {
                        event.nativeEvent.preventDownshiftDefault = true;
                        choose(option);
                      },
                    })}
                    role="option"
                    tabIndex={-1}
                    aria-selected={chosen}
                    className={cn(
                      'flex cursor-pointer items-center gap-2 rounded-md px-2 py-1.5 text-sm text-slate-800 dark:text-slate-100',
                      highlightedIndex === index && 'bg-slate-100 dark:bg-slate-800',
                    )}
                  >
                    <CheckIcon
                      className={cn(
                        'size-4 shrink-0 text-brand-600 dark:text-brand-400',
                        !chosen && 'invisible',
                      )}
                    />
                    <bdi className="min-w-0 truncate">{labelOf(option.value)}</bdi>
                  </div>
                );
              })}
            </div>
            {shown.length === 0 && (
              <p role="status" className="px-2 py-1.5 text-sm text-slate-600 dark:text-slate-400">
                {t('form.noMatchingOptions')}
              </p>
            )}
          </PopoverContent>
        </Popover>
      )}
    </FieldFrame>
  );
}
