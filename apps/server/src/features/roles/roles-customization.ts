import { validationCodes } from '@dukkan/contract';
import { and, eq, sql } from 'drizzle-orm';
import { memberships, roles } from '../../db/schema/index.ts';
import { AppError } from '../../http/errors.ts';
import type { ResourceCustomization } from '../../resource-engine/storage.ts';
import { refuseTagsNotHeld } from './grant-rules.ts';

/** Roles on the generic engine (table `roles`), with their holders' count and the two rules it cannot know. */
export const rolesCustomization: ResourceCustomization = {
  key: 'authorityRoles',
  table: roles,
  computed: {
    usersCount:
      sql<number>`(select count(*) from ${memberships} where ${memberships.roleId} = ${roles.id})`.mapWith(
        Number,
      ),
  },
  hooks: {
    beforeWrite({ grant }, input, existing) {
      // A member who edits roles cannot hand out a tag they do not hold themselves; tags the
      // role already had are not being granted, so an unchanged list can be sent back as is.
      const requested = input.permissions as string[] | undefined;
      if (!requested) return;
      const alreadyGranted = new Set((existing?.permissions as string[] | undefined) ?? []);
      refuseTagsNotHeld(
        grant,
        requested.filter((tag) => !alreadyGranted.has(tag)),
        'You cannot grant permissions you do not hold',
      );
    },
    async beforeDelete({ db, workspaceId }, existing) {
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
