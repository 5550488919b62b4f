import { invitationLifetimeDays, limits, validationCodes } from '@dukkan/contract';
import { and, eq, lte } from 'drizzle-orm';
import { auditedChange } from '../../db/audit-log.ts';
import type { Database } from '../../db/client.ts';
import { revokeUnusableGrants } from '../../db/oauth-grants.ts';
import { invites, memberships, passwordTokens, users } from '../../db/schema/index.ts';
import { forbidden, validationError } from '../../errors.ts';
import { createToken } from '../../http/tokens.ts';
import type { MailLanguage } from '../../platform/mail/render.ts';
import { refuseUnusableApplications } from './member-applications.ts';

const dayMs = 24 * 60 * 60 * 1000;
/** A 'set' password token issued after an invitation is accepted lives as long as a reset token. */
const setPasswordTokenLifetimeMs = 60 * 60 * 1000;

/** The page that opens an invitation: `/accept-invite?token=…` (spec §2). */
export function invitationLink(publicUrl: string, token: string): string {
  return `${publicUrl}/accept-invite?token=${token}`;
}

/** A first name for someone known only by email: the address's local part, within the name limit. */
export function nameFromEmail(email: string): string {
  const local = email.split('@')[0]?.trim() ?? '';
  return (local || email).slice(0, limits.name);
}

interface InvitationRequest {
  workspaceId: string;
  email: string;
  roleId: string | null;
  isAdmin: boolean;
  code?: string | null;
  applications?: string[];
  invitedBy: string | null;
  /**
   * Only when the invitation also creates the account: a language its owner chose (an access
   * request's page), or null when someone else invites them (the inviter's is not their choice).
   */
  languageOfNewUser: MailLanguage | null;
  /** Only when the invitation also creates the account; default: a name from the email. */
  newUserProfile?: { name: string; phone?: string | null };
  /**
   * The inviter is an admin (or the platform): they may re-invite a pending admin and give any
   * installed application; a non-admin `invitedBy` gives only applications they hold.
   */
  mayChangeAdmins: boolean;
}

export interface IssuedInvitation {
  userId: string;
  token: string;
  expiresAt: Date;
  createdUser: boolean;
  /** The account's saved language (null: never chosen), for the invitation mail. */
  savedLanguage: MailLanguage | null;
}

/**
 * Replaces the membership's invitation token (one live link per membership: a resend makes
 * the previous link unknown) and returns the new token; only its SHA-256 is stored.
 */
export async function issueInvitationToken(
  db: Database,
  workspaceId: string,
  userId: string,
  now: Date,
): Promise<{ token: string; expiresAt: Date }> {
  const { token, tokenHash } = createToken();
  const expiresAt = new Date(now.getTime() + invitationLifetimeDays * dayMs);
  // The token's hash is a secret column: the row says when the link was sent and until when it holds.
  await auditedChange(
    db,
    invites,
    {
      workspaceId,
      resource: 'invitations',
      recordId: userId,
      where: and(eq(invites.workspaceId, workspaceId), eq(invites.userId, userId)),
    },
    () =>
      db
        .insert(invites)
        .values({ tokenHash, workspaceId, userId, expiresAt, createdAt: now })
        .onConflictDoUpdate({
          target: [invites.workspaceId, invites.userId],
          set: { tokenHash, expiresAt, acceptedAt: null, createdAt: now },
        }),
  );
  return { token, expiresAt };
}

/**
 * Invites a person into a workspace (run it in a transaction): creates their account when the
 * email is new (no password: they choose one after accepting), a membership waiting in status
 * `invited`, and a fresh token. An existing member is refused; a pending invitation is renewed
 * with the new role, code and applications. The applications must be installed in the workspace,
 * a non-admin inviter must hold them, and a non-admin invitee needs one when any is installed
 * (refused before the membership is written; the caller's transaction takes the account back).
 */
