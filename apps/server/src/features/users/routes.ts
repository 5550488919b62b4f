import {
  inviteUserInputSchema,
  membershipStatuses,
  resendInviteInputSchema,
  tagFor,
  type UpdateWorkspaceUserInput,
  updateWorkspaceUserInputSchema,
  validationCodes,
  type WorkspaceGrant,
  type WorkspaceUserRecord,
  workspaceQuerySchema,
  workspaceUsersResource,
} from '@dukkan/contract';
import { and, asc, count, eq, ne } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { auditedChange } from '../../db/audit-log.ts';
import type { Database } from '../../db/client.ts';
import { revokeUnusableGrants } from '../../db/oauth-grants.ts';
import { invites, memberships, roles, users, workspaces } from '../../db/schema/index.ts';
import { AppError, forbidden, notFound, parseInput, validationError } from '../../errors.ts';
import { access } from '../../http/access.ts';
import { requestCaller } from '../../http/caller.ts';
import type { AppContext } from '../../http/context.ts';
import { recipientLanguage, signedInCauserLanguage } from '../../http/mail-language.ts';
import { sendAfterCommit } from '../../platform/mail/mailer.ts';
import type { MailLanguage } from '../../platform/mail/render.ts';
import type { ResourceData } from '../../resource-engine/data.ts';
import { isUuid, namedFieldsOnly } from '../../resource-engine/queries.ts';
import { refuseTagsNotHeld } from '../roles/grant-rules.ts';
import { invitationMail } from './invitation-mail.ts';
import { createInvitation, invitationLink, issueInvitationToken } from './invitations.ts';
import { refuseUnusableApplications } from './member-applications.ts';

const definition = workspaceUsersResource;
const base = `/api/${definition.path}`;
const guarded = (verb: 'list' | 'get' | 'filters' | 'update' | 'delete' | 'create') => ({
  config: { access: access.permission({ and: [tagFor(definition, verb)] }) },
});

const updateSchema = updateWorkspaceUserInputSchema.strict();
const inviteSchema = inviteUserInputSchema.strict();
const resendSchema = resendInviteInputSchema.strict();

/** The member's row, locked until the transaction ends, if they belong to this workspace. */
async function lockMembership(db: Database, workspaceId: string, userId: string) {
  if (!isUuid(userId)) return null;
  const [row] = await db
    .select({
      isAdmin: memberships.isAdmin,
      status: memberships.status,
      roleId: memberships.roleId,
      applications: memberships.applications,
    })
    .from(memberships)
    .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.userId, userId)))
    .for('update');
  return row ?? null;
}

/**
 * Changes that can take an admin away (demote, disable, remove) run one at a time per
 * workspace: they lock the workspace's row first, always in that order, so two admins demoting
 * each other at once neither both succeed nor deadlock. (No key update: it does not block the
 * foreign-key checks of rows that merely reference the workspace.)
 */
async function serializeAdminChanges(db: Database, workspaceId: string) {
  await db
    .select({ id: workspaces.id })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId))
    .for('no key update');
}

/** The last active admin of a workspace cannot stop being one: someone must be able to manage it. */
async function refuseLosingLastAdmin(db: Database, workspaceId: string, userId: string, path: string) {
  const [others] = await db
    .select({ count: count() })
    .from(memberships)
    .where(
      and(
        eq(memberships.workspaceId, workspaceId),
        eq(memberships.isAdmin, true),
        eq(memberships.status, 'active'),
        ne(memberships.userId, userId),
      ),
    );
  if (!others?.count) {
    throw validationError(
      [{ path, message: validationCodes.LAST_ADMIN }],
      'The last admin must stay an admin',
    );
  }
}

/**
 * A role given to someone must be this workspace's (another workspace's role answers 404 like a
 * missing one), and a non-admin may only give a role whose tags they hold themselves.
 */
async function checkAssignableRole(db: Database, workspaceId: string, grant: WorkspaceGrant, roleId: string) {
  const [role] = await db
    .select({ permissions: roles.permissions })
    .from(roles)
    .where(and(eq(roles.workspaceId, workspaceId), eq(roles.id, roleId)))
    .limit(1);
  if (!role) throw new AppError('NOT_FOUND', 'Role not found', { key: 'roleId' });
  refuseTagsNotHeld(grant, role.permissions, 'You cannot assign a role with permissions you do not hold');
}

/**
 * A non-admin changes or removes only members whose role they could give back: a member whose
 * role holds a tag the caller lacks is beyond them, like an admin is.
 */
async function refuseMemberWithStrongerRole(
  db: Database,
  workspaceId: string,
  grant: WorkspaceGrant,
  roleId: string | null,
) {
  if (grant.isAdmin || roleId === null) return;
  const [role] = await db
    .select({ permissions: roles.permissions })
    .from(roles)
    .where(and(eq(roles.workspaceId, workspaceId), eq(roles.id, roleId)))
    .limit(1);
  refuseTagsNotHeld(
    grant,
    role?.permissions ?? [],
    'You cannot change a member whose role holds permissions you do not hold',
  );
}

