import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addCalendarDays,
  addCalendarMonths,
  canonicalTimeZone,
  instantAt,
  localDate,
  localDateTime,
  timeZoneLabel,
  timeZoneNames,
  timeZoneOptions,
} from './time-zone.ts';

const at = (iso: string) => new Date(iso);
/** Zones with something to test: DST both ways, a 30-minute DST, 45-minute and +14 offsets, none. */
const zones = [
  'Africa/Cairo',
  'America/New_York',
  'Europe/London',
  'Australia/Lord_Howe',
  'Asia/Kathmandu',
  'Pacific/Kiritimati',
  'America/Sao_Paulo',
  'Asia/Riyadh',
  'UTC',
] as const;
const anyZone = fc.constantFrom(...zones);
const anyInstant = fc.date({
  min: new Date('2000-01-01T00:00:00Z'),
  max: new Date('2090-12-31T00:00:00Z'),
  noInvalidDate: true,
});
const iso = (date: Date) => date.toISOString();
const wall = (date: Date, zone: string) => {
  const { year, month, day, hour, minute, second, millisecond } = localDateTime(date, zone);
  return { year, month, day, hour, minute, second, millisecond };
};

describe("a workspace's today: the local date of an instant in its zone", () => {
  it('Cairo turns the day at its own midnight: 22:00 UTC in winter (UTC+2), 21:00 UTC in summer (UTC+3)', () => {
    expect(localDate(at('2026-03-10T21:59:59.999Z'), 'Africa/Cairo')).toBe('2026-03-10');
    expect(localDate(at('2026-03-10T22:00:00.000Z'), 'Africa/Cairo')).toBe('2026-03-11');
    expect(localDate(at('2026-07-10T20:59:59.999Z'), 'Africa/Cairo')).toBe('2026-07-10');
    expect(localDate(at('2026-07-10T21:00:00.000Z'), 'Africa/Cairo')).toBe('2026-07-11');
    // UTC itself still says the 10th at both instants.
    expect(localDate(at('2026-07-10T21:00:00.000Z'), 'UTC')).toBe('2026-07-10');
  });

  it("across Cairo's changes of the clocks (2026: 24 April 00:00 → 01:00, 29 October 24:00 → 23:00)", () => {
    // Spring: the last second of the 23rd, then 01:00 of the 24th.
    expect(localDate(at('2026-04-23T21:59:59Z'), 'Africa/Cairo')).toBe('2026-04-23');
    expect(wall(at('2026-04-23T22:00:00Z'), 'Africa/Cairo')).toMatchObject({ day: 24, hour: 1, minute: 0 });
    // Autumn: 23:00–23:59 of the 29th happens twice, and the 30th starts once, at 22:00 UTC.
    expect(wall(at('2026-10-29T20:59:59Z'), 'Africa/Cairo')).toMatchObject({ day: 29, hour: 23 });
    expect(wall(at('2026-10-29T21:00:00Z'), 'Africa/Cairo')).toMatchObject({ day: 29, hour: 23, minute: 0 });
    expect(localDate(at('2026-10-29T21:59:59Z'), 'Africa/Cairo')).toBe('2026-10-29');
    expect(localDate(at('2026-10-29T22:00:00Z'), 'Africa/Cairo')).toBe('2026-10-30');
  });

  it('property: in UTC it is the ISO date; elsewhere, the ISO date of the instant moved by the zone’s offset', () => {
    fc.assert(
      fc.property(anyInstant, anyZone, (instant, zone) => {
        expect(localDate(instant, 'UTC')).toBe(iso(instant).slice(0, 10));
        const local = wall(instant, zone);
        const offset =
          Date.UTC(
            local.year,
            local.month - 1,
            local.day,
            local.hour,
            local.minute,
            local.second,
            local.millisecond,
          ) - instant.getTime();
        // No zone is more than 14 hours from UTC, and the offset is whole minutes.
        expect(Math.abs(offset)).toBeLessThanOrEqual(14 * 3_600_000);
        expect(Math.abs(offset % 60_000)).toBe(0);
        expect(localDate(instant, zone)).toBe(iso(new Date(instant.getTime() + offset)).slice(0, 10));
      }),
    );
  });

  it('property: the local date never goes back as time goes on, and moves by at most a day an hour', () => {
    fc.assert(
      fc.property(anyInstant, anyZone, fc.integer({ min: 1, max: 3_600_000 }), (instant, zone, later) => {
        const before = localDate(instant, zone);
        const after = localDate(new Date(instant.getTime() + later), zone);
        expect(after >= before).toBe(true);
        const days = (Date.parse(after) - Date.parse(before)) / 86_400_000;
        expect(days).toBeLessThanOrEqual(1);
      }),
    );
  });
});

