import { type ValidationIssue, validationCodes } from '@dukkan/contract';
import type { Database } from '../../db/client.ts';
import { installedClientIds } from '../../db/installed-applications.ts';
import { validationError } from '../../http/errors.ts';

/*
 * Which of the workspace's applications a member may use (spec §5: "role and applications
 * required for a user"). An admin may use every installed one; anyone else those listed on their
 * membership (client ids) that are installed. "Installed": the workspace's subscription is in one
 * of the contract's `activeSubscriptionStatuses`.
 */

/**
 * Refuses a member's applications (400 VALIDATION) before they are saved: with `named`, each
 * listed one must be installed here (APPLICATION_NOT_INSTALLED at `applications.<index>`); and
 * when the workspace has any installed application, a non-admin must be left with at least one
 * of them (APPLICATIONS_REQUIRED at `applications`).
 */
export async function refuseUnusableApplications(
  db: Database,
  workspaceId: string,
  member: { isAdmin: boolean; applications: readonly string[]; named: boolean },
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
  const usable = member.applications.some((clientId) => installed.has(clientId));
  if (!member.isAdmin && installed.size > 0 && !usable) {
    throw validationError(
      [{ path: 'applications', message: validationCodes.APPLICATIONS_REQUIRED }],
      'A member needs at least one of the installed applications',
    );
  }
}
