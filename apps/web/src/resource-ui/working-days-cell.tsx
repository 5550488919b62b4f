import { numberFormat, secondsToTime, type Weekday, type WorkingDay, weekdays } from '@dukkan/contract';
import { useTranslation } from 'react-i18next';
import { CompactList } from './compact-list.tsx';

/** What a day's line says: closed, around the clock, or its two times. */
type DayHours = { kind: 'closed' } | { kind: 'allDay' } | { kind: 'open'; opensAt: number; closesAt: number };

function hoursOf(entry: WorkingDay | undefined): DayHours {
  if (!entry || entry.closed || entry.opensAt === undefined || entry.closesAt === undefined)
    return { kind: 'closed' };
  if (entry.opensAt === 0 && entry.closesAt === 86_400) return { kind: 'allDay' };
  return { kind: 'open', opensAt: entry.opensAt, closesAt: entry.closesAt };
}
const sameHours = (a: DayHours, b: DayHours) => JSON.stringify(a) === JSON.stringify(b);

/**
 * A week's hours in a few short lines, in the reader's clock (spec §9): days in a row with the same
 * hours share a line ("Mon–Thu"), a night shift is marked as ending the next day, and a day not in
 * the list is closed (as records saved before `closed` existed say it). No hours at all: "Closed".
 * A week of more than `limit` lines shows its first ones and "+N more", which unfolds the rest.
 */
export function WorkingDaysCell({ days, limit = 3 }: { days: readonly WorkingDay[]; limit?: number }) {
  const { t, i18n } = useTranslation();
  if (days.length === 0)
    return <span className="text-slate-500 dark:text-slate-400">{t('resources.locations.closed')}</span>;
  const digits = numberFormat(i18n.language, { minimumIntegerDigits: 2 });
  const time = (seconds: number) => {
    const [clock = '', period = ''] = secondsToTime(seconds, '12h').split(' ');
    const [hours = '0', minutes = '0'] = clock.split(':');
    return `${digits.format(Number(hours))}:${digits.format(Number(minutes))} ${t(`resources.locations.${period === 'AM' ? 'am' : 'pm'}`)}`;
  };
  const short = (day: Weekday) => t(`resources.locations.weekdays.${day}.short`);

  const runs: { first: Weekday; last: Weekday; hours: DayHours }[] = [];
  for (const day of weekdays) {
    const hours = hoursOf(days.find((entry) => entry.day === day));
    const previous = runs.at(-1);
    if (previous && sameHours(previous.hours, hours)) previous.last = day;
    else runs.push({ first: day, last: day, hours });
  }
  const nextDay = t('resources.locations.nextDay');
  const dayText = (first: Weekday, last: Weekday) =>
    first === last ? short(first) : `${short(first)}–${short(last)}`;
  const hoursText = (hours: DayHours) =>
    hours.kind === 'closed'
      ? t('resources.locations.closed')
      : hours.kind === 'allDay'
        ? t('resources.locations.allDay')
        : `${time(hours.opensAt)} – ${time(hours.closesAt)}${hours.closesAt < hours.opensAt ? ` (${nextDay})` : ''}`;

  return (
    <CompactList
      limit={limit}
      className="text-xs whitespace-nowrap"
      summary={runs.map(({ first, last, hours }) => `${dayText(first, last)} ${hoursText(hours)}`).join('\n')}
      items={runs.map(({ first, last, hours }) => ({
        key: first,
        node: (
          <>
            <span className="inline-block min-w-10 font-semibold">{dayText(first, last)}</span>{' '}
            {hours.kind === 'closed' ? (
              <span className="text-slate-500 dark:text-slate-400">{t('resources.locations.closed')}</span>
            ) : hours.kind === 'allDay' ? (
              t('resources.locations.allDay')
            ) : (
              <bdi>
                {time(hours.opensAt)} – {time(hours.closesAt)}
                {hours.closesAt < hours.opensAt && (
                  <>
                    <sup aria-hidden="true" title={nextDay} className="ms-0.5">
                      +{numberFormat(i18n.language).format(1)}
                    </sup>
                    <span className="sr-only"> ({nextDay})</span>
                  </>
                )}
              </bdi>
            )}
          </>
        ),
      }))}
    />
  );
}