describe('the instant a wall-clock time happens in a zone', () => {
  it('property: the wall clock of an instant leads back to that instant, or to the first showing of that time', () => {
    fc.assert(
      fc.property(anyInstant, anyZone, (instant, zone) => {
        const back = instantAt(localDateTime(instant, zone), zone);
        expect(wall(back, zone)).toEqual(wall(instant, zone));
        // Equal, or an hour (Lord Howe: half an hour) earlier when the clocks showed that time twice.
        expect(instant.getTime() - back.getTime()).toBeGreaterThanOrEqual(0);
        expect(instant.getTime() - back.getTime()).toBeLessThanOrEqual(3_600_000);
      }),
    );
  });

  it('a time shown twice is its first showing; a time never shown moves forward by the gap', () => {
    const local = { year: 2026, month: 11, day: 1, hour: 1, minute: 30, second: 0, millisecond: 0 };
    expect(iso(instantAt(local, 'America/New_York'))).toBe('2026-11-01T05:30:00.000Z');
    // 02:30 on 8 March 2026 never happens in New York: 03:30 EDT.
    expect(iso(instantAt({ ...local, month: 3, day: 8, hour: 2 }, 'America/New_York'))).toBe(
      '2026-03-08T07:30:00.000Z',
    );
    // 00:30 on 24 April 2026 never happens in Cairo: 01:30 EEST.
    expect(iso(instantAt({ ...local, month: 4, day: 24, hour: 0 }, 'Africa/Cairo'))).toBe(
      '2026-04-23T22:30:00.000Z',
    );
  });
});

describe('calendar months and days in a zone (subscription periods, trials, grace)', () => {
  it("a month after 31 January is the end of February, at Cairo's wall-clock time", () => {
    // 12:00 in Cairo on 31 January 2026 → 12:00 on 28 February.
    expect(iso(addCalendarMonths(at('2026-01-31T10:00:00Z'), 1, 'Africa/Cairo'))).toBe(
      '2026-02-28T10:00:00.000Z',
    );
    // 01:00 in Cairo on 31 March (23:00 UTC on the 30th): its month ends on 30 April in Cairo,
    // where counting in UTC would have made it 1 May.
    expect(localDate(addCalendarMonths(at('2026-03-30T23:00:00Z'), 1, 'Africa/Cairo'), 'Africa/Cairo')).toBe(
      '2026-04-30',
    );
    expect(localDate(addCalendarMonths(at('2026-03-30T23:00:00Z'), 1, 'UTC'), 'Africa/Cairo')).toBe(
      '2026-05-01',
    );
  });

  it('keeps the wall-clock time over a change of the clocks: the period is an hour shorter, not a day off', () => {
    // 11:30 in Cairo on 1 February (UTC+2) → 11:30 on 1 May (UTC+3).
    expect(iso(addCalendarMonths(at('2026-02-01T09:30:00Z'), 3, 'Africa/Cairo'))).toBe(
      '2026-05-01T08:30:00.000Z',
    );
    // Seven days from 13:00 on 26 October (UTC+3) over the autumn change: 13:00 on 2 November (UTC+2).
    expect(iso(addCalendarDays(at('2026-10-26T10:00:00Z'), 7, 'Africa/Cairo'))).toBe(
      '2026-11-02T11:00:00.000Z',
    );
  });

  it('property: n months later is the same wall time on the same day, or the month’s last day', () => {
    fc.assert(
      fc.property(anyInstant, anyZone, fc.integer({ min: -24, max: 36 }), (instant, zone, months) => {
        const from = wall(instant, zone);
        const to = wall(addCalendarMonths(instant, months, zone), zone);
        expect((to.year - from.year) * 12 + (to.month - from.month)).toBe(months);
        const lastDay = new Date(Date.UTC(to.year, to.month, 0)).getUTCDate();
        expect(to.day).toBe(Math.min(from.day, lastDay));
        // Same wall time, unless it fell in a gap (moved forward by at most an hour).
        const minutes = (value: typeof from) => value.hour * 60 + value.minute;
        expect(minutes(to) - minutes(from)).toBeGreaterThanOrEqual(0);
        expect(minutes(to) - minutes(from)).toBeLessThanOrEqual(60);
      }),
    );
  });

  it('property: n days later is n local dates later', () => {
    fc.assert(
      fc.property(anyInstant, anyZone, fc.integer({ min: 0, max: 400 }), (instant, zone, days) => {
        const later = addCalendarDays(instant, days, zone);
        const span = (Date.parse(localDate(later, zone)) - Date.parse(localDate(instant, zone))) / 86_400_000;
        // A gap at midnight can push the wall time into the next day: never more.
        expect(span === days || span === days + 1).toBe(true);
      }),
    );
  });
});

