import { limits } from '@dukkan/contract';
import { and, eq, sql } from 'drizzle-orm';
import { memberships, roles, userFactors, users } from '../../db/schema/index.ts';
import { collated } from '../../db/schema/sorting.ts';
import type { ResourceCustomization, ResourceTable } from '../../resource-engine/storage.ts';

/*
 * Until an invited person accepts, the workspace knows them by the email it typed and nothing
 * else: the name an existing account chose, its phone and its sign-ins stay theirs, and the
 * answer is the one a new account gets (named after the email's local part, as it is created).
 * The same expressions are searched and sorted, so neither tells them apart either.
 */
const isInvited = sql`${memberships.status} = 'invited'`;
const visibleName = sql<string>`case when ${isInvited} then left(split_part(${users.email}, '@', 1), ${limits.name}) else ${users.name} end`;
const visiblePhone = sql<string | null>`case when ${isInvited} then null else ${users.phone} end`;
/** Whether the member has enrolled a second factor (issue 35: members' lists show who has). */
const secondFactor = sql<boolean | null>`case when ${isInvited} then null else exists (
  select 1 from ${userFactors} where ${userFactors.userId} = ${users.id}) end`;

/**
 * The workspace's only active admin, whom LAST_ADMIN always protects: the page then offers no
 * Disable or Remove that would fail (the check itself stays in the routes, under the lock).
 */
const isLastAdmin = sql<boolean>`(${memberships.isAdmin} and ${memberships.status} = 'active' and not exists (
  select 1 from memberships as other_admin
  where other_admin.workspace_id = ${memberships.workspaceId} and other_admin.is_admin
    and other_admin.status = 'active' and other_admin.user_id <> ${memberships.userId}))`;

/**
 * The members of a workspace are the contract's `workspaceUsers` resource: a membership joined to
 * its account and its role, listed and read by the engine (search, sorts in the collation every
 * list uses, paging, 404 across workspaces). A member is invited, not created, and changed under
 * the admin rules of this feature's own routes (`routes.ts`), which also name the roles in the
 * filters for a reader who may not list roles.
 */
export const workspaceUsersCustomization: ResourceCustomization = {
  key: 'workspaceUsers',
  // Memberships are keyed by workspace and account, without an id column of their own.
  table: memberships as unknown as ResourceTable,
  source: {
    id: users.id,
    join: (query) =>
      query
        .innerJoin(users, eq(users.id, memberships.userId))
        .leftJoin(
          roles,
          and(eq(roles.id, memberships.roleId), eq(roles.workspaceId, memberships.workspaceId)),
        ),
  },
  computed: {
    // In the sort collation, as every list's names: the same order on PGlite and PostgreSQL.
    name: collated(visibleName),
    email: users.email,
    phone: visiblePhone,
    isLastAdmin,
    role: sql`case when ${roles.id} is null then null else json_build_object('id', ${roles.id}, 'title', ${roles.title}) end`,
    // The last sign-in to this workspace, not the account's latest anywhere.
    lastLoginAt: memberships.lastSignInAt,
    secondFactor,
  },
  // Like the engine's reference filters; `none` is the members without a role.
  filteredAs: { role: (ids) => sql`${memberships.roleId} = any(${ids})` },
  featureVerbs: ['filters', 'update', 'delete'],
};
