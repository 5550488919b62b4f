import { activeSubscriptionStatuses } from '@dukkan/contract';
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { recordAudit } from './audit-log.ts';
import type { Database } from './client.ts';
import {
  applications,
  memberships,
  oauthGrants,
  oauthModels,
  subscriptions,
  workspaces,
} from './schema/index.ts';

/*
 * A grant is one user's sign-in to one application, acting in one workspace. Its workspace is
 * written when the user signs in on the portal; its codes and tokens (in `oauth_models`) go when
 * the grant is revoked.
 */

interface GrantScope {
  userId: string;
  workspaceId: string;
  workspaceName: string;
  applicationId: string;
  clientId: string;
  /** The sign-in behind the grant used a second factor. */
  multiFactor: boolean;
  /** The grant's workspace requires one: a grant without it is refused there. */
  requireSecondFactor: boolean;
}

export async function recordGrant(
  db: Database,
  grant: {
    grantId: string;
    userId: string;
    workspaceId: string;
    applicationId: string;
    multiFactor: boolean;
  },
): Promise<void> {
  const [made] = await db.insert(oauthGrants).values(grant).onConflictDoNothing().returning();
  if (made) {
    await recordAudit(db, [
      {
        workspaceId: grant.workspaceId,
        action: 'create',
        resource: 'grants',
        recordId: grant.grantId,
        changes: { userId: [null, grant.userId], applicationId: [null, grant.applicationId] },
        actorUserId: grant.userId,
      },
    ]);
  }
}

/** The user, workspace and application of a grant, or undefined once it is revoked. */
export const grantLacksSecondFactor = (scope: GrantScope) => scope.requireSecondFactor && !scope.multiFactor;

export async function findGrantScope(db: Database, grantId: string): Promise<GrantScope | undefined> {
  const [row] = await db
    .select({
      userId: oauthGrants.userId,
      workspaceId: oauthGrants.workspaceId,
      workspaceName: workspaces.name,
      applicationId: oauthGrants.applicationId,
      clientId: applications.clientId,
      multiFactor: oauthGrants.multiFactor,
      requireSecondFactor: workspaces.requireSecondFactor,
    })
    .from(oauthGrants)
    .innerJoin(workspaces, eq(workspaces.id, oauthGrants.workspaceId))
    .innerJoin(applications, eq(applications.id, oauthGrants.applicationId))
    .where(eq(oauthGrants.grantId, grantId))
    .limit(1);
  return row;
}

/** Deletes the chosen grants and everything issued under them (codes, tokens); returns how many. */
async function revokeGrantsWhere(db: Database, condition: SQL | undefined): Promise<number> {
  const gone = await db.delete(oauthGrants).where(condition).returning();
  if (gone.length === 0) return 0;
  await recordAudit(
    db,
    gone.map((grant) => ({
      workspaceId: grant.workspaceId,
      action: 'revoke',
      resource: 'grants',
      recordId: grant.grantId,
      changes: { userId: [grant.userId, null], applicationId: [grant.applicationId, null] },
    })),
  );
  await db.delete(oauthModels).where(
    inArray(
      oauthModels.grantId,
      gone.map((row) => row.grantId),
    ),
  );
  return gone.length;
}

/** Every grant of a user, in every workspace: their password changed or was reset. */
export function revokeUserGrants(db: Database, userId: string): Promise<number> {
  return revokeGrantsWhere(db, eq(oauthGrants.userId, userId));
}

/**
 * Revokes the grants, among those chosen, whose user may no longer use the application in the
 * grant's workspace — the rule `memberMayUseApplication` checks: an active membership, the
 * application installed (its subscription approved or in a free trial), and the member an admin or
 * given it. Called after anything that can change one of those: a subscription event, a change to
 * a membership. One statement.
 */
export function revokeUnusableGrants(db: Database, scope: { workspaceId: string; userId?: string }) {
  const usable = sql`exists (
    select 1 from ${memberships}
    join ${subscriptions} on ${subscriptions.workspaceId} = ${oauthGrants.workspaceId}
      and ${subscriptions.applicationId} = ${oauthGrants.applicationId}
      and ${inArray(subscriptions.status, [...activeSubscriptionStatuses])}
    join ${applications} on ${applications.id} = ${oauthGrants.applicationId}
    where ${memberships.workspaceId} = ${oauthGrants.workspaceId}
      and ${memberships.userId} = ${oauthGrants.userId}
      and ${memberships.status} = 'active'
      and (${memberships.isAdmin} or ${applications.clientId} = any(${memberships.applications}))
  )`;
  return revokeGrantsWhere(
    db,
    and(
      eq(oauthGrants.workspaceId, scope.workspaceId),
      scope.userId ? eq(oauthGrants.userId, scope.userId) : undefined,
      sql`not ${usable}`,
    ),
  );
}
