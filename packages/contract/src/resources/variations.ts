import { z } from 'zod';
import { lazySchema } from '../lazy-schema.ts';
import { defineResource } from '../resource-kit/define-resource.ts';
import {
  codeField,
  localizedNameField,
  localizedNameFormField,
  localizedNameFormValues,
  localizedNameRecordField,
  referenceField,
  requiredCodeField,
} from '../resource-kit/fields.ts';
import type { FormEntry } from '../resource-kit/form-fields.ts';
import { validationCodes as codes } from '../validation-codes.ts';
import {
  codeAndNameColumns,
  codeAndNameFormFields,
  codeFormField,
  fieldLabel,
  statusRecordFields,
} from './catalogue-common.ts';

/*
 * Variation types ("Size") and their values ("Small", "Large"): a product chooses some values of
 * some types and gets one variant per combination (spec §9). The spec's screens are
 * VariantOptions (`/variations-types`, the types with their values inline) and VariantValues
 * (`/options`, every value with its type); both are behind the Variations permissions.
 */

/** A value as its type's record lists it, in the type's order. */
export const variationTypeValueSchema = lazySchema(() =>
  z.object({
    id: z.string(),
    code: z.string(),
    name: localizedNameRecordField,
    position: z.number(),
    status: z.enum(['active', 'inactive']),
  }),
);
export type VariationTypeValue = z.infer<typeof variationTypeValueSchema>;

export const variationTypeInputSchema = lazySchema(() =>
  z.object({ code: codeField, name: localizedNameField }),
);
export type VariationTypeInput = z.infer<typeof variationTypeInputSchema>;

export const variationTypeRecordSchema = lazySchema(() =>
  z.object({
    ...statusRecordFields,
    name: localizedNameRecordField,
    /** Its values, in order (computed). */
    values: z.array(variationTypeValueSchema),
  }),
);
export type VariationTypeRecord = z.infer<typeof variationTypeRecordSchema>;

export const variationTypesResource = defineResource({
  key: 'variationTypes',
  path: 'variation-types',
  permission: 'Variations',
  verbs: ['list', 'get', 'filters', 'create', 'bulk', 'update', 'delete'],
  schemas: {
    record: variationTypeRecordSchema,
    create: variationTypeInputSchema,
    update: lazySchema(() => variationTypeInputSchema.partial()),
  },
  search: ['code', 'name'],
  sort: ['code', 'name', 'createdAt'],
  defaultSort: 'code',
  filters: [],
  hasStatus: true,
  codePrefix: 'VAR',
  columns: [...codeAndNameColumns, { field: 'status', kind: 'status' }],
  form: {
    fields: codeAndNameFormFields,
    schema: lazySchema(() => variationTypeInputSchema.extend({ name: localizedNameFormField })),
    values: (type) => ({ code: type.code, name: localizedNameFormValues(type.name) }),
  },
});

const positionField = lazySchema(() =>
  z.number({ error: codes.POSITION_OUT_OF_RANGE }).int().min(0).max(1_000_000),
);

/** A value's code and name in a form: the code typed (values have no sequence to assign one). */
export const variationValueFormFields: readonly FormEntry[] = [
  { ...codeFormField, hint: undefined, required: true },
  ...codeAndNameFormFields.filter((entry) => entry !== codeFormField),
];

export const variationValueInputSchema = lazySchema(() =>
  z.object({
    // Values have no sequence of their own: a value's code is typed.
    code: requiredCodeField,
    /** The value's text ("Large", "كبير"). */
    name: localizedNameField,
    typeId: referenceField,
    /** Its place among its type's values; a new value goes last when none is given. */
    position: positionField.optional(),
  }),
);
export type VariationValueInput = z.infer<typeof variationValueInputSchema>;

export const variationValueRecordSchema = lazySchema(() =>
  z.object({
    ...statusRecordFields,
    name: localizedNameRecordField,
    typeId: z.string(),
    position: z.number(),
  }),
);
export type VariationValueRecord = z.infer<typeof variationValueRecordSchema>;

export const variationValuesResource = defineResource({
  key: 'variationValues',
  path: 'variation-values',
  permission: 'Variations',
  verbs: ['list', 'get', 'filters', 'create', 'bulk', 'update', 'delete'],
  schemas: {
    record: variationValueRecordSchema,
    create: variationValueInputSchema,
    update: lazySchema(() => variationValueInputSchema.partial()),
  },
  search: ['code', 'name'],
  sort: ['code', 'name', 'position', 'createdAt'],
  defaultSort: 'code',
  filters: [{ field: 'typeId', kind: 'reference', resource: 'variationTypes' }],
  hasStatus: true,
  columns: [
    ...codeAndNameColumns,
    { field: 'typeId', kind: 'reference', reference: 'variationTypes' },
    { field: 'position', kind: 'number' },
    { field: 'status', kind: 'status' },
  ],
  form: {
    fields: [
      ...variationValueFormFields,
      {
        name: 'typeId',
        type: 'select',
        required: true,
        optionSource: { kind: 'resource', resource: 'variationTypes' },
        label: fieldLabel('variationValues', 'typeId'),
      },
    ],
    schema: lazySchema(() => variationValueInputSchema.extend({ name: localizedNameFormField })),
    values: (value) => ({
      code: value.code,
      name: localizedNameFormValues(value.name),
      typeId: value.typeId,
    }),
  },
});
