import { formattingLocale } from './format.ts';

/**
 * A workspace's time zone is an IANA name (`Africa/Cairo`): what "today" means for it, when its
 * subscription periods and trials end, and how the dates of its mails and pages read. These are
 * the few pure functions that turn an instant into that zone's calendar and back; everything
 * else asks them. Built on `Intl` (the runtime's time zone data), no library.
 */

/** The time zone of a workspace that never chose one (Dukkan's merchants are in Egypt first). */
export const defaultTimeZone = 'Africa/Cairo';

/** A wall-clock date and time in some zone; `month` is 1–12. */
export interface LocalDateTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

// A named zone: `Area/Location[/Sub]` or a single word (`UTC`); never an offset (`+02:00`), which
// `Intl` would accept too.
const zoneShape = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/;

let knownZones: ReadonlySet<string> | undefined;
const zoneSet = () => {
  knownZones ??= new Set([...Intl.supportedValuesOf('timeZone'), 'UTC']);
  return knownZones;
};

/** Every zone a workspace may choose: the runtime's IANA zones and UTC, sorted by name. */
export function timeZoneNames(): readonly string[] {
  return [...zoneSet()].sort();
}

/**
 * The runtime's own name of a zone — its case corrected, an alias made canonical
 * (`asia/riyadh` → `Asia/Riyadh`, `US/Eastern` → `America/New_York`, `Etc/UTC` → `UTC`) — or null
 * when it is no zone a workspace may choose. Browsers and Node disagree on a few canonical names
 * (`Asia/Kolkata` and `Asia/Calcutta`): either is accepted and stored as this runtime names it.
 */
export function canonicalTimeZone(name: string): string | null {
  if (name.length > 64 || !zoneShape.test(name)) return null;
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
  return zoneSet().has(resolved) ? resolved : null;
}

// Formatters are slow to make (~0.2 ms) and immutable: one per zone for the life of the process.
const partFormats = new Map<string, Intl.DateTimeFormat>();
function partFormat(timeZone: string): Intl.DateTimeFormat {
  let format = partFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    partFormats.set(timeZone, format);
  }
  return format;
}

