import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { validationCodes as codes } from '../validation-codes.ts';
import {
  endsNextDay,
  locationRecordSchema,
  type WorkingDay,
  weekdays,
  workingDaySchema,
  workingHoursFormField,
  workingHoursFormValues,
} from './locations.ts';

const messages = (schema: z.ZodType, value: unknown) => {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error.issues.map((issue) => [issue.path.join('.'), issue.message]);
};
const hours = (time: string) => {
  const [h = 0, m = 0] = time.split(':').map(Number);
  return h * 3600 + m * 60;
};

describe('a working day as the API takes it (seconds since midnight)', () => {
  it('crosses midnight: closing before opening ends on the next day (20:00 → 02:00)', () => {
    const night = { day: 'thursday', opensAt: hours('20:00'), closesAt: hours('02:00') };
    expect(workingDaySchema.parse(night)).toEqual(night);
    expect(endsNextDay(night)).toBe(true);
    expect(endsNextDay({ opensAt: hours('09:00'), closesAt: hours('17:00') })).toBe(false);
  });
  it('a closed day needs no times, and may not carry any', () => {
    expect(workingDaySchema.parse({ day: 'friday', closed: true })).toEqual({ day: 'friday', closed: true });
    expect(messages(workingDaySchema, { day: 'friday', closed: true, opensAt: 0, closesAt: 3600 })).toEqual([
      ['closed', codes.WORKING_HOURS_INVALID],
    ]);
  });
  it('an empty closing time has its own code; an empty opening time too; a bad time stays INVALID', () => {
    for (const empty of [undefined, null, '']) {
      expect(messages(workingDaySchema, { day: 'monday', opensAt: hours('09:00'), closesAt: empty })).toEqual(
        [['closesAt', codes.CLOSING_TIME_REQUIRED]],
      );
      expect(messages(workingDaySchema, { day: 'monday', opensAt: empty, closesAt: hours('09:00') })).toEqual(
        [['opensAt', codes.OPENING_TIME_REQUIRED]],
      );
    }
    expect(messages(workingDaySchema, { day: 'monday', opensAt: 0, closesAt: 90_000 })).toEqual([
      ['closesAt', codes.WORKING_HOURS_INVALID],
    ]);
    expect(messages(workingDaySchema, { day: 'monday', opensAt: 0, closesAt: '17:00' })).toEqual([
      ['closesAt', codes.WORKING_HOURS_INVALID],
    ]);
  });
  it('refuses equal times; around the clock is 0 → 86,400', () => {
    expect(messages(workingDaySchema, { day: 'monday', opensAt: 3600, closesAt: 3600 })).toEqual([
      ['closesAt', codes.WORKING_HOURS_INVALID],
    ]);
    expect(workingDaySchema.safeParse({ day: 'monday', opensAt: 0, closesAt: 86_400 }).success).toBe(true);
  });
  it('property: any two different minutes of the day make a valid open day, whichever comes first', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...weekdays),
        fc.integer({ min: 0, max: 1439 }),
        fc.integer({ min: 0, max: 1439 }),
        (day, opens, closes) => {
          const entry = { day, opensAt: opens * 60, closesAt: closes * 60 };
          const result = workingDaySchema.safeParse(entry);
          expect(result.success).toBe(opens !== closes);
          if (result.success) expect(endsNextDay(result.data)).toBe(closes < opens);
        },
      ),
    );
  });
  it('records saved before `closed` existed (open days only) still read', () => {
    const old = [{ day: 'monday', opensAt: 32_400, closesAt: 61_200 }];
    expect(locationRecordSchema.shape.workingHours.parse(old)).toEqual(old);
  });
});

