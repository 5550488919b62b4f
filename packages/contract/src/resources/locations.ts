import { z } from 'zod';
import { phoneField } from '../auth/fields.ts';
import { defineResource } from '../resource-kit/define-resource.ts';
import {
  codeField,
  dateField,
  localizedNameField,
  localizedNameRecordField,
} from '../resource-kit/fields.ts';
import { validationCodes as codes } from '../validation-codes.ts';
import { statusRecordFields } from './catalogue-common.ts';

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
  label: z.string().trim().max(60, codes.LABEL_TOO_LONG).default(''),
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
  address: z.string().trim().max(254, codes.ADDRESS_TOO_LONG).default(''),
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
  filters: [{ field: 'brandId', kind: 'reference' }],
  hasStatus: true,
});