/** The wall-clock date and time in `timeZone` at `instant` (years 1–9999). */
export function localDateTime(instant: Date, timeZone: string): LocalDateTime {
  const parts: Record<string, number> = {};
  for (const part of partFormat(timeZone).formatToParts(instant)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return {
    year: parts.year!,
    month: parts.month!,
    day: parts.day!,
    hour: parts.hour!,
    minute: parts.minute!,
    second: parts.second!,
    millisecond: ((instant.getTime() % 1000) + 1000) % 1000,
  };
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/**
 * The calendar day (`YYYY-MM-DD`) it is in `timeZone` at `instant`: "today" for a workspace
 * is `localDate(now, workspace.timeZone)`.
 */
export function localDate(instant: Date, timeZone: string): string {
  const { year, month, day } = localDateTime(instant, timeZone);
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
}

const asUtc = (local: LocalDateTime) =>
  Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute, local.second, local.millisecond);

/** How far `timeZone`'s clocks are ahead of UTC at `epochMs`, in milliseconds. */
function offsetAt(epochMs: number, timeZone: string): number {
  return asUtc(localDateTime(new Date(epochMs), timeZone)) - epochMs;
}

const dayMs = 24 * 60 * 60 * 1000;

/**
 * The instant the clocks of `timeZone` show `local`. A time shown twice (clocks turned back) is
 * its first showing; a time never shown (clocks turned forward over it) moves forward by the
 * gap, 00:30 in a 00:00 → 01:00 gap becoming 01:30 — as Temporal's `compatible` does.
 */
export function instantAt(local: LocalDateTime, timeZone: string): Date {
  const wall = asUtc(local);
  // Zones change their offset at most once in two days: the offsets a day either side are the candidates.
  const before = offsetAt(wall - dayMs, timeZone);
  const after = offsetAt(wall + dayMs, timeZone);
  const fits = [before, after]
    .map((offset) => wall - offset)
    .filter((candidate) => offsetAt(candidate, timeZone) === wall - candidate);
  if (fits.length > 0) return new Date(Math.min(...fits));
  return new Date(wall - before);
}

const daysInMonth = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/**
 * `months` calendar months after `from` in `timeZone`, at the same wall-clock time; a day the
 * target month lacks becomes its last day (31 January + 1 month = 28 or 29 February).
 */
export function addCalendarMonths(from: Date, months: number, timeZone: string): Date {
  const local = localDateTime(from, timeZone);
  const monthIndex = local.year * 12 + (local.month - 1) + months;
  const year = Math.floor(monthIndex / 12);
  const month = (monthIndex % 12) + 1;
  return instantAt({ ...local, year, month, day: Math.min(local.day, daysInMonth(year, month)) }, timeZone);
}

/** `days` calendar days after `from` in `timeZone`, at the same wall-clock time (23 or 25 hours over a change of the clocks). */
export function addCalendarDays(from: Date, days: number, timeZone: string): Date {
  const local = localDateTime(from, timeZone);
  const date = new Date(Date.UTC(local.year, local.month - 1, local.day + days));
  return instantAt(
    { ...local, year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() },
    timeZone,
  );
}

/**
 * The zone's offset from UTC at `at`, as the language writes it: "GMT+02:00", "غرينتش+٠٢:٠٠"
 * (ICU's long offset format, written here from the offset the zone's cached formatter gives:
 * one formatter less per zone, of the two hundred milliseconds a whole list costs).
 */
function offsetText(timeZone: string, language: string, at: Date): string {
  let minutes: number;
  try {
    minutes = Math.round(offsetAt(at.getTime(), timeZone) / 60_000);
  } catch {
    return '';
  }
  const hours = String(Math.floor(Math.abs(minutes) / 60)).padStart(2, '0');
  const text = `${minutes < 0 ? '-' : '+'}${hours}:${String(Math.abs(minutes) % 60).padStart(2, '0')}`;
  return language.startsWith('ar')
    ? `غرينتش${text.replace(/\d/g, (digit) => String.fromCharCode(0x0660 + Number(digit)))}`
    : `GMT${text}`;
}

function zoneNamePart(
  timeZone: string,
  language: string,
  style: Intl.DateTimeFormatOptions['timeZoneName'],
  at: Date,
): string {
  try {
    return (
      new Intl.DateTimeFormat(formattingLocale(language), { timeZone, timeZoneName: style })
        .formatToParts(at)
        .find((part) => part.type === 'timeZoneName')?.value ?? ''
    );
  } catch {
    // A zone this runtime does not know (a name stored by another): named by its IANA name alone.
    return '';
  }
}

/**
 * A zone as a person picks it, in their language: its offset now, its city as the IANA name
 * says it, and the zone's name — "(GMT+02:00) Cairo — Eastern European Time" (English's long
 * generic name); "توقيت مصر · Cairo · غرينتش+٠٢:٠٠" (Arabic's short one, which names the country
 * or city), without brackets, which a right-to-left line would mirror around the Latin city.
 */
export function timeZoneLabel(timeZone: string, language: string, at: Date = new Date()): string {
  const offset = offsetText(timeZone, language, at);
  if (!offset) return timeZone;
  const city = (timeZone.split('/').at(-1) ?? timeZone).replaceAll('_', ' ');
  const arabic = language.startsWith('ar');
  const name = zoneNamePart(timeZone, language, arabic ? 'shortGeneric' : 'longGeneric', at);
  // UTC and a few others have no name but their offset.
  const named = name && !/[\d٠-٩]/.test(name) ? name : '';
  if (arabic) return [named, city, offset].filter(Boolean).join(' · ');
  return `(${offset}) ${city}${named ? ` — ${named}` : ''}`;
}

/**
 * Every zone a workspace may choose, as choices in `language`, west to east (by their offset at
 * `at`, then by label); `stored` is offered too when this runtime does not list it. Making the
 * ~420 labels costs a formatter a zone (~0.1–0.2 ms each), so a caller makes them once, when
 * the list is first shown.
 */
export function timeZoneOptions(
  language: string,
  stored: readonly string[] = [],
  at: Date = new Date(),
): { value: string; label: string }[] {
  const zones = [...new Set([...timeZoneNames(), ...stored])];
  // The offsets are cached with each zone's formatter: the labels made them already.
  const offsetOf = (zone: string) => {
    try {
      return offsetAt(at.getTime(), zone);
    } catch {
      return 0;
    }
  };
  return zones
    .map((zone) => ({ value: zone, label: timeZoneLabel(zone, language, at), offset: offsetOf(zone) }))
    .sort((a, b) => a.offset - b.offset || a.label.localeCompare(b.label, 'en'))
    .map(({ value, label }) => ({ value, label }));
}
