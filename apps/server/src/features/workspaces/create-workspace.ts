import { allPermissionTags } from '@dukkan/contract';
import type { Database } from '../../db/client.ts';
import { roles, workspaces } from '../../db/schema/index.ts';
import type { MailLanguage } from '../../platform/mail/templates.ts';
import { createInvitation, type IssuedInvitation } from '../users/invitations.ts';

/** The role every new workspace starts with, so its admin can invite staff straight away. */
export const defaultRole = { code: 'manager', title: 'Manager' } as const;

export interface NewWorkspace {
  name: string;
  adminEmail: string;
  /** For an admin whose account the invitation creates. */
  adminLanguage: MailLanguage;
  adminProfile?: { name: string; phone?: string | null };
}

export interface CreatedWorkspace {
  workspace: { id: string; name: string };
  role: { id: string; code: string; title: string };
  invitation: IssuedInvitation;
}

/**
 * A workspace, its default role (every permission) and an invitation of its admin (run it in a
 * transaction). The admin becomes one by accepting, like anyone else: an existing user joins
 * with their password, a new one chooses a password then.
 */
export async function createWorkspaceWithAdmin(
  db: Database,
  input: NewWorkspace,
  now: Date,
): Promise<CreatedWorkspace> {
  const [workspace] = await db
    .insert(workspaces)
    .values({ name: input.name, createdAt: now, updatedAt: now })
    .returning({ id: workspaces.id, name: workspaces.name });
  if (!workspace) throw new Error('The workspace was not created');
  const [role] = await db
    .insert(roles)
    .values({
      workspaceId: workspace.id,
      ...defaultRole,
      permissions: [...allPermissionTags],
      createdAt: now,
      updatedAt: now,
    })
    .returning({ id: roles.id, code: roles.code, title: roles.title });
  if (!role) throw new Error('The default role was not created');
  const invitation = await createInvitation(
    db,
    {
      workspaceId: workspace.id,
      email: input.adminEmail,
      roleId: null,
      isAdmin: true,
      invitedBy: null,
      languageOfNewUser: input.adminLanguage,
      newUserProfile: input.adminProfile,
      mayChangeAdmins: true,
    },
    now,
  );
  return { workspace, role, invitation };
}
