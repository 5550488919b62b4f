import { type ValidationIssue, validationCodes } from '@dukkan/contract';
import type { Database } from '../../db/client.ts';
import { heldApplications, installedClientIds } from '../../db/installed-applications.ts';
import { AppError, validationError } from '../../errors.ts';

/*
 * Which of the workspace's applications a member may use. Spec §5 says "role and applications
 * required for a user"; the role stays required, the applications are optional (decision 0035:
 * staff who only keep the back office need none, and a member grants only applications they
 * hold). An admin may use every installed one; anyone else those listed on their membership
 * (client ids) that are installed, possibly none. "Installed": the workspace's subscription is in
 * one of the contract's `activeSubscriptionStatuses`.
 */

/**
 * Who gives a member their applications: a member of the workspace, or null for the platform
 * itself (a new workspace's first admin). An admin may give any installed application.
 */
type ApplicationGranter = { userId: string; isAdmin: boolean } | null;

interface MemberApplications {
  userId: string;
  isAdmin: boolean;
  /** The list the member will have. */
  applications: readonly string[];
  /** The list was sent (each one is checked), rather than kept. */
  named: boolean;
  /** The list the member has now: keeping one of these gives nothing. */
  current: readonly string[];
}

const sameSet = (left: readonly string[], right: readonly string[]) =>
  new Set(left).size === new Set(right).size && left.every((clientId) => right.includes(clientId));

/**
 * No escalation (like a role's tags, grant-rules.ts): a non-admin gives only applications they
 * hold themselves, and does not change their own list, as they may not change their own admin
 * flag. 403 FORBIDDEN with the reason as issues, for the form to show under the field.
 */
async function refuseApplicationsNotHeld(
  db: Database,
  workspaceId: string,
  member: MemberApplications,
  granter: ApplicationGranter,
) {
  if (granter === null || granter.isAdmin || !member.named) return;
  if (granter.userId === member.userId) {
    if (sameSet(member.applications, member.current)) return;
    const issue = { path: 'applications', message: validationCodes.OWN_APPLICATIONS_UNCHANGEABLE };
    throw new AppError('FORBIDDEN', 'Only an admin can change your own applications', {
      key: issue.path,
      issues: [issue],
    });
  }
  // Keeping what the member has gives nothing; only the new ones need the granter to hold them.
  const given = member.applications
    .map((clientId, index) => ({ clientId, index }))
    .filter(({ clientId }) => !member.current.includes(clientId));
  if (given.length === 0) return;
  const held = await heldApplications(db, workspaceId, granter.userId);
  const refused = given.filter(({ clientId }) => !held.includes(clientId));
  if (refused.length === 0) return;
  throw new AppError(
    'FORBIDDEN',
    `You cannot give applications you do not hold: ${[...new Set(refused.map(({ clientId }) => clientId))].join(', ')}`,
    {
      key: `applications.${refused[0]!.index}`,
      issues: refused.map(({ index }) => ({
        path: `applications.${index}`,
        message: validationCodes.APPLICATION_NOT_HELD,
      })),
    },
  );
}

/**
 * Refuses a member's applications before they are saved: with `named`, each listed one must be
 * installed here (400 VALIDATION, APPLICATION_NOT_INSTALLED at `applications.<index>`), and a
 * non-admin `granter` may give only ones they hold and may not change their own (403 FORBIDDEN,
 * APPLICATION_NOT_HELD at the index, OWN_APPLICATIONS_UNCHANGEABLE at `applications`). An empty
 * list is allowed (decision 0035): the member then uses the back office alone.
 */
export async function refuseUnusableApplications(
  db: Database,
  workspaceId: string,
  member: MemberApplications,
  granter: ApplicationGranter,
): Promise<void> {
  const installed = await installedClientIds(db, workspaceId);
  const issues: ValidationIssue[] = member.named
    ? member.applications.flatMap((clientId, index) =>
        installed.has(clientId)
          ? []
          : [{ path: `applications.${index}`, message: validationCodes.APPLICATION_NOT_INSTALLED }],
      )
    : [];
  if (issues.length > 0) throw validationError(issues, 'An application is not installed in this workspace');
  await refuseApplicationsNotHeld(db, workspaceId, member, granter);
}
