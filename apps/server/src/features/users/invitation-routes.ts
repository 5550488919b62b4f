import {
  type AcceptInviteResult,
  acceptInviteInputSchema,
  type InviteStatus,
  linkTokenField,
  setProfileInputSchema,
  validationCodes,
} from '@dukkan/contract';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { recordAudit, recordSignInEvent } from '../../db/audit-log.ts';
import { invites, memberships, passwordTokens, sessions, users, workspaces } from '../../db/schema/index.ts';
import { notFound, parseInput, validationError } from '../../errors.ts';
import { access } from '../../http/access.ts';
import type { AppContext } from '../../http/context.ts';
import { hashToken } from '../../http/tokens.ts';
import { hashChosenPassword } from '../auth/passwords.ts';
import { issueSetPasswordToken } from './invitations.ts';

const inviteStatusQuerySchema = z.object({ token: linkTokenField });
const tokenIsInvalid = () => validationError([{ path: 'token', message: validationCodes.TOKEN_IS_INVALID }]);

/**
 * The invitation flow of spec §2 and §4, all public (the mailed token is the credential):
 * `GET auth/invite-status` → `POST workspaces/users/accept-invite` → `POST auth/set-profile`
 * for a person who has no password yet → `/login`.
 */
export function registerInvitationRoutes(app: FastifyInstance, context: AppContext) {
  const { db, captcha } = context;

  app.get('/api/auth/invite-status', { config: { access: access.public } }, async (request) => {
    const { token } = parseInput(inviteStatusQuerySchema, request.query);
    const now = context.now();
    return db.transaction(async (tx) => {
      const [invite] = await tx
        .select({
          userId: invites.userId,
          expiresAt: invites.expiresAt,
          acceptedAt: invites.acceptedAt,
          workspaceName: workspaces.name,
          email: users.email,
          passwordHash: users.passwordHash,
        })
        .from(invites)
        .innerJoin(workspaces, eq(workspaces.id, invites.workspaceId))
        .innerJoin(users, eq(users.id, invites.userId))
        .where(eq(invites.tokenHash, hashToken(token)))
        .limit(1);
      if (!invite) throw notFound('This Invite Is Invalid');

      const expired = invite.expiresAt.getTime() <= now.getTime();
      const status: InviteStatus['status'] = invite.acceptedAt ? 'accepted' : expired ? 'expired' : 'pending';
      // Someone who accepted but never chose a password (the page was closed) can still complete
      // the profile from the same link while it is valid: a fresh single-use token each time.
      const passwordResetToken =
        status === 'accepted' && !expired && invite.passwordHash === null
          ? await issueSetPasswordToken(tx, invite.userId, now)
          : null;
      const data: InviteStatus = {
        status,
        user: { email: invite.email, passwordResetToken },
        workspace: { name: invite.workspaceName },
      };
      return { data };
    });
  });

  app.post('/api/workspaces/users/accept-invite', { config: { access: access.public } }, async (request) => {
    const { token } = parseInput(acceptInviteInputSchema, request.body);
    const now = context.now();
    const data = await db.transaction(async (tx): Promise<AcceptInviteResult> => {
      // Marking it accepted in the same statement that checks it is what makes it single-use.
      const [invite] = await tx
        .update(invites)
        .set({ acceptedAt: now })
        .where(
          and(
            eq(invites.tokenHash, hashToken(token)),
            isNull(invites.acceptedAt),
            gt(invites.expiresAt, now),
          ),
        )
        .returning({ workspaceId: invites.workspaceId, userId: invites.userId });
      if (!invite) throw tokenIsInvalid();
      const [joined] = await tx
        .update(memberships)
        .set({ status: 'active', updatedAt: now })
        .where(
          and(
            eq(memberships.workspaceId, invite.workspaceId),
            eq(memberships.userId, invite.userId),
            eq(memberships.status, 'invited'),
          ),
        )
        .returning({ userId: memberships.userId });
      if (!joined) throw tokenIsInvalid();
      // The invited person acts, through the link: no session names them.
      const accepted = {
        workspaceId: invite.workspaceId,
        recordId: invite.userId,
        actorUserId: invite.userId,
      };
      await recordAudit(tx, [
        {
          ...accepted,
          resource: 'invitations',
          action: 'accept',
          changes: { acceptedAt: [null, now.toISOString()] },
        },
        {
          ...accepted,
          resource: 'memberships',
          action: 'accept',
          changes: { status: ['invited', 'active'] },
        },
      ]);

      const [details] = await tx
        .select({ passwordHash: users.passwordHash, workspaceName: workspaces.name })
        .from(users)
        .innerJoin(workspaces, eq(workspaces.id, invite.workspaceId))
        .where(eq(users.id, invite.userId))
        .limit(1);
      if (!details) throw tokenIsInvalid();
      // A person who already has an account simply joins; only a new one gets a token to
      // choose a password with.
      return details.passwordHash === null
        ? {
            passwordResetToken: await issueSetPasswordToken(tx, invite.userId, now),
            workspace: { name: details.workspaceName },
          }
        : { workspace: { name: details.workspaceName } };
    });
    return { data };
  });

  app.post('/api/auth/set-profile', { config: { access: access.public } }, async (request) => {
    const input = parseInput(setProfileInputSchema, request.body);
    await captcha.verify(input.reCaptchaToken, request.ip);
    const passwordHash = await hashChosenPassword(input.password, 'password', [input.name]);
    const now = context.now();
    const consumed = await db.transaction(async (tx) => {
      // Consumed like a reset token: deleting the row is what makes it single-use.
      const [token] = await tx
        .delete(passwordTokens)
        .where(
          and(
            eq(passwordTokens.tokenHash, hashToken(input.passwordResetToken)),
            eq(passwordTokens.purpose, 'set'),
            gt(passwordTokens.expiresAt, now),
          ),
        )
        .returning({ userId: passwordTokens.userId });
      if (!token) return false;
      await tx
        .update(users)
        .set({ name: input.name, phone: input.phone, passwordHash, updatedAt: now })
        .where(eq(users.id, token.userId));
      await tx.delete(passwordTokens).where(eq(passwordTokens.userId, token.userId));
      await tx.delete(sessions).where(eq(sessions.userId, token.userId));
      await recordSignInEvent(tx, token.userId, 'password-change', true);
      return true;
    });
    if (!consumed) {
      throw validationError([{ path: 'passwordResetToken', message: validationCodes.TOKEN_IS_INVALID }]);
    }
    return { data: { success: true } };
  });
}
