import { validationCodes } from '@dukkan/contract';
import { and, eq, sql } from 'drizzle-orm';
import { memberships, roles } from '../../db/schema/index.ts';
import { AppError } from '../../errors.ts';
import type { ResourceCustomization } from '../../resource-engine/storage.ts';
import { refuseTagsNotHeld } from './grant-rules.ts';

/** Roles on the generic engine (table `roles`), with their holders' count and the rules it cannot know. */
export const rolesCustomization: ResourceCustomization = {
  key: 'authorityRoles',
  table: roles,
  // Written out qualified: Drizzle leaves the columns of a one-table select unqualified, and the
  // subquery's own table would then claim a name both have (workspace_id).
  computed: {
    usersCount: sql<number>`(select count(*) from "memberships" holder
      where holder.role_id = "roles"."id" and holder.workspace_id = "roles"."workspace_id")`.mapWith(Number),
  },
  hooks: {
    beforeWrite({ grant }, input, existing) {
      // A member who edits roles cannot hand out a tag they do not hold, nor change a role
      // holding one: what they strip from a stronger role they could never put back.
      if (existing) {
        refuseTagsNotHeld(
          grant,
          (existing.permissions as string[] | undefined) ?? [],
          'You cannot change a role with permissions you do not hold',
        );
      }
      const requested = input.permissions as string[] | undefined;
      if (requested) refuseTagsNotHeld(grant, requested, 'You cannot grant permissions you do not hold');
    },
    async beforeDelete({ db, workspaceId, grant }, existing) {
      refuseTagsNotHeld(
        grant,
        (existing.permissions as string[] | undefined) ?? [],
        'You cannot delete a role with permissions you do not hold',
      );
      const [holder] = await db
        .select({ userId: memberships.userId })
        .from(memberships)
        .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.roleId, existing.id as string)))
        .limit(1);
      if (holder) {
        throw new AppError('VALIDATION', 'This role is held by users; give them another role first', {
          key: 'id',
          issues: [{ path: 'id', message: validationCodes.ROLE_IN_USE }],
        });
      }
    },
  },
};
