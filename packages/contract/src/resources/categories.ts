import { z } from 'zod';
import { lazySchema } from '../lazy-schema.ts';
import type { ResourceFormDefinition } from '../resource-kit/define-resource.ts';
import { defineResource, inputSchemas, resourceVerbs } from '../resource-kit/define-resource.ts';
import {
  codeField,
  emptyAsNull,
  localizedDescriptionField,
  localizedDescriptionFormField,
  localizedNameField,
  localizedNameFormField,
  localizedNameFormValues,
  localizedNameRecordField,
  localizedTextFormValues,
  localizedTextRecordField,
  referenceField,
} from '../resource-kit/fields.ts';
import {
  codeAndNameColumns,
  codeAndNameFormFields,
  fieldLabel,
  localizedFormGroup,
  statusRecordFields,
} from './catalogue-common.ts';

/** Categories and waste categories share one shape: a tree of named, described records. */
export const categoryInputSchema = lazySchema(() =>
  z.object({
    code: codeField,
    name: localizedNameField,
    /** In English, in Arabic or in both, like the name. */
    description: localizedDescriptionField,
    parentId: referenceField.nullable().default(null),
  }),
);
export type CategoryInput = z.infer<typeof categoryInputSchema>;

export const categoryRecordSchema = lazySchema(() =>
  z.object({
    ...statusRecordFields,
    name: localizedNameRecordField,
    description: localizedTextRecordField,
    parentId: z.string().nullable(),
  }),
);
export type CategoryRecord = z.infer<typeof categoryRecordSchema>;

/** The form of a category tree; its parent is chosen among the same resource's records. */
const categoryForm = (key: string): ResourceFormDefinition<CategoryRecord> => ({
  fields: [
    ...codeAndNameFormFields,
    localizedFormGroup('description', {
      group: fieldLabel(key, 'description'),
      en: fieldLabel(key, 'descriptionEn'),
      ar: fieldLabel(key, 'descriptionAr'),
    }),
    {
      name: 'parentId',
      type: 'select',
      optionSource: { kind: 'resource', resource: key, parentField: 'parentId' },
      label: fieldLabel(key, 'parentId'),
      placeholder: fieldLabel(key, 'noParent'),
    },
  ],
  schema: lazySchema(() =>
    categoryInputSchema.extend({
      name: localizedNameFormField,
      description: localizedDescriptionFormField,
      parentId: emptyAsNull(referenceField),
    }),
  ),
  values: (category) => ({
    code: category.code,
    name: localizedNameFormValues(category.name),
    description: localizedTextFormValues(category.description),
    parentId: category.parentId ?? '',
  }),
});

const categoryDeclaration = {
  verbs: resourceVerbs,
  schemas: inputSchemas(categoryRecordSchema, categoryInputSchema),
  search: ['code', 'name', 'description'],
  sort: ['code', 'name', 'createdAt'],
  defaultSort: 'code',
  hasStatus: true,
  columns: [
    ...codeAndNameColumns,
    { field: 'description', kind: 'localizedText' },
    { field: 'status', kind: 'status' },
  ],
} as const;

export const categoriesResource = defineResource({
  key: 'categories',
  path: 'categories',
  permission: 'Categories',
  menu: { group: 'data', order: 70 },
  ...categoryDeclaration,
  codePrefix: 'CAT',
  filters: [{ field: 'parentId', kind: 'reference', resource: 'categories' }],
  form: categoryForm('categories'),
});

export const wasteCategoriesResource = defineResource({
  key: 'wasteCategories',
  path: 'waste-categories',
  permission: 'WasteCategories',
  menu: { group: 'data', order: 80 },
  ...categoryDeclaration,
  codePrefix: 'WST',
  filters: [{ field: 'parentId', kind: 'reference', resource: 'wasteCategories' }],
  form: categoryForm('wasteCategories'),
});
