import { allPermissionTags, roleInputSchema } from '@dukkan/contract';
import { auditEntry, recordAudit } from '../../db/audit-log.ts';
import type { Database } from '../../db/client.ts';
import { workspaces } from '../../db/schema/index.ts';
import { recipientLanguage } from '../../http/mail-language.ts';
import type { Mailer, OutgoingMail } from '../../platform/mail/mailer.ts';
import type { MailLanguage } from '../../platform/mail/render.ts';
import type { ResourceEngine } from '../../resource-engine/registry.ts';
import { systemCaller } from '../../resource-engine/storage.ts';
import { invitationMail } from '../users/invitation-mail.ts';
import { createInvitation, type IssuedInvitation, invitationLink } from '../users/invitations.ts';
import { addStarterUnits } from './starter-set.ts';

/** The role every new workspace starts with, so its admin can invite staff straight away. */
const defaultRole = { code: 'manager', title: 'Manager' } as const;

interface NewWorkspace {
  name: string;
  adminEmail: string;
  /** For an admin whose account the invitation creates: a language they chose, else null. */
  adminLanguage: MailLanguage | null;
  adminProfile?: { name: string; phone?: string | null };
}

interface CreatedWorkspace {
  workspace: { id: string; name: string };
  role: { id: string; code: string; title: string };
  invitation: IssuedInvitation;
}

/**
 * A workspace, its default role (every permission), its starter set (`starter-set.ts`: the
 * measurement units a shop uses) and an invitation of its admin (run it in a transaction). The admin becomes one by accepting, like anyone else: an existing user joins
 * with their password, a new one chooses a password then.
 */
export async function createWorkspaceWithAdmin(
  db: Database,
  resources: ResourceEngine,
  input: NewWorkspace,
  now: Date,
): Promise<CreatedWorkspace> {
  const [workspace] = await db
    .insert(workspaces)
    .values({ name: input.name, createdAt: now, updatedAt: now })
    .returning();
  if (!workspace) throw new Error('The workspace was not created');
  await recordAudit(db, [auditEntry(workspaces, workspace.id, 'settings', workspace.id, null, workspace)]);
  // Through the roles' own create, as an admin of the new workspace would make it.
  const [created] = await resources
    .data('authorityRoles')
    .create(db, systemCaller(workspace.id), [
      roleInputSchema.parse({ ...defaultRole, permissions: [...allPermissionTags] }),
    ]);
  const role = { id: String(created!.id), code: String(created!.code), title: String(created!.title) };
  await addStarterUnits(db, resources, workspace.id);
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
  return { workspace: { id: workspace.id, name: workspace.name }, role, invitation };
}

/** What became of a mail sent after the work was saved: a failure leaves that work standing. */
export interface MailDelivery {
  to: string;
  /** Why sending failed; null once it was sent (or written to the outbox). */
  failure: string | null;
}

/** Sends a mail and tells what became of it instead of throwing. */
export async function deliverMail(mailer: Mailer, mail: OutgoingMail): Promise<MailDelivery> {
  try {
    await mailer.send(mail);
    return { to: mail.to, failure: null };
  } catch (error) {
    return { to: mail.to, failure: (error as Error).message };
  }
}

/** A new workspace whose admin has been mailed the invitation (or the mail's failure reported). */
export interface WorkspaceWithMailedAdmin extends CreatedWorkspace {
  adminEmail: string;
  /** The invitation's link, for passing on by hand when the mail did not go. */
  invitationLink: string;
  mail: MailDelivery;
}

/**
 * Mails a new workspace's admin their invitation (sent by the platform, not by a member: no
 * causer), in their saved language, else `statedLanguage` (an access request's page), else en.
 */
export async function mailAdminInvitation(
  mailer: Mailer,
  publicUrl: string,
  created: CreatedWorkspace,
  adminEmail: string,
  statedLanguage: MailLanguage | null,
): Promise<WorkspaceWithMailedAdmin> {
  const language = recipientLanguage({
    recipient: created.invitation.savedLanguage ?? statedLanguage,
    causer: null,
  });
  const link = invitationLink(publicUrl, created.invitation.token);
  const mail = await deliverMail(mailer, {
    to: adminEmail,
    ...invitationMail(language, { workspaceName: created.workspace.name, inviterName: null, link }),
  });
  return { ...created, adminEmail, invitationLink: link, mail };
}

/**
 * The operator's "create workspace": the workspace, its role and its admin's invitation in one
 * transaction, then the invitation mailed — in the admin's saved language, else English.
 */
export async function createWorkspaceAndMailAdmin(
  services: { db: Database; mailer: Mailer; publicUrl: string; resources: ResourceEngine },
  input: { name: string; adminEmail: string },
  now: Date,
): Promise<WorkspaceWithMailedAdmin> {
  const { db, mailer, publicUrl, resources } = services;
  const created = await db.transaction((tx) =>
    createWorkspaceWithAdmin(
      tx,
      resources,
      { name: input.name, adminEmail: input.adminEmail, adminLanguage: null },
      now,
    ),
  );
  return mailAdminInvitation(mailer, publicUrl, created, input.adminEmail, null);
}