export async function createInvitation(
  db: Database,
  request: InvitationRequest,
  now: Date,
): Promise<IssuedInvitation> {
  const inserted = await db
    .insert(users)
    .values({
      email: request.email,
      name: request.newUserProfile?.name ?? nameFromEmail(request.email),
      phone: request.newUserProfile?.phone ?? null,
      language: request.languageOfNewUser,
    })
    .onConflictDoNothing({ target: users.email })
    .returning({ id: users.id, language: users.language });
  let userId = inserted[0]?.id;
  let savedLanguage = inserted[0]?.language ?? null;
  const createdUser = userId !== undefined;
  if (!userId) {
    const [existing] = await db
      .select({ id: users.id, language: users.language })
      .from(users)
      .where(eq(users.email, request.email))
      .limit(1);
    if (!existing) throw new Error(`User ${request.email} vanished while being invited`);
    userId = existing.id;
    savedLanguage = existing.language;
  }

  const [membership] = await db
    .select({
      status: memberships.status,
      isAdmin: memberships.isAdmin,
      applications: memberships.applications,
    })
    .from(memberships)
    .where(and(eq(memberships.workspaceId, request.workspaceId), eq(memberships.userId, userId)))
    .for('update');
  const details = {
    roleId: request.roleId,
    code: request.code || null,
    applications: request.applications ?? [],
    invitedBy: request.invitedBy,
  };
  if (membership && membership.status !== 'invited') {
    throw validationError([{ path: 'email', message: validationCodes.ALREADY_A_MEMBER }]);
  }
  if (membership?.isAdmin && !request.mayChangeAdmins) throw forbidden('Only an admin can change an admin');
  const isAdmin = (membership?.isAdmin ?? false) || request.isAdmin;
  await refuseUnusableApplications(
    db,
    request.workspaceId,
    {
      userId,
      isAdmin,
      applications: details.applications,
      named: true,
      // A pending invitation renewed with the applications it has gives nothing new.
      current: membership?.applications ?? [],
    },
    request.invitedBy === null ? null : { userId: request.invitedBy, isAdmin: request.mayChangeAdmins },
  );
  const ofMember = and(eq(memberships.workspaceId, request.workspaceId), eq(memberships.userId, userId));
  const audited = {
    workspaceId: request.workspaceId,
    resource: 'memberships',
    recordId: userId,
    where: ofMember,
    action: 'invite',
  };
  if (!membership) {
    await auditedChange(db, memberships, audited, () =>
      db.insert(memberships).values({
        workspaceId: request.workspaceId,
        userId,
        status: 'invited',
        isAdmin: request.isAdmin,
        ...details,
        createdAt: now,
        updatedAt: now,
      }),
    );
  } else {
    await auditedChange(db, memberships, audited, () =>
      db
        .update(memberships)
        .set({ ...details, isAdmin, updatedAt: now })
        .where(ofMember),
    );
    await revokeUnusableGrants(db, { workspaceId: request.workspaceId, userId });
  }

  const { token, expiresAt } = await issueInvitationToken(db, request.workspaceId, userId, now);
  return { userId, token, expiresAt, createdUser, savedLanguage };
}

/**
 * A single-use, one-hour token that lets someone without a password complete their profile
 * (`POST auth/set-profile`). Earlier live ones keep working — the page may ask for the invite's
 * status again while the visitor holds one — and using any of them ends them all.
 */
export async function issueSetPasswordToken(db: Database, userId: string, now: Date): Promise<string> {
  const { token, tokenHash } = createToken();
  await db
    .delete(passwordTokens)
    .where(
      and(
        eq(passwordTokens.userId, userId),
        eq(passwordTokens.purpose, 'set'),
        lte(passwordTokens.expiresAt, now),
      ),
    );
  await db.insert(passwordTokens).values({
    tokenHash,
    userId,
    purpose: 'set',
    expiresAt: new Date(now.getTime() + setPasswordTokenLifetimeMs),
    createdAt: now,
  });
  return token;
}
