import type { WorkspaceUserRecord } from '@dukkan/contract';
import { and, eq, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Database } from '../../db/client.ts';
import { memberships, roles, users } from '../../db/schema/index.ts';

/** Record field → column, for search, sort and filters (the contract's names). */
export const workspaceUserFields: Record<string, AnyPgColumn | SQL> = {
  name: users.name,
  email: users.email,
  code: memberships.code,
  lastLoginAt: users.lastLoginAt,
  createdAt: memberships.createdAt,
  status: memberships.status,
  role: memberships.roleId,
};

const recordSelection = {
  id: users.id,
  code: memberships.code,
  name: users.name,
  email: users.email,
  phone: users.phone,
  isAdmin: memberships.isAdmin,
  roleId: roles.id,
  roleTitle: roles.title,
  applications: memberships.applications,
  lastLoginAt: users.lastLoginAt,
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
