/** `ar` maps to `ar-EG`, any other language to `en-US` (spec §9). */
export function formattingLocale(language: string | undefined): 'ar-EG' | 'en-US' {
  return language?.startsWith('ar') ? 'ar-EG' : 'en-US';
}

// Intl formatters are slow to make (a list made four per render, ~40 ms on a first load) and
// immutable once made: one per locale and options, for the life of the page or the server.
const formatters = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat | Intl.DisplayNames>();
function cached<T extends Intl.NumberFormat | Intl.DateTimeFormat | Intl.DisplayNames>(
  key: string,
  make: () => T,
): T {
  let formatter = formatters.get(key) as T | undefined;
  if (!formatter) {
    formatter = make();
    formatters.set(key, formatter);
  }
  return formatter;
}

/** A number formatter in the language's formatting locale (`formattingLocale`), made once. */
export function numberFormat(language: string | undefined, options: Intl.NumberFormatOptions = {}) {
  const locale = formattingLocale(language);
  return cached(`number ${locale} ${JSON.stringify(options)}`, () => new Intl.NumberFormat(locale, options));
}

/** A date and time formatter in the language's formatting locale, made once. */
export function dateTimeFormat(language: string | undefined, options: Intl.DateTimeFormatOptions) {
  const locale = formattingLocale(language);
  return cached(`date ${locale} ${JSON.stringify(options)}`, () => new Intl.DateTimeFormat(locale, options));
}

/** The names of regions or currencies in the language's formatting locale, made once. */
export function displayNames(language: string | undefined, type: 'region' | 'currency') {
  const locale = formattingLocale(language);
  return cached(`names ${locale} ${type}`, () => new Intl.DisplayNames([locale], { type }));
}

const calendarDay = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Short weekday, 2-digit day, short month and numeric year, e.g. "Sun, Nov 22, 2026". An instant
 * is written as its date in `timeZone` (a workspace's; the runtime's own when absent); a calendar
 * day (`YYYY-MM-DD`, a brand's creation) is that day in every zone.
 */
export function formatDate(value: Date | string | number, language?: string, timeZone?: string): string {
  const day = typeof value === 'string' && calendarDay.test(value);
  return dateTimeFormat(language, {
    weekday: 'short',
    day: '2-digit',
    month: 'short',
    year: 'numeric',
    ...(day ? { timeZone: 'UTC' } : timeZone ? { timeZone } : {}),
  }).format(new Date(day ? `${value}T00:00:00Z` : value));
}

/** 2-digit hour and minute, 12-hour clock, e.g. "02:07 AM", in `timeZone` (the runtime's own when absent). */
export function formatTime(value: Date | string | number, language?: string, timeZone?: string): string {
  return dateTimeFormat(language, {
    hour: '2-digit',
    minute: '2-digit',
    hour12: true,
    ...(timeZone ? { timeZone } : {}),
  }).format(new Date(value));
}

/** 'HH:MM' → seconds since midnight (hours*3600 + minutes*60). */
export function timeToSeconds(time: string): number {
  const [hours = '0', minutes = '0'] = time.split(':');
  return Number(hours) * 3600 + Number(minutes) * 60;
}

/** Seconds since midnight → 'HH:mm' (24-hour, default) or 'hh:mm a' (12-hour). */
export function secondsToTime(seconds: number, clock: '24h' | '12h' = '24h'): string {
  const totalMinutes = Math.floor(seconds / 60);
  const hours = Math.floor(totalMinutes / 60) % 24;
  const minutes = totalMinutes % 60;
  const mm = String(minutes).padStart(2, '0');
  if (clock === '24h') return `${String(hours).padStart(2, '0')}:${mm}`;
  const hour12 = hours % 12 === 0 ? 12 : hours % 12;
  return `${String(hour12).padStart(2, '0')}:${mm} ${hours < 12 ? 'AM' : 'PM'}`;
}
