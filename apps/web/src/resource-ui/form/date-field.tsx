import 'react-day-picker/style.css';
import { useState } from 'react';
import { DayPicker } from 'react-day-picker';
import { ar } from 'react-day-picker/locale/ar';
import { useController } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { controlClassName } from '../../components/ui/input.tsx';
import { Popover, PopoverContent, PopoverTrigger } from '../../components/ui/popover.tsx';
import { cn } from '../../lib/class-names.ts';
import { useDirection } from '../../lib/use-direction.ts';
import { useFormatters } from '../../lib/use-formatters.ts';
import { FieldFrame } from './field-frame.tsx';
import { type FieldComponentProps, textOf, useFieldError } from './field-props.ts';

/** A date range as the form holds it: two calendar days, 'YYYY-MM-DD'. */
export interface DateRangeValue {
  from: string;
  to: string;
}

const pad = (n: number) => String(n).padStart(2, '0');
/** A calendar day as 'YYYY-MM-DD' in local time (toISOString would shift it by the time zone). */
export const toDay = (date: Date) =>
  `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
const fromDay = (day: string | undefined) => {
  const match = day ? /^(\d{4})-(\d{2})-(\d{2})/.exec(day) : null;
  return match ? new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : undefined;
};

/**
 * date: a button opening a calendar (localized, RTL in Arabic). Days after today are disabled.
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
  const today = new Date();

  const single = range ? undefined : fromDay(controller.value as string | undefined);
  const current = range ? (controller.value as DateRangeValue | undefined) : undefined;
  const from = fromDay(current?.from);
  const to = fromDay(current?.to);

  const label = range
    ? from && to
      ? `${formatDate(from)} – ${formatDate(to)}`
      : undefined
    : single
      ? formatDate(single)
      : undefined;
  const placeholder = field.placeholder
    ? textOf(t, field.placeholder)
    : t(range ? 'form.date.pickRange' : 'form.date.pick');

  const commonProps = {
    locale: i18n.language === 'ar' ? ar : undefined,
    dir,
    disabled: { after: today },
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
