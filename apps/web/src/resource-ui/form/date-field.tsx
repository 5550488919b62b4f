import './date-field.css';
import { useState } from 'react';
import { DayPicker, getDefaultClassNames } from 'react-day-picker';
import { arEG } from 'react-day-picker/locale/ar-EG';
import { useController } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { controlClassName } from '../../components/ui/input.tsx';
import { Popover, PopoverContent, PopoverTrigger } from '../../components/ui/popover.tsx';
import { cn } from '../../lib/class-names.ts';
import { useDirection } from '../../lib/use-direction.ts';
import { useFormatters, useWorkspaceToday } from '../../lib/use-formatters.ts';
import { FieldFrame } from './field-frame.tsx';
import { type FieldComponentProps, textOf, useFieldError } from './field-props.ts';

/** A date range as the form holds it: two calendar days, 'YYYY-MM-DD'. */
interface DateRangeValue {
  from: string;
  to: string;
}

const pad = (n: number) => String(n).padStart(2, '0');
/** A calendar day as 'YYYY-MM-DD' in local time (toISOString would shift it by the time zone). */
const toDay = (date: Date) => `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
/** The first year the month and year lists offer (a brand or a shop older than that is rare). */
const firstYear = 1950;

/**
 * The calendar in the app's theme instead of the library's blue: its accent (selected day, today,
 * range ends, arrows) is the brand colour of the light or dark theme, a picked day is filled, days
 * show a hover, and the month and year lists get the app's focus ring. The library's own classes
 * stay (its layout rules), with the theme's utilities beside them.
 */
const defaults = getDefaultClassNames();
const calendarClassNames = {
  root: cn(
    defaults.root,
    '[--rdp-accent-color:var(--color-brand-700)] [--rdp-accent-background-color:var(--color-brand-50)]',
    'dark:[--rdp-accent-color:var(--color-brand-300)] dark:[--rdp-accent-background-color:var(--color-brand-950)]',
    '[--rdp-range_start-color:white] [--rdp-range_end-color:white]',
    'dark:[--rdp-range_start-color:var(--color-slate-950)] dark:[--rdp-range_end-color:var(--color-slate-950)]',
    '[--rdp-day-height:2.5rem] [--rdp-day-width:2.5rem]',
    '[--rdp-day_button-height:2.25rem] [--rdp-day_button-width:2.25rem]',
  ),
  month_caption: cn(defaults.month_caption, 'text-base'),
  dropdown_root: cn(defaults.dropdown_root, 'group'),
  dropdown: cn(defaults.dropdown, 'peer'),
  caption_label: cn(
    defaults.caption_label,
    'rounded-md px-1.5 group-hover:bg-slate-100 dark:group-hover:bg-slate-800',
    'peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-600 dark:peer-focus-visible:outline-brand-400',
  ),
  day_button: cn(defaults.day_button, 'enabled:hover:bg-slate-100 dark:enabled:hover:bg-slate-800'),
  selected: cn(defaults.selected, 'text-sm'),
};
/** The picked day of a single date is filled with the accent (a range's ends already are). */
const singleSelectedClassNames = {
  selected: '*:bg-(--rdp-accent-color) *:text-white dark:*:text-slate-950',
};

const fromDay = (day: string | undefined) => {
  const match = day ? /^(\d{4})-(\d{2})-(\d{2})/.exec(day) : null;
  return match ? new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : undefined;
};

/**
 * date: a button opening a calendar (localized, RTL in Arabic, Arabic-Indic digits as ar-EG writes
 * them). A month list and a year list (1950 to this year) jump to a far date in two choices; days
 * after today — the workspace's today, in its time zone, as the server reckons it — are disabled.
 * Single mode closes after one pick; range mode only once both ends are picked (spec §4).
 */
export function DateField({ field, id }: FieldComponentProps) {
  const { t, i18n } = useTranslation();
  const dir = useDirection();
  const { formatDate } = useFormatters();
  const { field: controller } = useController({ name: field.name });
  const error = useFieldError(field.name);
  const [open, setOpen] = useState(false);
  // The first end of a range being picked: the range is committed (and the popup closed) on the second.
  const [start, setStart] = useState<Date>();
  const range = field.mode === 'range';
  const today = fromDay(useWorkspaceToday())!;

  const single = range ? undefined : fromDay(controller.value as string | undefined);
  const current = range ? (controller.value as DateRangeValue | undefined) : undefined;
  const from = fromDay(current?.from);
  const to = fromDay(current?.to);

  // Calendar days, written as days (never shifted by a time zone).
  const label = range
    ? from && to
      ? `${formatDate(toDay(from))} – ${formatDate(toDay(to))}`
      : undefined
    : single
      ? formatDate(toDay(single))
      : undefined;
  const placeholder = field.placeholder
    ? textOf(t, field.placeholder)
    : t(range ? 'form.date.pickRange' : 'form.date.pick');

  const arabic = i18n.language === 'ar';
  const commonProps = {
    locale: arabic ? arEG : undefined,
    numerals: arabic ? ('arab' as const) : undefined,
    dir,
    classNames: calendarClassNames,
    captionLayout: 'dropdown' as const,
    // The month and year lists first, then the arrows: the Tab order follows what is seen.
    navLayout: 'after' as const,
    today,
    disabled: { after: today },
    startMonth: new Date(firstYear, 0),
    endMonth: today,
    defaultMonth: single ?? start ?? from ?? today,
  };

  return (
    <FieldFrame field={field} id={id} error={error}>
      {(control) => (
        <Popover
          open={open}
          onOpenChange={(next) => {
            setOpen(next);
            setStart(undefined);
            if (!next) controller.onBlur();
          }}
        >
          <PopoverTrigger asChild>
            <button
              {...control}
              ref={controller.ref}
              type="button"
              disabled={field.disabled}
              className={cn(
                controlClassName,
                'flex h-10 items-center text-start',
                !label && 'text-slate-400',
              )}
            >
              {label ?? placeholder}
            </button>
          </PopoverTrigger>
          <PopoverContent aria-label={t('form.date.calendar')}>
            {range ? (
              <DayPicker
                {...commonProps}
                mode="range"
                selected={start ? { from: start, to: start } : from ? { from, to } : undefined}
                onSelect={(_, day) => {
                  if (!start) {
                    setStart(day);
                    return;
                  }
                  const [first, last] = day < start ? [day, start] : [start, day];
                  controller.onChange({ from: toDay(first), to: toDay(last) });
                  setStart(undefined);
                  setOpen(false);
                }}
              />
            ) : (
              <DayPicker
                {...commonProps}
                mode="single"
                modifiersClassNames={singleSelectedClassNames}
                selected={single}
                onSelect={(_, day) => {
                  controller.onChange(toDay(day));
                  setOpen(false);
                }}
              />
            )}
          </PopoverContent>
        </Popover>
      )}
    </FieldFrame>
  );
}
