import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { z } from 'zod';
import { brandInputSchema } from '../resources/brands.ts';
import { locationsResource } from '../resources/locations.ts';
import { validationCodes as codes } from '../validation-codes.ts';
import { dateField, latestToday } from './fields.ts';

const messages = (schema: z.ZodType, value: unknown) => {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error.issues.map((issue) => [issue.path.join('.'), issue.message]);
};

/** The calendar day after `day` (`YYYY-MM-DD`). */
const nextDay = (day: string) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
/** The calendar day at `instant` in a time zone `offsetMinutes` ahead of UTC. */
const dayAt = (instant: Date, offsetMinutes: number) =>
  new Date(instant.getTime() + offsetMinutes * 60_000).toISOString().slice(0, 10);

afterEach(() => {
  vi.useRealTimers();
});

describe('a date field: not after today anywhere on Earth', () => {
  it('today is the date in UTC+14: 10:00 UTC is already the next day there', () => {
    expect(latestToday(new Date('2025-03-10T09:59:59.999Z'))).toBe('2025-03-10');
    expect(latestToday(new Date('2025-03-10T10:00:00.000Z'))).toBe('2025-03-11');
    expect(latestToday(new Date('2024-12-31T23:00:00.000Z'))).toBe('2025-01-01');
  });

  it('takes that day and refuses the next with DATE_IN_FUTURE, at the clock of the parse', () => {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2025-03-10T09:59:59.999Z') });
    expect(messages(dateField, '2025-03-10')).toEqual([]);
    expect(messages(dateField, '2025-03-11')).toEqual([['', codes.DATE_IN_FUTURE]]);
    vi.setSystemTime(new Date('2025-03-10T10:00:00.000Z'));
    expect(messages(dateField, '2025-03-11')).toEqual([]);
    expect(messages(dateField, '2025-03-12')).toEqual([['', codes.DATE_IN_FUTURE]]);
    // A date that is no date stays DATE_IS_INVALID.
    expect(messages(dateField, '2025-02-30')[0]).toEqual(['', codes.DATE_IS_INVALID]);
  });

  it("property: anyone's today is taken, in any time zone from UTC-12 to UTC+14; the day after UTC+14's is refused", () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    fc.assert(
      fc.property(
        fc.date({
          min: new Date('2000-01-01T00:00:00Z'),
          max: new Date('2099-12-31T00:00:00Z'),
          noInvalidDate: true,
        }),
        fc.integer({ min: -12 * 60, max: 14 * 60 }),
        (now, offsetMinutes) => {
          vi.setSystemTime(now);
          const today = dayAt(now, offsetMinutes);
          expect(messages(dateField, today)).toEqual([]);
          expect(messages(dateField, nextDay(latestToday(now)))).toEqual([['', codes.DATE_IN_FUTURE]]);
          expect(today <= latestToday(now)).toBe(true);
        },
      ),
    );
  });

  it("is the rule of a brand's creation date and a location's opening date, in the API and the form", () => {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2025-03-10T12:00:00Z') });
    const brand = { code: 'B1', name: [{ locale: 'en', value: 'Roastery' }] };
    expect(messages(brandInputSchema, { ...brand, creationDate: '2025-03-11' })).toEqual([]);
    expect(messages(brandInputSchema, { ...brand, creationDate: '2025-03-12' })).toEqual([
      ['creationDate', codes.DATE_IN_FUTURE],
    ]);
    const location = {
      code: 'L1',
      name: [{ locale: 'en', value: 'Olaya' }],
      brandId: '00000000-0000-4000-8000-000000000000',
      phones: [{ label: 'Desk', number: '0112345678' }],
    };
    const future = { openingDate: '2025-03-12' };
    expect(messages(locationsResource.schemas.create, { ...location, ...future })).toEqual([
      ['openingDate', codes.DATE_IN_FUTURE],
    ]);
    const form = { ...location, name: { en: 'Olaya' }, workingHours: {} };
    expect(messages(locationsResource.form!.schema, { ...form, ...future })).toEqual([
      ['openingDate', codes.DATE_IN_FUTURE],
    ]);
  });
});