/** Who sends an invitation: their name for the mail, their saved language (null: never chosen). */
async function inviterAndWorkspace(db: Database, userId: string, workspaceId: string) {
  const [row] = await db
    .select({ inviterName: users.name, language: users.language, workspaceName: workspaces.name })
    .from(users)
    .innerJoin(workspaces, eq(workspaces.id, workspaceId))
    .where(eq(users.id, userId))
    .limit(1);
  if (!row) throw new Error('The inviter or the workspace vanished during the request');
  return row;
}

/**
 * The Users page (`workspaces/users`): the engine lists and reads the members
 * (`workspace-users-resource.ts`, answered here through `members`); these routes invite them and
 * change their role, status and removal under the admin rules, and count the filters with the
 * roles' titles.
 */
export function registerWorkspaceUserRoutes(
  app: FastifyInstance,
  context: AppContext,
  members: ResourceData,
) {
  const { db } = context;
  /** One member as the Users page shows them, or null if they are not one. */
  const findWorkspaceUser = (tx: Database, workspaceId: string, userId: string) =>
    members.find(tx, workspaceId, userId) as Promise<WorkspaceUserRecord | null>;

  app.get(`${base}/filters`, guarded('filters'), async (request) => {
    parseInput(workspaceQuerySchema, request.query);
    const { workspaceId } = requestCaller(request);
    const [statusCounts, roleCounts] = await Promise.all([
      db
        .select({ value: memberships.status, count: count() })
        .from(memberships)
        .where(eq(memberships.workspaceId, workspaceId))
        .groupBy(memberships.status),
      // Every role of the workspace, held or not, with its title: the filter can name them
      // without the Authority permission.
      db
        .select({ value: roles.id, label: roles.title, count: count(memberships.userId) })
        .from(roles)
        .leftJoin(
          memberships,
          and(eq(memberships.roleId, roles.id), eq(memberships.workspaceId, roles.workspaceId)),
        )
        .where(eq(roles.workspaceId, workspaceId))
        .groupBy(roles.id, roles.title)
        .orderBy(asc(roles.title), asc(roles.id)),
    ]);
    return {
      data: {
        status: membershipStatuses.map((value) => ({
          value,
          count: statusCounts.find((entry) => entry.value === value)?.count ?? 0,
        })),
        role: roleCounts,
      },
    };
  });

  app.patch(`${base}/:id`, guarded('update'), async (request) => {
    const { workspaceId, grant, userId: callerId } = requestCaller(request);
    const { id: userId } = request.params as { id: string };
    if (!isUuid(userId)) throw notFound();
    const input = namedFieldsOnly(
      parseInput(updateSchema, request.body),
      request.body,
    ) as UpdateWorkspaceUserInput;

    const record = await db.transaction(async (tx) => {
      if (input.isAdmin === false || input.status === 'inactive')
        await serializeAdminChanges(tx, workspaceId);
      const target = await lockMembership(tx, workspaceId, userId);
      if (!target) throw notFound();
      if (!grant.isAdmin) {
        // Staff may manage staff, never admins, and never make anyone an admin.
        if (target.isAdmin) throw forbidden('Only an admin can change an admin');
        if (input.isAdmin !== undefined && input.isAdmin !== target.isAdmin) {
          throw forbidden('Only an admin can grant or revoke admin rights');
        }
      }
      await refuseMemberWithStrongerRole(tx, workspaceId, grant, target.roleId);
      if (input.roleId !== undefined) await checkAssignableRole(tx, workspaceId, grant, input.roleId);
      if (input.status !== undefined && target.status === 'invited') {
        throw validationError([{ path: 'status', message: validationCodes.INVITED_MEMBER_STATUS }]);
      }
      const stopsBeingAdmin =
        target.isAdmin &&
        target.status === 'active' &&
        (input.isAdmin === false || input.status === 'inactive');
      if (stopsBeingAdmin) {
        await refuseLosingLastAdmin(tx, workspaceId, userId, input.isAdmin === false ? 'isAdmin' : 'status');
      }
      // Checked when the change touches them: new applications, or an admin becoming a member
      // (who then needs one). A change of status or code alone leaves the list as it is.
      if (input.applications !== undefined || input.isAdmin === false) {
        await refuseUnusableApplications(
          tx,
          workspaceId,
          {
            userId,
            isAdmin: input.isAdmin ?? target.isAdmin,
            applications: input.applications ?? target.applications,
            named: input.applications !== undefined,
            current: target.applications,
          },
          { userId: callerId, isAdmin: grant.isAdmin },
        );
      }
      const ofMember = and(eq(memberships.workspaceId, workspaceId), eq(memberships.userId, userId));
      const audited = { workspaceId, resource: 'memberships', recordId: userId, where: ofMember };
      await auditedChange(tx, memberships, audited, () =>
        tx
          .update(memberships)
          .set({
            ...(input.roleId !== undefined ? { roleId: input.roleId } : {}),
            ...(input.isAdmin !== undefined ? { isAdmin: input.isAdmin } : {}),
            ...(input.status !== undefined ? { status: input.status } : {}),
            // An empty code clears it: "no code" is not a code two people could share.
            ...(input.code !== undefined ? { code: input.code || null } : {}),
            ...(input.applications !== undefined ? { applications: input.applications } : {}),
            updatedAt: context.now(),
          })
          .where(ofMember),
      );
      // Disabled, or without an application they signed in to: those sign-ins end.
      await revokeUnusableGrants(tx, { workspaceId, userId });
      return findWorkspaceUser(tx, workspaceId, userId);
    });
    return { data: record };
  });

  app.delete(`${base}/:id`, guarded('delete'), async (request) => {
    const { workspaceId, grant } = requestCaller(request);
    const { id: userId } = request.params as { id: string };
    await db.transaction(async (tx) => {
      await serializeAdminChanges(tx, workspaceId);
      const target = await lockMembership(tx, workspaceId, userId);
      if (!target) throw notFound();
      if (target.isAdmin && !grant.isAdmin) throw forbidden('Only an admin can remove an admin');
      await refuseMemberWithStrongerRole(tx, workspaceId, grant, target.roleId);
      if (target.isAdmin && target.status === 'active') {
        await refuseLosingLastAdmin(tx, workspaceId, userId, 'id');
      }
      // The invitation goes with the membership (foreign key, on delete cascade): its delete is
      // on the log as its own record's, beside the membership's.
      const ofMember = and(eq(memberships.workspaceId, workspaceId), eq(memberships.userId, userId));
      const ofInvitation = and(eq(invites.workspaceId, workspaceId), eq(invites.userId, userId));
      await auditedChange(
        tx,
        invites,
        { workspaceId, resource: 'invitations', recordId: userId, where: ofInvitation },
        () =>
          auditedChange(
            tx,
            memberships,
            { workspaceId, resource: 'memberships', recordId: userId, where: ofMember },
            () => tx.delete(memberships).where(ofMember),
          ),
      );
      await revokeUnusableGrants(tx, { workspaceId, userId });
    });
    return { data: { id: userId } };
  });

  app.post(`${base}/invite`, guarded('create'), async (request, reply) => {
    const { workspaceId, userId: inviterId, grant } = requestCaller(request);
    const input = parseInput(inviteSchema, request.body);
    const now = context.now();
    const { invitation, record, mailContext } = await db.transaction(async (tx) => {
      await checkAssignableRole(tx, workspaceId, grant, input.roleId);
      const mailContext = await inviterAndWorkspace(tx, inviterId, workspaceId);
      const invitation = await createInvitation(
        tx,
        {
          workspaceId,
          email: input.email,
          roleId: input.roleId,
          isAdmin: false,
          code: input.code,
          applications: input.applications,
          invitedBy: inviterId,
          languageOfNewUser: null,
          mayChangeAdmins: grant.isAdmin,
        },
        now,
      );
      return { invitation, mailContext, record: await findWorkspaceUser(tx, workspaceId, invitation.userId) };
    });
    await mailInvitation(request, input.email, invitation.token, mailContext, invitation.savedLanguage);
    return reply.status(201).send({ data: record });
  });

  app.post(`${base}/resend-invite`, guarded('create'), async (request) => {
    const { workspaceId, userId: senderId } = requestCaller(request);
    const input = parseInput(resendSchema, request.body);
    const { token, email, record, mailContext, savedLanguage } = await db.transaction(async (tx) => {
      const target = await lockMembership(tx, workspaceId, input.userId);
      if (!target) throw new AppError('NOT_FOUND', 'Not found', { key: 'userId' });
      if (target.status !== 'invited') {
        throw validationError([{ path: 'userId', message: validationCodes.ALREADY_A_MEMBER }]);
      }
      const { token } = await issueInvitationToken(tx, workspaceId, input.userId, context.now());
      const mailContext = await inviterAndWorkspace(tx, senderId, workspaceId);
      const record = await findWorkspaceUser(tx, workspaceId, input.userId);
      const [invitee] = await tx
        .select({ language: users.language })
        .from(users)
        .where(eq(users.id, input.userId))
        .limit(1);
      return { token, email: record!.email, record, mailContext, savedLanguage: invitee?.language ?? null };
    });
    await mailInvitation(request, email, token, mailContext, savedLanguage);
    return { data: record };
  });

  async function mailInvitation(
    request: FastifyRequest,
    to: string,
    token: string,
    mailContext: { inviterName: string; language: MailLanguage | null; workspaceName: string },
    inviteeLanguage: MailLanguage | null,
  ) {
    const language = recipientLanguage({
      recipient: inviteeLanguage,
      causer: signedInCauserLanguage(request, mailContext.language),
    });
    await sendAfterCommit(context.mailer, request.log, {
      to,
      ...invitationMail(language, {
        workspaceName: mailContext.workspaceName,
        inviterName: mailContext.inviterName,
        link: invitationLink(context.config.publicUrl, token),
      }),
    });
  }
}