describe('working hours in a form (per weekday: closed, or two times)', () => {
  const blankWeek = workingHoursFormValues([]);

  it('starts every day open and blank; blank days are left out', () => {
    expect(Object.values(blankWeek).every((day) => !day.closed && !day.opensAt && !day.closesAt)).toBe(true);
    expect(workingHoursFormField.parse(blankWeek)).toEqual([]);
    // A form without the field's values at all (each day's own default).
    expect(workingHoursFormField.parse({})).toEqual([]);
  });
  it('stores a night shift and a normal day in seconds since midnight; a closed day is left out', () => {
    const values = {
      ...blankWeek,
      monday: { closed: false, opensAt: '09:00', closesAt: '17:30' },
      thursday: { closed: false, opensAt: '20:00', closesAt: '02:00' },
      friday: { closed: true, opensAt: '10:00', closesAt: '' },
    };
    expect(workingHoursFormField.parse(values)).toEqual([
      { day: 'monday', opensAt: 32_400, closesAt: 63_000 },
      { day: 'thursday', opensAt: 72_000, closesAt: 7_200 },
    ]);
  });
  it('00:00 → 00:00 is open around the clock (0 → 86,400), and reads back the same', () => {
    const values = { ...blankWeek, sunday: { closed: false, opensAt: '00:00', closesAt: '00:00' } };
    const stored = workingHoursFormField.parse(values);
    expect(stored).toEqual([{ day: 'sunday', opensAt: 0, closesAt: 86_400 }]);
    expect(workingHoursFormValues(stored).sunday).toEqual(values.sunday);
  });
  it.each([
    [
      'an empty closing time',
      { opensAt: '09:00', closesAt: '' },
      'tuesday.closesAt',
      codes.CLOSING_TIME_REQUIRED,
    ],
    [
      'an empty opening time',
      { opensAt: '', closesAt: '17:00' },
      'tuesday.opensAt',
      codes.OPENING_TIME_REQUIRED,
    ],
    ['equal times', { opensAt: '09:00', closesAt: '09:00' }, 'tuesday.closesAt', codes.WORKING_HOURS_INVALID],
    ['not a time', { opensAt: '9am', closesAt: '17:00' }, 'tuesday.opensAt', codes.WORKING_HOURS_INVALID],
    [
      'a bad closing time',
      { opensAt: '09:00', closesAt: '25:00' },
      'tuesday.closesAt',
      codes.WORKING_HOURS_INVALID,
    ],
  ])('%s → its code under that time', (_label, times, path, code) => {
    expect(messages(workingHoursFormField, { ...blankWeek, tuesday: { closed: false, ...times } })).toEqual([
      [path, code],
    ]);
  });
  it('a closed day is never checked, whatever its boxes hold', () => {
    const values = { ...blankWeek, tuesday: { closed: true, opensAt: '09:00', closesAt: '' } };
    expect(workingHoursFormField.parse(values)).toEqual([]);
  });
  it('reads stored hours back: a day not listed is closed once any day is given (old records)', () => {
    const old: WorkingDay[] = [{ day: 'monday', opensAt: 32_400, closesAt: 61_200 }];
    const values = workingHoursFormValues(old);
    expect(values.monday).toEqual({ closed: false, opensAt: '09:00', closesAt: '17:00' });
    expect(values.sunday).toEqual({ closed: true, opensAt: '', closesAt: '' });
  });
  it('property: stored hours round-trip through the form, closed days given or left out', () => {
    const day = fc.oneof(
      fc.constant('left out' as const),
      fc.constant('closed' as const),
      fc
        .tuple(fc.integer({ min: 0, max: 1439 }), fc.integer({ min: 0, max: 1439 }))
        .filter(([opens, closes]) => opens !== closes)
        .map(([opens, closes]) => ({ opensAt: opens * 60, closesAt: closes * 60 })),
    );
    fc.assert(
      fc.property(fc.tuple(...weekdays.map(() => day)), (days) => {
        const stored = weekdays.flatMap((name, index): WorkingDay[] => {
          const entry = days[index]!;
          if (entry === 'left out') return [];
          return [entry === 'closed' ? { day: name, closed: true } : { day: name, ...entry }];
        });
        const openDays = stored.filter((entry) => !entry.closed);
        expect(workingHoursFormField.parse(workingHoursFormValues(stored))).toEqual(openDays);
      }),
    );
  });
});
