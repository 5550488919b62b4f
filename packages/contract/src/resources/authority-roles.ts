import { z } from 'zod';
import { lazySchema } from '../lazy-schema.ts';
import { allPermissionTags, type PermissionTag } from '../permissions/tags.ts';
import { defineResource, inputSchemas, resourceVerbs } from '../resource-kit/define-resource.ts';
import { codeField, idField, timestampField, titleField } from '../resource-kit/fields.ts';
import { validationCodes as codes } from '../validation-codes.ts';

const permissionTagField = lazySchema(() =>
  z.enum(allPermissionTags as [PermissionTag, ...PermissionTag[]], {
    error: codes.PERMISSION_IS_INVALID,
  }),
);

export const roleInputSchema = lazySchema(() =>
  z.object({
    code: codeField,
    title: titleField,
    permissions: z
      .array(permissionTagField)
      .max(allPermissionTags.length, codes.PERMISSION_REPEATED)
      .transform((tags) => [...new Set(tags)])
      .default([]),
  }),
);
export type RoleInput = z.infer<typeof roleInputSchema>;

export const roleRecordSchema = lazySchema(() =>
  z.object({
    id: idField,
    code: z.string(),
    title: z.string(),
    permissions: z.array(z.string()),
    usersCount: z.number(),
    createdAt: timestampField,
    updatedAt: timestampField,
  }),
);
export type RoleRecord = z.infer<typeof roleRecordSchema>;

/** Roles of a workspace (`/authority-roles`): a code, a title and the permission tags it grants. */
export const authorityRolesResource = defineResource({
  key: 'authorityRoles',
  path: 'authority-roles',
  permission: 'Authority',
  menu: { group: 'settings', order: 20 },
  verbs: resourceVerbs,
  // A role's permissions are granted in the role editor, never from a file.
  importable: false,
  schemas: inputSchemas(roleRecordSchema, roleInputSchema),
  search: ['code', 'title'],
  sort: ['code', 'title', 'usersCount', 'createdAt'],
  defaultSort: 'code',
  filters: [],
  hasStatus: false,
  codePrefix: 'ROLE',
});
