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
import { codeAndNameColumns, codeAndNameFormFields, statusRecordFields } from './catalogue-common.ts';

export const productTagInputSchema = lazySchema(() =>
  z.object({ code: codeField, name: localizedNameField }),
);
export type ProductTagInput = z.infer<typeof productTagInputSchema>;

export const productTagRecordSchema = lazySchema(() =>
  z.object({ ...statusRecordFields, name: localizedNameRecordField }),
);
export type ProductTagRecord = z.infer<typeof productTagRecordSchema>;

export const productTagsResource = defineResource({
  key: 'productTags',
  path: 'product-tags',
  permission: 'Tags',
  menu: { group: 'data', order: 90 },
  verbs: resourceVerbs,
  schemas: inputSchemas(productTagRecordSchema, productTagInputSchema),
  search: ['code', 'name'],
  sort: ['code', 'name', 'createdAt'],
  defaultSort: 'code',
  filters: [],
  hasStatus: true,
  codePrefix: 'TAG',
  columns: [...codeAndNameColumns, { field: 'status', kind: 'status' }],
  form: {
    fields: codeAndNameFormFields,
    schema: lazySchema(() => productTagInputSchema.extend({ name: localizedNameFormField })),
    values: (tag) => ({ code: tag.code, name: localizedNameFormValues(tag.name) }),
  },
});
