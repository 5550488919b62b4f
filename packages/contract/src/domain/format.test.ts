import { describe, expect, it } from 'vitest';
import {
  displayNames,
  formatDate,
  formatTime,
  formattingLocale,
  numberFormat,
  secondsToTime,
  timeToSeconds,
} from './format.ts';

/** Intl may separate with narrow or non-breaking spaces; compare with plain ones. */
const plain = (text: string) => text.replace(/[\u202f\u00a0]/g, ' ');
/** Arabic-Indic digits to ASCII, to check the numbers of an ar-EG text. */
const asciiDigits = (text: string) => text.replace(/[٠-٩]/g, (digit) => String(digit.charCodeAt(0) - 0x0660));

// Local-time constructors: the formatters use the machine's time zone, and so do these dates.
const sunday = new Date(2026, 10, 22, 14, 7);
const morning = new Date(2026, 0, 5, 0, 5);

describe('formattingLocale (spec §9: ar → ar-EG, any other → en-US)', () => {
  it.each([
    ['ar', 'ar-EG'],
    ['ar-SA', 'ar-EG'],
    ['en', 'en-US'],
    ['fr', 'en-US'],
    [undefined, 'en-US'],
  ])('%s → %s', (language, locale) => {
    expect(formattingLocale(language)).toBe(locale);
  });
});

describe('formatDate: short weekday, 2-digit day, short month, numeric year', () => {
  it('en-US', () => {
    expect(plain(formatDate(sunday, 'en'))).toBe('Sun, Nov 22, 2026');
    expect(plain(formatDate(morning))).toBe('Mon, Jan 05, 2026');
  });

  it('ar-EG: Arabic names and Arabic-Indic digits', () => {
    const text = formatDate(sunday, 'ar');
    expect(text).toContain('الأحد');
    expect(text).toContain('نوفمبر');
    expect(text).toMatch(/[٠-٩]/);
    expect(asciiDigits(text)).toContain('22');
    expect(asciiDigits(text)).toContain('2026');
    expect(asciiDigits(formatDate(morning, 'ar'))).toContain('05');
  });

  it('accepts a Date, an ISO string or a timestamp alike', () => {
    expect(formatDate(sunday.toISOString(), 'en')).toBe(formatDate(sunday, 'en'));
    expect(formatDate(sunday.getTime(), 'en')).toBe(formatDate(sunday, 'en'));
  });

  it("an instant is written as the date in the workspace's time zone", () => {
    // 22:30 UTC on 10 March is already the 11th in Cairo, still the 10th in New York.
    const lateEvening = '2026-03-10T22:30:00.000Z';
    expect(plain(formatDate(lateEvening, 'en', 'Africa/Cairo'))).toBe('Wed, Mar 11, 2026');
    expect(plain(formatDate(lateEvening, 'en', 'America/New_York'))).toBe('Tue, Mar 10, 2026');
    expect(plain(formatTime(lateEvening, 'en', 'Africa/Cairo'))).toBe('12:30 AM');
  });

  it('a calendar day is that day in every time zone', () => {
    for (const zone of [undefined, 'Pacific/Kiritimati', 'Pacific/Pago_Pago', 'Africa/Cairo'])
      expect(plain(formatDate('2026-03-10', 'en', zone))).toBe('Tue, Mar 10, 2026');
  });
});

describe('formatTime: 2-digit hour and minute, 12-hour clock', () => {
  it('en-US', () => {
    expect(plain(formatTime(sunday, 'en'))).toBe('02:07 PM');
    expect(plain(formatTime(morning, 'en'))).toBe('12:05 AM');
    expect(plain(formatTime(new Date(2026, 0, 5, 12, 0)))).toBe('12:00 PM');
  });

  it('ar-EG uses the Arabic day periods', () => {
    const afternoon = formatTime(sunday, 'ar');
    expect(asciiDigits(afternoon)).toContain('02:07');
    expect(afternoon).toContain('م');
    expect(formatTime(new Date(2026, 0, 5, 9, 30), 'ar')).toContain('ص');
  });
});

describe('timeToSeconds and secondsToTime (spec §9)', () => {
  it.each([
    ['00:00', 0],
    ['00:01', 60],
    ['01:00', 3600],
    ['09:30', 9 * 3600 + 30 * 60],
    ['12:00', 43_200],
    ['23:59', 23 * 3600 + 59 * 60],
  ])("'%s' → %i seconds", (time, seconds) => {
    expect(timeToSeconds(time)).toBe(seconds);
  });

  it('24-hour clock is the default', () => {
    expect(secondsToTime(0)).toBe('00:00');
    expect(secondsToTime(9 * 3600 + 30 * 60)).toBe('09:30');
    expect(secondsToTime(23 * 3600 + 59 * 60, '24h')).toBe('23:59');
  });

  it('12-hour clock: hh:mm a', () => {
    expect(secondsToTime(0, '12h')).toBe('12:00 AM');
    expect(secondsToTime(9 * 3600 + 5 * 60, '12h')).toBe('09:05 AM');
    expect(secondsToTime(12 * 3600, '12h')).toBe('12:00 PM');
    expect(secondsToTime(13 * 3600 + 45 * 60, '12h')).toBe('01:45 PM');
    expect(secondsToTime(23 * 3600 + 59 * 60, '12h')).toBe('11:59 PM');
  });

  it('seconds within a minute are dropped; a full day wraps to midnight', () => {
    expect(secondsToTime(59)).toBe('00:00');
    expect(secondsToTime(3600 + 59)).toBe('01:00');
    expect(secondsToTime(24 * 3600)).toBe('00:00');
  });

  it('round-trips every minute of the day', () => {
    for (let minute = 0; minute < 24 * 60; minute++) {
      const seconds = minute * 60;
      expect(timeToSeconds(secondsToTime(seconds))).toBe(seconds);
    }
  });
});

describe('cached formatters', () => {
  it('are made once per language and options', () => {
    expect(numberFormat('en')).toBe(numberFormat('en-GB'));
    expect(numberFormat('ar', { maximumFractionDigits: 2 })).toBe(
      numberFormat('ar', { maximumFractionDigits: 2 }),
    );
    expect(numberFormat('ar')).not.toBe(numberFormat('en'));
    expect(numberFormat('ar', { style: 'percent' })).not.toBe(numberFormat('ar'));
    expect(numberFormat('ar').format(12)).toBe('١٢');
    expect(displayNames('en', 'currency')).toBe(displayNames('en', 'currency'));
    expect(displayNames('ar', 'region').of('EG')).toBe(
      new Intl.DisplayNames(['ar-EG'], { type: 'region' }).of('EG'),
    );
    expect(formatDate('2026-11-22T10:00:00Z', 'en')).toBe(formatDate('2026-11-22T10:00:00Z', 'en'));
  });
});
