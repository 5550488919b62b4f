import { z } from 'zod';
import { lazySchema } from '../lazy-schema.ts';
import { defineResource, inputSchemas, resourceVerbs } from '../resource-kit/define-resource.ts';
import {
  codeField,
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

export const measurementUnitInputSchema = lazySchema(() =>
  z.object({
    code: codeField,
    name: localizedNameField,
    symbol: textField(codes.SYMBOL_IS_REQUIRED)
      .trim()
      .min(1, codes.SYMBOL_IS_REQUIRED)
      .max(60, codes.SYMBOL_TOO_LONG),
  }),
);
export type MeasurementUnitInput = z.infer<typeof measurementUnitInputSchema>;

export const measurementUnitRecordSchema = lazySchema(() =>
  z.object({
    ...statusRecordFields,
    name: localizedNameRecordField,
    symbol: z.string(),
  }),
);
export type MeasurementUnitRecord = z.infer<typeof measurementUnitRecordSchema>;

export const measurementUnitsResource = defineResource({
  key: 'measurementUnits',
  path: 'measurement-units',
  permission: 'MeasurementUnits',
  menu: { group: 'data', order: 60 },
  verbs: resourceVerbs,
  schemas: inputSchemas(measurementUnitRecordSchema, measurementUnitInputSchema),
  search: ['code', 'name', 'symbol'],
  sort: ['code', 'name', 'symbol', 'createdAt'],
  defaultSort: 'code',
  filters: [],
  hasStatus: true,
  codePrefix: 'UNIT',
  columns: [...codeAndNameColumns, { field: 'symbol', kind: 'text' }, { field: 'status', kind: 'status' }],
  form: {
    fields: [
      ...codeAndNameFormFields,
      { name: 'symbol', type: 'text', required: true, label: fieldLabel('measurementUnits', 'symbol') },
    ],
    schema: lazySchema(() => measurementUnitInputSchema.extend({ name: localizedNameFormField })),
    values: (unit) => ({ code: unit.code, name: localizedNameFormValues(unit.name), symbol: unit.symbol }),
  },
});