describe('which zones a workspace may choose', () => {
  it("takes the runtime's named zones in any case and as aliases, stored as the runtime names them", () => {
    expect(canonicalTimeZone('Africa/Cairo')).toBe('Africa/Cairo');
    expect(canonicalTimeZone('africa/cairo')).toBe('Africa/Cairo');
    expect(canonicalTimeZone('Etc/UTC')).toBe('UTC');
    expect(canonicalTimeZone('UTC')).toBe('UTC');
    expect(canonicalTimeZone('US/Eastern')).toBe('America/New_York');
    // Browsers and Node name India differently; both are the same zone here.
    expect(canonicalTimeZone('Asia/Kolkata')).toBe(canonicalTimeZone('Asia/Calcutta'));
  });

  it('refuses what is no named zone: offsets, unknown places, and shapes Intl would read', () => {
    for (const name of [
      '',
      'Mars/Olympus_Mons',
      '+02:00',
      'GMT+2',
      'Africa/',
      '/Cairo',
      'Africa Cairo',
      'x'.repeat(65),
    ])
      expect(canonicalTimeZone(name), name).toBeNull();
  });

  it('property: every listed zone is its own canonical name', () => {
    fc.assert(
      fc.property(fc.constantFrom(...timeZoneNames()), (zone) => {
        expect(canonicalTimeZone(zone)).toBe(zone);
      }),
    );
    expect(timeZoneNames()).toContain('Africa/Cairo');
    expect(timeZoneNames()).toContain('UTC');
  });

  it('labels a zone with its offset, city and name in the reader’s language', () => {
    const winter = at('2026-01-15T12:00:00Z');
    expect(timeZoneLabel('Africa/Cairo', 'en', winter)).toBe('(GMT+02:00) Cairo — Eastern European Time');
    expect(timeZoneLabel('Africa/Cairo', 'ar', winter)).toBe('توقيت مصر · Cairo · غرينتش+٠٢:٠٠');
    expect(timeZoneLabel('UTC', 'ar', winter)).toBe('UTC · غرينتش+٠٠:٠٠');
    expect(timeZoneLabel('America/Argentina/Buenos_Aires', 'en', winter)).toMatch(
      /^\(GMT-03:00\) Buenos Aires/,
    );
    expect(timeZoneLabel('UTC', 'en', winter)).toBe('(GMT+00:00) UTC');
    const options = timeZoneOptions('en', [], winter);
    // West to east.
    const index = (zone: string) => options.findIndex((option) => option.value === zone);
    expect(index('America/New_York')).toBeLessThan(index('UTC'));
    expect(index('UTC')).toBeLessThan(index('Africa/Cairo'));
    expect(index('Africa/Cairo')).toBeLessThan(index('Pacific/Kiritimati'));
    expect(options).toHaveLength(timeZoneNames().length);
  });
});
