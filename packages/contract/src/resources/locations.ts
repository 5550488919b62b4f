import { z } from 'zod';
import { phoneField } from '../auth/fields.ts';
import { secondsToTime, timeToSeconds } from '../domain/format.ts';
import { lazySchema } from '../lazy-schema.ts';
import { defineResource, inputSchemas, resourceVerbs } from '../resource-kit/define-resource.ts';
import {
  codeField,
  dateField,
  emptyAsNull,
  localizedNameField,
  localizedNameFormField,
  localizedNameFormValues,
  localizedNameRecordField,
} from '../resource-kit/fields.ts';
import { textField } from '../text-field.ts';
import { validationCodes as codes } from '../validation-codes.ts';
import {
  codeAndNameColumns,
  codeAndNameFormFields,
  fieldLabel,
  statusRecordFields,
} from './catalogue-common.ts';

export const weekdays = [
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
] as const;
export type Weekday = (typeof weekdays)[number];

const secondOfDay = lazySchema(() =>
  z
    .number({ error: codes.WORKING_HOURS_INVALID })
    .int(codes.WORKING_HOURS_INVALID)
    .min(0, codes.WORKING_HOURS_INVALID)
    .max(86_400, codes.WORKING_HOURS_INVALID),
);
/** A time left out, `null` or `''` is "not given", so it gets its own REQUIRED code, not INVALID. */
const givenSecondOfDay = lazySchema(() =>
  z.preprocess((value) => (value === null || value === '' ? undefined : value), secondOfDay.optional()),
);

/**
 * One weekday, in seconds since midnight (shown as times, spec §9): open from `opensAt` to
 * `closesAt`, or `{ day, closed: true }`. A closing time earlier than the opening time is on the
 * next day (20:00 → 02:00, a night shift). Equal times are refused: "open zero hours" is a typo,
 * and a day open around the clock is 00:00 → 24:00 (0 → 86,400).
 * A day not in the list is closed too (records saved before `closed` existed say so by leaving it out).
 */
export const workingDaySchema = lazySchema(() =>
  z
    .strictObject({
      day: z.enum(weekdays, { error: codes.WORKING_HOURS_INVALID }),
      closed: z.boolean({ error: codes.WORKING_HOURS_INVALID }).optional(),
      opensAt: givenSecondOfDay,
      closesAt: givenSecondOfDay,
    })
    .superRefine((day, context) => {
      if (day.closed) {
        if (day.opensAt !== undefined || day.closesAt !== undefined)
          context.addIssue({ code: 'custom', message: codes.WORKING_HOURS_INVALID, path: ['closed'] });
        return;
      }
      if (day.opensAt === undefined)
        context.addIssue({ code: 'custom', message: codes.OPENING_TIME_REQUIRED, path: ['opensAt'] });
      if (day.closesAt === undefined)
        context.addIssue({ code: 'custom', message: codes.CLOSING_TIME_REQUIRED, path: ['closesAt'] });
      else if (day.closesAt === day.opensAt)
        context.addIssue({ code: 'custom', message: codes.WORKING_HOURS_INVALID, path: ['closesAt'] });
    }),
);
export type WorkingDay = z.infer<typeof workingDaySchema>;

/** Whether a day's hours run past midnight into the next day (20:00 → 02:00). */
export const endsNextDay = (day: Pick<WorkingDay, 'opensAt' | 'closesAt'>) =>
  day.opensAt !== undefined && day.closesAt !== undefined && day.closesAt < day.opensAt;

/** A phone number with a label, e.g. `{ label: 'Reception', number: '+966110000000' }`. */
export const labelledPhoneSchema = lazySchema(() =>
  z.strictObject({
    label: textField(codes.LABEL_IS_REQUIRED)
      .trim()
      .min(1, codes.LABEL_IS_REQUIRED)
      .max(60, codes.LABEL_TOO_LONG),
    number: phoneField,
  }),
);

export const locationInputSchema = lazySchema(() =>
  z.object({
    code: codeField,
    name: localizedNameField,
    brandId: z.uuid({ error: codes.BRAND_IS_REQUIRED }),
    openingDate: dateField.nullable().default(null),
    workingHours: z
      .array(workingDaySchema)
      .max(weekdays.length, codes.DAY_REPEATED)
      .refine((days) => new Set(days.map((day) => day.day)).size === days.length, codes.DAY_REPEATED)
      .default([]),
    address: textField().trim().max(254, codes.ADDRESS_TOO_LONG).default(''),
    phones: z
      .array(labelledPhoneSchema, { error: codes.PHONES_REQUIRED })
      .min(1, codes.PHONES_REQUIRED)
      .max(10),
  }),
);
export type LocationInput = z.infer<typeof locationInputSchema>;

export const locationRecordSchema = lazySchema(() =>
  z.object({
    ...statusRecordFields,
    name: localizedNameRecordField,
    brandId: z.string(),
    openingDate: z.string().nullable(),
    workingHours: z.array(
      z.object({
        day: z.enum(weekdays),
        closed: z.boolean().optional(),
        opensAt: z.number().optional(),
        closesAt: z.number().optional(),
      }),
    ),
    address: z.string(),
    phones: z.array(z.object({ label: z.string(), number: z.string() })),
  }),
);
export type LocationRecord = z.infer<typeof locationRecordSchema>;

/** 00:00 → 00:00 in a form is open around the clock, stored as 0 → 86,400 (24:00). */
const allDay = '00:00';
const timeOfDay = /^(?:[01]\d|2[0-3]):[0-5]\d$/;
const dayHoursForm = lazySchema(() =>
  z
    .object({
      closed: z.boolean().default(false),
      opensAt: z.string().default(''),
      closesAt: z.string().default(''),
    })
    .default({ closed: false, opensAt: '', closesAt: '' }),
);

