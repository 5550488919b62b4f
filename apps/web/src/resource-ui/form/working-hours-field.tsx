import { formattingLocale, type Weekday, type WorkingDayFormValue, weekdays } from '@dukkan/contract';
import { useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/ui/button.tsx';
import { Checkbox } from '../../components/ui/checkbox.tsx';
import { Input } from '../../components/ui/input.tsx';
import { errorIdOf, FieldFrame } from './field-frame.tsx';
import { type FieldComponentProps, useFieldError } from './field-props.ts';
import { useFormMessageText } from './form-messages.ts';

type Week = Partial<Record<Weekday, Partial<WorkingDayFormValue>>>;

/** 1 January 2024 was a Monday: the weekday names in the reader's language, from Intl. */
const weekdayName = (day: Weekday, locale: string) =>
  new Intl.DateTimeFormat(locale, { weekday: 'long' }).format(new Date(2024, 0, 1 + weekdays.indexOf(day)));

/** The first day (in the week's order) with hours: what "same hours every day" copies. */
function firstHours(week: Week): { opensAt: string; closesAt: string } | undefined {
  for (const day of weekdays) {
    const hours = week[day];
    if (hours && !hours.closed && hours.opensAt && hours.closesAt)
      return { opensAt: hours.opensAt, closesAt: hours.closesAt };
  }
  return undefined;
}

/**
 * workingHours: one row per weekday — a "closed" box, or an opening and a closing time; a closing
 * time before the opening one ends on the next day (said under it). "Same hours every day" copies
 * the first day's hours to every day not marked closed.
 */
export function WorkingHoursField({ field, id }: FieldComponentProps) {
  const { t, i18n } = useTranslation();
  const { register, setValue, trigger, formState } = useFormContext();
  const week = (useWatch({ name: field.name }) ?? {}) as Week;
  const locale = formattingLocale(i18n.language);
  const source = firstHours(week);

  const fillWeek = () => {
    if (!source) return;
    for (const day of weekdays) {
      if (week[day]?.closed) continue;
      setValue(`${field.name}.${day}.opensAt`, source.opensAt, { shouldDirty: true });
      setValue(`${field.name}.${day}.closesAt`, source.closesAt, { shouldDirty: true });
    }
    // Messages already shown (after a submit) follow the new values at once.
    if (formState.isSubmitted) void trigger(field.name);
  };

  return (
    <FieldFrame field={{ ...field, disableRequiredIndicator: true }} id={id} asGroup>
      {() => (
        <div className="space-y-2">
          <Button type="button" variant="secondary" size="sm" disabled={!source} onClick={fillWeek}>
            {t('form.workingHours.sameHours')}
          </Button>
          <div className="divide-y divide-slate-200 rounded-lg border border-slate-200 dark:divide-slate-700 dark:border-slate-700">
            {weekdays.map((day) => (
              <WorkingDayRow
                key={day}
                name={`${field.name}.${day}`}
                id={`${id}-${day}`}
                dayName={weekdayName(day, locale)}
                hours={week[day] ?? {}}
                register={register}
              />
            ))}
          </div>
        </div>
      )}
    </FieldFrame>
  );
}

interface WorkingDayRowProps {
  name: string;
  id: string;
  dayName: string;
  hours: Partial<WorkingDayFormValue>;
  register: ReturnType<typeof useFormContext>['register'];
}

function WorkingDayRow({ name, id, dayName, hours, register }: WorkingDayRowProps) {
  const { t } = useTranslation();
  const closed = hours.closed === true;
  const endsNextDay = !closed && !!hours.opensAt && !!hours.closesAt && hours.closesAt < hours.opensAt;
  return (
    <div className="flex flex-wrap items-start gap-x-4 gap-y-2 px-3 py-2" data-day={name}>
      <span className="w-24 pt-2.5 text-sm font-semibold">{dayName}</span>
      <span className="flex items-center gap-2 pt-2.5 text-sm">
        <Checkbox
          {...register(`${name}.closed`)}
          id={`${id}-closed`}
          aria-label={t('form.workingHours.closedOn', { day: dayName })}
        />
        {/* The visible word; the box's name also says which day ("Friday closed"). */}
        <label htmlFor={`${id}-closed`}>{t('form.workingHours.closed')}</label>
      </span>
      {closed ? null : (
        <div className="flex flex-wrap gap-2">
          <TimeBox
            name={`${name}.opensAt`}
            id={`${id}-opens`}
            label={t('form.workingHours.opensOn', { day: dayName })}
            caption={t('form.workingHours.opens')}
            register={register}
          />
          <TimeBox
            name={`${name}.closesAt`}
            id={`${id}-closes`}
            label={t('form.workingHours.closesOn', { day: dayName })}
            caption={t('form.workingHours.closes')}
            register={register}
            hint={endsNextDay ? t('form.workingHours.endsNextDay') : undefined}
          />
        </div>
      )}
    </div>
  );
}

interface TimeBoxProps {
  name: string;
  id: string;
  label: string;
  caption: string;
  hint?: string;
  register: ReturnType<typeof useFormContext>['register'];
}

function TimeBox({ name, id, label, caption, hint, register }: TimeBoxProps) {
  const error = useFieldError(name);
  const text = useFormMessageText();
  const hintId = `${id}-hint`;
  const describedBy = [error ? errorIdOf(id) : undefined, hint ? hintId : undefined]
    .filter(Boolean)
    .join(' ');
  return (
    <div className="w-36 space-y-1">
      <span className="block text-xs text-slate-600 dark:text-slate-400" aria-hidden="true">
        {caption}
      </span>
      <Input
        {...register(name)}
        id={id}
        type="time"
        step={60}
        dir="ltr"
        className="text-start"
        aria-label={label}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
      />
      {hint && (
        <p id={hintId} className="text-xs text-slate-600 dark:text-slate-400">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorIdOf(id)} className="text-sm text-red-600 dark:text-red-400">
          {text(error)}
        </p>
      )}
    </div>
  );
}
