import type { CurrentUser } from '@dukkan/contract';
import { and, asc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { memberships, roles, users, workspaceAdmins, workspaces } from '../../db/schema/index.ts';

/** The spec's current-user shape: profile, admin workspaces and active role memberships. */
export async function loadCurrentUser(db: Database, userId: string): Promise<CurrentUser | null> {
  const [user] = await db
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
    .limit(1);
  if (!user) return null;

  const [adminRows, memberRows] = await Promise.all([
    db
      .select({ id: workspaces.id, name: workspaces.name, logo: workspaces.logo })
      .from(workspaceAdmins)
      .innerJoin(workspaces, eq(workspaces.id, workspaceAdmins.workspaceId))
      .where(eq(workspaceAdmins.userId, userId))
      .orderBy(asc(workspaces.name)),
    db
      .select({
        workspace: { id: workspaces.id, name: workspaces.name, logo: workspaces.logo },
        role: { id: roles.id, code: roles.code, title: roles.title, permissions: roles.permissions },
      })
      .from(memberships)
      .innerJoin(workspaces, eq(workspaces.id, memberships.workspaceId))
      .innerJoin(roles, eq(roles.id, memberships.roleId))
      .where(and(eq(memberships.userId, userId), eq(memberships.status, 'active')))
      .orderBy(asc(workspaces.name)),
  ]);

  return {
    ...user,
    adminWorkspaces: adminRows,
    workspaces: memberRows.map(({ workspace, role }) => ({
      workspaceId: workspace.id,
      workspace,
      role: { ...role, permissions: role.permissions.map((tag) => ({ tag })) },
    })),
  };
}
