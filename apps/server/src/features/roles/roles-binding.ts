import { authorityRolesResource, type RoleRecord } from '@dukkan/contract';
import { and, eq, sql } from 'drizzle-orm';
import { memberships, roles } from '../../db/schema/index.ts';
import { AppError, forbidden } from '../../http/errors.ts';
import { bindResource } from '../../resource-engine/binding.ts';

const usersCount =
  sql<number>`(select count(*) from ${memberships} where ${memberships.roleId} = ${roles.id})`.mapWith(
    Number,
  );

/** Roles on the generic engine, with the two rules it cannot know. */
export const rolesBinding = bindResource({
  definition: authorityRolesResource,
  table: roles,
  fields: { code: roles.code, title: roles.title, createdAt: roles.createdAt, usersCount },
  extraSelection: { usersCount },
  toRecord: (row): RoleRecord => ({
    id: row.id as string,
    code: row.code as string,
    title: row.title as string,
    permissions: row.permissions as string[],
    usersCount: row.usersCount as number,
    createdAt: (row.createdAt as Date).toISOString(),
    updatedAt: (row.updatedAt as Date).toISOString(),
  }),
  hooks: {
    beforeWrite({ grant }, input) {
      // A member who edits roles cannot hand out a tag they do not hold themselves.
      if (grant.isAdmin) return;
      const granted = (input.permissions as string[] | undefined) ?? [];
      const missing = granted.filter((tag) => !grant.tags.has(tag));
      if (missing.length > 0)
        throw forbidden(`You cannot grant permissions you do not hold: ${missing.join(', ')}`);
    },
    async beforeDelete({ db, workspaceId }, id) {
      const [holder] = await db
        .select({ userId: memberships.userId })
        .from(memberships)
        .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.roleId, id)))
        .limit(1);
      if (holder) {
        throw new AppError('VALIDATION', 'This role is held by users; give them another role first', {
          key: 'id',
          issues: [{ path: 'id', message: 'ROLE_IN_USE' }],
        });
      }
    },
  },
});