/** One weekday as the form edits it: marked closed, or an opening and a closing time ('HH:MM'). */
export type WorkingDayFormValue = z.input<typeof dayHoursForm> & {};

/**
 * Working hours as a form edits them (the `workingHours` field type): per weekday a "closed" mark
 * and two times. A closed day, or one given no time, is left out (not listed is closed); one time without the other
 * gets OPENING_TIME_REQUIRED or CLOSING_TIME_REQUIRED; equal times are refused but 00:00 → 00:00,
 * open around the clock. The output is the stored list (spec §9).
 */
export const workingHoursFormField = lazySchema(() =>
  z
    .object(
      Object.fromEntries(weekdays.map((day) => [day, dayHoursForm])) as Record<Weekday, typeof dayHoursForm>,
    )
    .superRefine((days, context) => {
      for (const day of weekdays) {
        const { closed, opensAt, closesAt } = days[day];
        if (closed || (!opensAt && !closesAt)) continue;
        const check = (part: 'opensAt' | 'closesAt', value: string, required: string) => {
          if (!value) context.addIssue({ code: 'custom', message: required, path: [day, part] });
          else if (!timeOfDay.test(value))
            context.addIssue({ code: 'custom', message: codes.WORKING_HOURS_INVALID, path: [day, part] });
        };
        check('opensAt', opensAt, codes.OPENING_TIME_REQUIRED);
        check('closesAt', closesAt, codes.CLOSING_TIME_REQUIRED);
        if (timeOfDay.test(opensAt) && closesAt === opensAt && opensAt !== allDay) {
          context.addIssue({ code: 'custom', message: codes.WORKING_HOURS_INVALID, path: [day, 'closesAt'] });
        }
      }
    })
    .transform((days): WorkingDay[] =>
      weekdays.flatMap((day): WorkingDay[] => {
        const { closed, opensAt, closesAt } = days[day];
        // A closed day is left out, as the form has always saved it: an edit that changes nothing
        // then saves the record unchanged, whichever way it marked its closed days.
        if (closed || !opensAt || !closesAt) return [];
        const closesAtSecond = opensAt === allDay && closesAt === allDay ? 86_400 : timeToSeconds(closesAt);
        return [{ day, opensAt: timeToSeconds(opensAt), closesAt: closesAtSecond }];
      }),
    ),
);

/**
 * Stored working hours as the form's per-weekday values. Once any day is given, a day not in the
 * list is closed (as the list shows it); an empty list leaves every day open and blank.
 */
export function workingHoursFormValues(list: readonly WorkingDay[]) {
  return Object.fromEntries(
    weekdays.map((day): [Weekday, Required<WorkingDayFormValue>] => {
      const hours = list.find((entry) => entry.day === day);
      if (hours?.closed || (!hours && list.length > 0))
        return [day, { closed: true, opensAt: '', closesAt: '' }];
      return [
        day,
        {
          closed: false,
          opensAt: hours?.opensAt === undefined ? '' : secondsToTime(hours.opensAt),
          closesAt: hours?.closesAt === undefined ? '' : secondsToTime(hours.closesAt),
        },
      ];
    }),
  ) as Record<Weekday, Required<WorkingDayFormValue>>;
}

export const locationsResource = defineResource({
  key: 'locations',
  path: 'locations',
  permission: 'Locations',
  menu: { group: 'data', order: 20 },
  verbs: resourceVerbs,
  schemas: inputSchemas(locationRecordSchema, locationInputSchema),
  search: ['code', 'name', 'address'],
  sort: ['code', 'name', 'openingDate', 'createdAt'],
  defaultSort: 'code',
  filters: [{ field: 'brandId', kind: 'reference', resource: 'brands' }],
  hasStatus: true,
  codePrefix: 'LOC',
  columns: [
    ...codeAndNameColumns,
    { field: 'brandId', kind: 'reference', reference: 'brands' },
    { field: 'workingHours', kind: 'workingDays' },
    { field: 'phones', kind: 'phones' },
    { field: 'openingDate', kind: 'date' },
    { field: 'status', kind: 'status' },
  ],
  form: {
    fields: [
      ...codeAndNameFormFields,
      {
        kind: 'group',
        label: fieldLabel('locations', 'details'),
        columns: 2,
        fields: [
          {
            name: 'brandId',
            type: 'select',
            required: true,
            optionSource: { kind: 'resource', resource: 'brands' },
            label: fieldLabel('locations', 'brandId'),
            noOptionsMessage: fieldLabel('locations', 'noBrands'),
          },
          {
            name: 'openingDate',
            type: 'date',
            mode: 'single',
            label: fieldLabel('locations', 'openingDate'),
          },
        ],
      },
      { name: 'address', type: 'text', label: fieldLabel('locations', 'address') },
      { name: 'phones', type: 'phoneNums', required: true, label: fieldLabel('locations', 'phones') },
      {
        name: 'workingHours',
        type: 'workingHours',
        label: fieldLabel('locations', 'workingHours'),
        defaultValue: workingHoursFormValues([]),
      },
    ],
    schema: lazySchema(() =>
      locationInputSchema.extend({
        name: localizedNameFormField,
        openingDate: emptyAsNull(dateField),
        workingHours: workingHoursFormField,
      }),
    ),
    values: (location) => ({
      code: location.code,
      name: localizedNameFormValues(location.name),
      brandId: location.brandId,
      openingDate: location.openingDate ?? undefined,
      address: location.address,
      phones: location.phones,
      workingHours: workingHoursFormValues(location.workingHours),
    }),
  },
});
