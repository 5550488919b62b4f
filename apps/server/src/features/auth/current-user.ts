import type { CurrentUser, RoleSummary, WorkspaceSummary } from '@dukkan/contract';
import { and, asc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { memberships, roles, users, workspaces } from '../../db/schema/index.ts';

/**
 * The spec's current-user shape: the profile, the workspaces the user is an active admin of,
 * and the active memberships that carry a role (an admin without a role is only in the first).
 */
export async function loadCurrentUser(db: Database, userId: string): Promise<CurrentUser | null> {
  const [userRows, memberRows] = await Promise.all([
    db
      .select({
        id: users.id,
        name: users.name,
        email: users.email,
        phone: users.phone,
        profilePicture: users.profilePicture,
        language: users.language,
      })
      .from(users)
      .where(eq(users.id, userId))
      .limit(1),
    // One query for both lists: the memberships of the user that grant anything.
    db
      .select({
        isAdmin: memberships.isAdmin,
        workspace: { id: workspaces.id, name: workspaces.name, logo: workspaces.logo },
        roleId: roles.id,
        roleCode: roles.code,
        roleTitle: roles.title,
        permissions: roles.permissions,
      })
      .from(memberships)
      .innerJoin(workspaces, eq(workspaces.id, memberships.workspaceId))
      .leftJoin(roles, eq(roles.id, memberships.roleId))
      .where(and(eq(memberships.userId, userId), eq(memberships.status, 'active')))
      .orderBy(asc(workspaces.name), asc(workspaces.id)),
  ]);
  const [user] = userRows;
  if (!user) return null;

  const adminWorkspaces: WorkspaceSummary[] = [];
  const roleWorkspaces: CurrentUser['workspaces'] = [];
  for (const row of memberRows) {
    if (row.isAdmin) adminWorkspaces.push(row.workspace);
    if (row.roleId !== null && row.roleCode !== null && row.roleTitle !== null) {
      const role: RoleSummary = {
        id: row.roleId,
        code: row.roleCode,
        title: row.roleTitle,
        permissions: (row.permissions ?? []).map((tag) => ({ tag })),
      };
      roleWorkspaces.push({ workspaceId: row.workspace.id, workspace: row.workspace, role });
    }
  }
  return { ...user, adminWorkspaces, workspaces: roleWorkspaces };
}
