import { z } from 'zod';
import { currencyCodes } from '../domain/countries-and-currencies.ts';
import { lazySchema } from '../lazy-schema.ts';
import { currencyField, imageUrlField, singleImageFormField } from '../resource-kit/fields.ts';
import type { FormEntry } from '../resource-kit/form-fields.ts';
import { textField } from '../text-field.ts';
import { validationCodes as codes } from '../validation-codes.ts';

/** The base currency of a workspace that never chose one (Dukkan's merchants are in Egypt first). */
export const defaultBaseCurrency = 'EGP';

/** A currency in use today (no withdrawn code): what a workspace's base currency may be. */
const baseCurrencyField = lazySchema(() =>
  currencyField.refine((code) => currencyCodes.includes(code), codes.CURRENCY_IS_INVALID),
);

/**
 * `PATCH /api/workspaces/settings?workspaceId=…` (admins of that workspace): its name (1–255, as a
 * company name of an access request may be), logo (an uploaded file, or null) and base currency.
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
  }),
);
export type WorkspaceSettingsInput = z.infer<typeof workspaceSettingsInputSchema>;

/** `GET` and `PATCH /api/workspaces/settings?workspaceId=…` answer `{ data: WorkspaceSettings }`. */
export interface WorkspaceSettings {
  id: string;
  name: string;
  logo: string | null;
  baseCurrency: string;
}

const label = (field: string) => `workspaceSettings.fields.${field}`;

/** The settings dialog's form, for the generic form renderer. */
export const workspaceSettingsForm = {
  fields: [
    { name: 'name', type: 'text', required: true, label: label('name') },
    { name: 'logo', type: 'imageUpload', multiple: false, label: label('logo') },
    {
      name: 'baseCurrency',
      type: 'select',
      required: true,
      optionSource: { kind: 'currencies' },
      label: label('baseCurrency'),
      tooltipMessage: label('baseCurrencyHint'),
    },
  ] satisfies readonly FormEntry[] as readonly FormEntry[],
  /** The form's values (a logo as a list of at most one image) into the update's input. */
  schema: lazySchema(() =>
    workspaceSettingsInputSchema.extend({
      name: workspaceSettingsInputSchema.shape.name.unwrap(),
      logo: singleImageFormField,
      baseCurrency: baseCurrencyField,
    }),
  ),
  values: (settings: WorkspaceSettings) => ({
    name: settings.name,
    logo: settings.logo ? [settings.logo] : [],
    baseCurrency: settings.baseCurrency,
  }),
};
