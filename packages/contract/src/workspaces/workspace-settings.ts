import { z } from 'zod';
import { currencyCodes } from '../domain/countries-and-currencies.ts';
import { canonicalTimeZone } from '../domain/time-zone.ts';
import { lazySchema } from '../lazy-schema.ts';
import { currencyField, imageUrlField, singleImageFormField, typedNumber } from '../resource-kit/fields.ts';
import type { FormEntry } from '../resource-kit/form-fields.ts';
import { workspaceIdField } from '../resource-kit/list-query.ts';
import { textField } from '../text-field.ts';
import { validationCodes as codes } from '../validation-codes.ts';

/** The base currency of a workspace that never chose one (Dukkan's merchants are in Egypt first). */
export const defaultBaseCurrency = 'EGP';

/** A currency in use today (no withdrawn code): what a workspace's base currency may be. */
const baseCurrencyField = lazySchema(() =>
  currencyField.refine((code) => currencyCodes.includes(code), codes.CURRENCY_IS_INVALID),
);

/**
 * An IANA time zone the runtime knows (`canonicalTimeZone`), stored under the runtime's own name
 * of it (`africa/cairo` → `Africa/Cairo`).
 */
const timeZoneField = lazySchema(() =>
  z
    .string({ error: codes.TIME_ZONE_IS_INVALID })
    .refine((name) => canonicalTimeZone(name) !== null, codes.TIME_ZONE_IS_INVALID)
    .transform((name) => canonicalTimeZone(name) ?? name),
);

/**
 * How many days a workspace keeps its audit log (`workspaces.audit_retention_days`, whose check
 * holds the same bounds): the purge removes older rows (docs/architecture.md, "The audit log").
 */
export const auditRetentionLimits = { min: 1, max: 3650 } as const;

/** A whole number of days within `auditRetentionLimits`; typed text in either language's digits. */
const auditRetentionDaysField = lazySchema(() =>
  typedNumber(
    z
      .number({ error: codes.AUDIT_RETENTION_OUT_OF_RANGE })
      .int(codes.AUDIT_RETENTION_OUT_OF_RANGE)
      .min(auditRetentionLimits.min, codes.AUDIT_RETENTION_OUT_OF_RANGE)
      .max(auditRetentionLimits.max, codes.AUDIT_RETENTION_OUT_OF_RANGE),
  ),
);

/**
 * `PATCH /api/workspaces/settings?workspaceId=…` (admins of that workspace): its name (1–255, as a
 * company name of an access request may be), logo (an uploaded file, or null), base currency,
 * time zone, how long its audit log is kept, and whether its members must use a second factor.
 * Fields left out stay as they are.
 */
export const workspaceSettingsInputSchema = lazySchema(() =>
  z.strictObject({
    name: textField(codes.WORKSPACE_NAME_IS_REQUIRED)
      .trim()
      .min(1, codes.WORKSPACE_NAME_IS_REQUIRED)
      .max(255, codes.WORKSPACE_NAME_TOO_LONG)
      .optional(),
    logo: imageUrlField.nullable().optional(),
    baseCurrency: baseCurrencyField.optional(),
    timeZone: timeZoneField.optional(),
    auditRetentionDays: auditRetentionDaysField.optional(),
    /** Members must use a second factor; turned on only from a session that used one. */
    requireSecondFactor: z.boolean({ error: codes.VALUE_IS_INVALID }).optional(),
  }),
);
export type WorkspaceSettingsInput = z.infer<typeof workspaceSettingsInputSchema>;

/**
 * `GET /api/workspaces/settings/base-currency-change?workspaceId=…&currency=USD` (admins, as the
 * change itself): what saving that base currency would do, for the confirmation to name.
 */
export const baseCurrencyChangeQuerySchema = lazySchema(() =>
  z.strictObject({ workspaceId: workspaceIdField, currency: baseCurrencyField }),
);

/**
 * The answer's `data`: how many stored prices and costs (of products and variants, not zero)
 * would be converted, at which of the workspace's exchange rates (units of the current base per
 * unit of the new one; null when there is nothing to convert or no rate), and the code the change
 * would be refused with (PRICES_NEED_A_RATE, BASE_CURRENCY_HAS_NO_RATE, RATE_OUT_OF_RANGE,
 * MONEY_TOO_LARGE), if any.
 */
export interface BaseCurrencyChange {
  amounts: number;
  rate: number | null;
  refusal?: string;
}

/**
 * `GET /api/workspaces/settings?workspaceId=…` (any member of the workspace) and `PATCH` (its
 * admins) answer `{ data: WorkspaceSettings }`.
 */
export interface WorkspaceSettings {
  id: string;
  name: string;
  logo: string | null;
  baseCurrency: string;
  /** IANA: the workspace's "today", due dates, and the dates of its pages and mails. */
  timeZone: string;
  /** Days its audit log keeps a change (`auditRetentionLimits`). */
  auditRetentionDays: number;
  /** Its members must have used a second factor in their session to see anything of it. */
  requireSecondFactor: boolean;
}

const label = (field: string) => `workspaceSettings.fields.${field}`;

/**
 * The form of `/settings`, for the generic form renderer: an admin edits it, every other member
 * reads it. A setting is added here (a field, its schema entry, its value) and on the server.
 */
export const workspaceSettingsForm = {
  fields: [
    { name: 'name', type: 'text', required: true, label: label('name') },
    { name: 'logo', type: 'imageUpload', multiple: false, label: label('logo') },
    {
      name: 'baseCurrency',
      type: 'select',
      required: true,
      searchable: true,
      optionSource: { kind: 'currencies' },
      label: label('baseCurrency'),
      hint: label('baseCurrencyHint'),
    },
    {
      name: 'timeZone',
      type: 'select',
      required: true,
      searchable: true,
      optionSource: { kind: 'timeZones' },
      label: label('timeZone'),
      hint: label('timeZoneHint'),
    },
    {
      name: 'auditRetentionDays',
      type: 'number',
      required: true,
      step: 1,
      label: label('auditRetentionDays'),
      hint: label('auditRetentionDaysHint'),
    },
  ] satisfies readonly FormEntry[] as readonly FormEntry[],
  /** The form's values (a logo as a list of at most one image) into the update's input. */
  schema: lazySchema(() =>
    workspaceSettingsInputSchema.extend({
      name: workspaceSettingsInputSchema.shape.name.unwrap(),
      logo: singleImageFormField,
      baseCurrency: baseCurrencyField,
      timeZone: timeZoneField,
      auditRetentionDays: auditRetentionDaysField,
    }),
  ),
  values: (settings: WorkspaceSettings) => ({
    name: settings.name,
    logo: settings.logo ? [settings.logo] : [],
    baseCurrency: settings.baseCurrency,
    timeZone: settings.timeZone,
    auditRetentionDays: settings.auditRetentionDays,
  }),
};
