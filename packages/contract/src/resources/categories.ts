import { z } from 'zod';
import { defineResource } from '../resource-kit/define-resource.ts';
import {
  codeField,
  descriptionField,
  localizedNameField,
  localizedNameRecordField,
  referenceField,
} from '../resource-kit/fields.ts';
import { statusRecordFields } from './catalogue-common.ts';

/** Categories and waste categories share one shape: a tree of named, described records. */
export const categoryInputSchema = z.object({
  code: codeField,
  name: localizedNameField,
  description: descriptionField,
  parentId: referenceField.nullable().default(null),
});
export type CategoryInput = z.infer<typeof categoryInputSchema>;

export const categoryRecordSchema = z.object({
  ...statusRecordFields,
  name: localizedNameRecordField,
  description: z.string(),
  parentId: z.string().nullable(),
});
export type CategoryRecord = z.infer<typeof categoryRecordSchema>;

const categoryDeclaration = {
  verbs: ['list', 'get', 'filters', 'create', 'bulk', 'update', 'delete'],
  schemas: {
    record: categoryRecordSchema,
    create: categoryInputSchema,
    update: categoryInputSchema.partial(),
  },
  search: ['code', 'name', 'description'],
  sort: ['code', 'name', 'createdAt'],
  defaultSort: 'code',
  filters: [{ field: 'parentId', kind: 'reference' }],
  hasStatus: true,
} as const;

export const categoriesResource = defineResource({
  key: 'categories',
  path: 'categories',
  permission: 'Categories',
  ...categoryDeclaration,
});

export const wasteCategoriesResource = defineResource({
  key: 'wasteCategories',
  path: 'waste-categories',
  permission: 'WasteCategories',
  ...categoryDeclaration,
});
