import { activeSubscriptionStatuses, clientIdPattern } from '@dukkan/contract';
import { and, asc, eq, inArray, or, sql } from 'drizzle-orm';
import { isUuid } from '../resource-engine/queries.ts';
import type { ReaderLocale } from '../resource-engine/storage.ts';
import type { Database } from './client.ts';
import { applications, memberships, subscriptions } from './schema/index.ts';
import { collated } from './schema/sorting.ts';

/** An application's name terms for ORDER BY: in the reader's language, then the other, then the client id. */
export function applicationNameOrder(locale: ReaderLocale) {
  const [first, second] =
    locale === 'ar' ? [applications.nameAr, applications.nameEn] : [applications.nameEn, applications.nameAr];
  return [asc(collated(sql`${first}`)), asc(collated(sql`${second}`)), asc(applications.clientId)];
}

/**
 * The applications a workspace has installed: those its subscription lets it use now (the
 * contract's `activeSubscriptionStatuses`, approved or in a free trial), sorted by name.
 */
export async function installedApplications(db: Database, workspaceId: string, locale: ReaderLocale = 'en') {
  return db
    .select({ clientId: applications.clientId, nameEn: applications.nameEn, nameAr: applications.nameAr })
    .from(subscriptions)
    .innerJoin(applications, eq(applications.id, subscriptions.applicationId))
    .where(
      and(
        eq(subscriptions.workspaceId, workspaceId),
        inArray(subscriptions.status, [...activeSubscriptionStatuses]),
      ),
    )
    .orderBy(...applicationNameOrder(locale));
}

/** The client ids of the workspace's installed applications. */
export async function installedClientIds(db: Database, workspaceId: string): Promise<Set<string>> {
  const rows = await installedApplications(db, workspaceId);
  return new Set(rows.map((row) => row.clientId));
}

/** The applications listed on a person's membership of the workspace (none for a stranger). */
export async function heldApplications(db: Database, workspaceId: string, userId: string): Promise<string[]> {
  const [row] = await db
    .select({ applications: memberships.applications })
    .from(memberships)
    .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.userId, userId)))
    .limit(1);
  return row?.applications ?? [];
}

/**
 * Whether a person may sign in to an application as a member of the workspace (the portal's
 * check): an active membership, the application installed there, and the member an admin or
 * given it. A disabled or still invited member may use nothing. One query.
 */
export async function memberMayUseApplication(
  db: Database,
  workspaceId: string,
  userId: string,
  clientId: string,
): Promise<boolean> {
  if (!isUuid(workspaceId) || !isUuid(userId) || !clientIdPattern.test(clientId)) return false;
  const [row] = await db
    .select({ userId: memberships.userId })
    .from(memberships)
    .innerJoin(
      subscriptions,
      and(
        eq(subscriptions.workspaceId, memberships.workspaceId),
        inArray(subscriptions.status, [...activeSubscriptionStatuses]),
      ),
    )
    .innerJoin(
      applications,
      and(eq(applications.id, subscriptions.applicationId), eq(applications.clientId, clientId)),
    )
    .where(
      and(
        eq(memberships.workspaceId, workspaceId),
        eq(memberships.userId, userId),
        eq(memberships.status, 'active'),
        or(eq(memberships.isAdmin, true), sql`${clientId} = any(${memberships.applications})`),
      ),
    )
    .limit(1);
  return row !== undefined;
}
