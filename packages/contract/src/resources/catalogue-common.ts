import { z } from 'zod';
import { lazySchema } from '../lazy-schema.ts';
import type { ColumnDefinition } from '../resource-kit/columns.ts';
import { idField, recordStatusField, timestampField } from '../resource-kit/fields.ts';
import type { FormEntry, FormField } from '../resource-kit/form-fields.ts';

/** The fields every catalogue record has beside its own. */
export const catalogueRecordFields = {
  id: idField,
  code: lazySchema(() => z.string()),
  createdAt: timestampField,
  updatedAt: timestampField,
};
export const statusRecordFields = { ...catalogueRecordFields, status: recordStatusField };

/** The label of a resource's field: `resources.<key>.fields.<field>` (the web falls back to `resources.common.fields`). */
export const fieldLabel = (resourceKey: string, field: string) => `resources.${resourceKey}.fields.${field}`;

/** Code first, then the localized name (primary): the head of most catalogue lists. */
export const codeAndNameColumns: readonly ColumnDefinition[] = [
  { field: 'code', kind: 'code' },
  { field: 'name', kind: 'localizedText', primary: true },
];

/**
 * A record's code in a form: optional, since a code left empty is assigned when the record is
 * saved (the resource's `codePrefix`), and the hint under it says so.
 */
export const codeFormField: FormField = {
  name: 'code',
  type: 'text',
  label: 'resources.common.fields.code',
  hint: 'resources.common.codeHint',
  ltr: true,
};

/**
 * Code, then the name in each language side by side: the head of most catalogue forms. A name is
 * needed in one language or the other, so neither box is marked required nor optional; leaving
 * both empty shows NAME_IS_REQUIRED under the English one.
 */
export const codeAndNameFormFields: readonly FormEntry[] = [
  codeFormField,
  {
    kind: 'group',
    label: 'resources.common.fields.name',
    columns: 2,
    fields: [
      {
        name: 'name.en',
        type: 'text',
        label: 'resources.common.fields.nameEn',
        locale: 'en',
        disableRequiredIndicator: true,
      },
      {
        name: 'name.ar',
        type: 'text',
        label: 'resources.common.fields.nameAr',
        locale: 'ar',
        disableRequiredIndicator: true,
      },
    ],
  },
];
