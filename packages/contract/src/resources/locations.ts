import { z } from 'zod';
import { phoneField } from '../auth/fields.ts';
import { secondsToTime, timeToSeconds } from '../domain/format.ts';
import { defineResource } from '../resource-kit/define-resource.ts';
import {
  codeField,
  dateField,
  emptyAsNull,
  localizedNameField,
  localizedNameFormField,
  localizedNameFormValues,
  localizedNameRecordField,
} from '../resource-kit/fields.ts';
import type { FormField } from '../resource-kit/form-fields.ts';
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

const secondOfDay = z
  .number({ error: codes.WORKING_HOURS_INVALID })
  .int(codes.WORKING_HOURS_INVALID)
  .min(0, codes.WORKING_HOURS_INVALID)
  .max(86_400, codes.WORKING_HOURS_INVALID);

/** Opening hours of one weekday, in seconds since midnight (shown as times, spec §9). */
export const workingDaySchema = z
  .strictObject({
    day: z.enum(weekdays, { error: codes.WORKING_HOURS_INVALID }),
    opensAt: secondOfDay,
    closesAt: secondOfDay,
  })
  .refine((day) => day.closesAt > day.opensAt, { message: codes.WORKING_HOURS_INVALID, path: ['closesAt'] });
export type WorkingDay = z.infer<typeof workingDaySchema>;

/** A phone number with a label, e.g. `{ label: 'Reception', number: '+966110000000' }`. */
export const labelledPhoneSchema = z.strictObject({
  label: textField(codes.LABEL_IS_REQUIRED)
    .trim()
    .min(1, codes.LABEL_IS_REQUIRED)
    .max(60, codes.LABEL_TOO_LONG),
  number: phoneField,
});

export const locationInputSchema = z.object({
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
});
export type LocationInput = z.infer<typeof locationInputSchema>;

export const locationRecordSchema = z.object({
  ...statusRecordFields,
  name: localizedNameRecordField,
  brandId: z.string(),
  openingDate: z.string().nullable(),
  workingHours: z.array(z.object({ day: z.enum(weekdays), opensAt: z.number(), closesAt: z.number() })),
  address: z.string(),
  phones: z.array(z.object({ label: z.string(), number: z.string() })),
});
export type LocationRecord = z.infer<typeof locationRecordSchema>;

const timeOfDay = /^(?:[01]\d|2[0-3]):[0-5]\d$/;
const dayHoursForm = z
  .object({ opensAt: z.string().default(''), closesAt: z.string().default('') })
  .default({ opensAt: '', closesAt: '' });

/**
 * Working hours as a form edits them: per weekday an opening and a closing time ('HH:MM'), both
 * empty for a closed day. The output is the stored list, in seconds (spec §9).
 */
export const workingHoursFormField = z
  .object(
    Object.fromEntries(weekdays.map((day) => [day, dayHoursForm])) as Record<Weekday, typeof dayHoursForm>,
  )
  .superRefine((days, context) => {
    for (const day of weekdays) {
      const { opensAt, closesAt } = days[day];
      if (!opensAt && !closesAt) continue;
      for (const [part, value] of [
        ['opensAt', opensAt],
        ['closesAt', closesAt],
      ] as const) {
        if (!timeOfDay.test(value)) {
          context.addIssue({ code: 'custom', message: codes.WORKING_HOURS_INVALID, path: [day, part] });
        }
      }
      if (timeOfDay.test(opensAt) && timeOfDay.test(closesAt) && closesAt <= opensAt) {
        context.addIssue({ code: 'custom', message: codes.WORKING_HOURS_INVALID, path: [day, 'closesAt'] });
      }
    }
  })
  .transform((days): WorkingDay[] =>
    weekdays
      .filter((day) => days[day].opensAt && days[day].closesAt)
      .map((day) => ({
        day,
        opensAt: timeToSeconds(days[day].opensAt),
        closesAt: timeToSeconds(days[day].closesAt),
      })),
  );

/** Stored working hours as the form's per-weekday times. */
export function workingHoursFormValues(list: readonly WorkingDay[]) {
  return Object.fromEntries(
    weekdays.map((day) => {
      const hours = list.find((entry) => entry.day === day);
      return [
        day,
        hours
          ? { opensAt: secondsToTime(hours.opensAt), closesAt: secondsToTime(hours.closesAt) }
          : { opensAt: '', closesAt: '' },
      ];
    }),
  ) as Record<Weekday, { opensAt: string; closesAt: string }>;
}

const workingHoursFormFields: FormField[] = weekdays.flatMap((day): FormField[] => [
  {
    name: `workingHours.${day}.opensAt`,
    type: 'time',
    label: `resources.locations.weekdays.${day}.opensAt`,
    disableRequiredIndicator: true,
  },
  {
    name: `workingHours.${day}.closesAt`,
    type: 'time',
    label: `resources.locations.weekdays.${day}.closesAt`,
    disableRequiredIndicator: true,
  },
]);

export const locationsResource = defineResource({
  key: 'locations',
  path: 'locations',
  permission: 'Locations',
  verbs: ['list', 'get', 'filters', 'create', 'bulk', 'update', 'delete'],
  schemas: {
    record: locationRecordSchema,
    create: locationInputSchema,
    update: locationInputSchema.partial(),
  },
  search: ['code', 'name', 'address'],
  sort: ['code', 'name', 'openingDate', 'createdAt'],
  defaultSort: 'code',
  filters: [{ field: 'brandId', kind: 'reference', resource: 'brands' }],
  hasStatus: true,
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
        kind: 'group',
        label: fieldLabel('locations', 'workingHours'),
        columns: 2,
        fields: workingHoursFormFields,
      },
    ],
    schema: locationInputSchema.extend({
      name: localizedNameFormField,
      openingDate: emptyAsNull(dateField),
      workingHours: workingHoursFormField,
    }),
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
