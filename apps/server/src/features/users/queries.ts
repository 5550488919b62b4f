import { limits, type WorkspaceUserRecord } from '@dukkan/contract';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Database } from '../../db/client.ts';
import { memberships, roles, users } from '../../db/schema/index.ts';
import { collated } from '../../db/schema/sorting.ts';

/**
 * Until an invited person accepts, the workspace knows them by the email it typed and nothing
 * else: the name an existing account chose, its phone and its sign-ins stay theirs, and the
 * answer is the one a new account gets (named after the email's local part, as it is created).
 * The same expressions are searched and sorted, so neither tells them apart either.
 */
const isInvited = sql`${memberships.status} = 'invited'`;
const visibleName = sql<string>`case when ${isInvited} then left(split_part(${users.email}, '@', 1), ${limits.name}) else ${users.name} end`;
const visiblePhone = sql<string | null>`case when ${isInvited} then null else ${users.phone} end`;

/** Record field → column, for search, sort and filters (the contract's names). */
export const workspaceUserFields: Record<string, AnyPgColumn | SQL> = {
  // In the sort collation, as the engine's lists: the same order on PGlite and PostgreSQL.
  name: collated(visibleName),
  email: users.email,
  code: memberships.code,
  // The last sign-in to this workspace, not the account's latest anywhere.
  lastLoginAt: memberships.lastSignInAt,
  createdAt: memberships.createdAt,
  status: memberships.status,
  role: memberships.roleId,
};

/**
 * The workspace's only active admin, whom LAST_ADMIN always protects: the page then offers no
 * Disable or Remove that would fail (the check itself stays in the routes, under the lock).
 */
const isLastAdmin = sql<boolean>`(${memberships.isAdmin} and ${memberships.status} = 'active' and not exists (
  select 1 from memberships as other_admin
  where other_admin.workspace_id = ${memberships.workspaceId} and other_admin.is_admin
    and other_admin.status = 'active' and other_admin.user_id <> ${memberships.userId}))`;

const recordSelection = {
  id: users.id,
  code: memberships.code,
  name: visibleName,
  email: users.email,
  phone: visiblePhone,
  isAdmin: memberships.isAdmin,
  isLastAdmin,
  roleId: roles.id,
  roleTitle: roles.title,
  applications: memberships.applications,
  lastLoginAt: memberships.lastSignInAt,
  status: memberships.status,
  createdAt: memberships.createdAt,
};

type RecordRow = Awaited<ReturnType<typeof selectWorkspaceUsers>>[number];

export function toWorkspaceUserRecord(row: RecordRow): WorkspaceUserRecord {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    email: row.email,
    phone: row.phone,
    isAdmin: row.isAdmin,
    isLastAdmin: Boolean(row.isLastAdmin),
    role: row.roleId !== null && row.roleTitle !== null ? { id: row.roleId, title: row.roleTitle } : null,
    applications: row.applications,
    lastLoginAt: row.lastLoginAt?.toISOString() ?? null,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Members of one workspace with their account and role; `where` always includes the workspace. */
export function selectWorkspaceUsers(db: Database, workspaceId: string, where?: SQL) {
  return db
    .select(recordSelection)
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .leftJoin(roles, eq(roles.id, memberships.roleId))
    .where(and(eq(memberships.workspaceId, workspaceId), where));
}

/** One member of the workspace as the Users page shows them, or null if they are not one. */
export async function findWorkspaceUser(
  db: Database,
  workspaceId: string,
  userId: string,
): Promise<WorkspaceUserRecord | null> {
  const [row] = await selectWorkspaceUsers(db, workspaceId, eq(memberships.userId, userId)).limit(1);
  return row ? toWorkspaceUserRecord(row) : null;
}
