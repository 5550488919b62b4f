import { z } from 'zod';
import { lazySchema } from '../lazy-schema.ts';
import type { ColumnDefinition } from '../resource-kit/columns.ts';
import { idField, recordStatusField, timestampField } from '../resource-kit/fields.ts';
import type { FormEntry, FormField, FormFieldGroup } from '../resource-kit/form-fields.ts';

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
 * A localized text's boxes, one per language side by side under the field's label (`name.en`,
 * `name.ar`). The text is needed in one language or the other, so neither box is marked required
 * nor optional; leaving both empty shows the field's `required` code under the English one.
 */
export function localizedFormGroup(
  field: string,
  labels: { group: string; en: string; ar: string },
): FormFieldGroup {
  return {
    kind: 'group',
    label: labels.group,
    columns: 2,
    fields: (['en', 'ar'] as const).map(
      (locale): FormField => ({
        name: `${field}.${locale}`,
        type: 'text',
        label: labels[locale],
        locale,
        disableRequiredIndicator: true,
      }),
    ),
  };
}

/** Code, then the name in each language side by side: the head of most catalogue forms. */
export const codeAndNameFormFields: readonly FormEntry[] = [
  codeFormField,
  localizedFormGroup('name', {
    group: 'resources.common.fields.name',
    en: 'resources.common.fields.nameEn',
    ar: 'resources.common.fields.nameAr',
  }),
];
