import { z } from 'zod';
import { comparableValueText, namesOfLine } from '../domain/value-lines.ts';
import { lazySchema } from '../lazy-schema.ts';
import { defineResource, inputSchemas, resourceVerbs } from '../resource-kit/define-resource.ts';
import {
  codeField,
  localizedNameField,
  localizedNameFormField,
  localizedNameFormValues,
  localizedNameRecordField,
  referenceField,
} from '../resource-kit/fields.ts';
import { type FormEntry, linesOf } from '../resource-kit/form-fields.ts';
import { textField } from '../text-field.ts';
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

/** How many values a type may be created with at once. */
export const maxValuesWithType = 100;

/** A value created with its type: its name, and a code or none (then derived from the type's). */
export const newTypeValueSchema = lazySchema(() =>
  z.strictObject({ code: codeField, name: localizedNameField }),
);
export type NewTypeValue = z.infer<typeof newTypeValueSchema>;

/**
 * The values a type is created with, in order (their positions): none twice, by name in either
 * language (compared as the type's values are, `comparableValueText`) or by code. The issue is
 * the later one's, `<index>.name` or `<index>.code`.
 */
export const newTypeValuesField = lazySchema(() =>
  z
    .array(newTypeValueSchema)
    .max(maxValuesWithType, codes.TOO_MANY_NEW_VALUES)
    .superRefine((values, context) => {
      const names = new Set<string>();
      const typedCodes = new Set<string>();
      values.forEach((value, index) => {
        const texts = value.name
          .map((name) => comparableValueText(name.value))
          .filter((text): text is string => text !== null);
        if (texts.some((text) => names.has(text)))
          context.addIssue({ code: 'custom', path: [index, 'name'], message: codes.VALUE_REPEATED });
        for (const text of texts) names.add(text);
        if (value.code) {
          if (typedCodes.has(value.code))
            context.addIssue({ code: 'custom', path: [index, 'code'], message: codes.CODE_MUST_BE_UNIQUE });
          typedCodes.add(value.code);
        }
      });
    }),
);

/**
 * A new type, and with it, if given, its first values (`values`, in one transaction: all of them
 * or nothing). An update changes the type alone; its values have their own resource.
 */
export const variationTypeCreateSchema = lazySchema(() =>
  variationTypeInputSchema.extend({ values: newTypeValuesField.optional() }),
);
export type VariationTypeCreate = z.infer<typeof variationTypeCreateSchema>;

/**
 * The values box of a new type's form (a `lines` field): one value per line, named as
 * `namesOfLine` reads it, as the create's `values`. A line naming one language twice is refused
 * at its item (`<index>`), which the box shows as its line.
 */
export const valueLinesFormField = lazySchema(() =>
  textField(codes.VALUE_IS_INVALID)
    .transform((text, context) =>
      linesOf(text).map((line, index) => {
        const name = namesOfLine(line.text);
        if (!name)
          context.addIssue({
            code: 'custom',
            path: [index],
            message: codes.VALUE_LINE_IS_INVALID,
            input: text,
          });
        return { name: name ?? [] };
      }),
    )
    .pipe(newTypeValuesField),
);

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
  menu: { group: 'data', order: 40 },
  verbs: resourceVerbs,
  schemas: {
    record: variationTypeRecordSchema,
    create: variationTypeCreateSchema,
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
    fields: [
      ...codeAndNameFormFields,
      {
        name: 'values',
        type: 'lines',
        label: fieldLabel('variationTypes', 'values'),
        placeholder: 'resources.variationTypes.valuesPlaceholder',
        hint: 'resources.variationTypes.valuesHint',
        createOnly: true,
      },
    ],
    // Editing a type shows no values box: `values` is then absent, and the update has none.
    schema: lazySchema(() =>
      variationTypeInputSchema.extend({
        name: localizedNameFormField,
        values: valueLinesFormField.optional(),
      }),
    ),
    values: (type) => ({ code: type.code, name: localizedNameFormValues(type.name) }),
  },
});

const positionField = lazySchema(() =>
  z.number({ error: codes.POSITION_OUT_OF_RANGE }).int().min(0).max(1_000_000),
);

/**
 * A value's code and name in a form: the code optional, since one left empty is derived from its
 * type's code (`deriveValueCodes`: SIZE-01, SIZE-02…), as its hint says.
 */
export const variationValueFormFields: readonly FormEntry[] = [
  { ...codeFormField, hint: 'resources.variationValues.codeHint' },
  ...codeAndNameFormFields.filter((entry) => entry !== codeFormField),
];

export const variationValueInputSchema = lazySchema(() =>
  z.object({
    // Left empty, the server derives it from the type's code (no sequence of its own).
    code: codeField,
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
  menu: { group: 'data', order: 50 },
  verbs: resourceVerbs,
  schemas: inputSchemas(variationValueRecordSchema, variationValueInputSchema),
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
