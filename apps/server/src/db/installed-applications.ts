import { activeSubscriptionStatuses } from '@dukkan/contract';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { ReaderLocale } from '../resource-engine/storage.ts';
import type { Database } from './client.ts';
import { applications, subscriptions } from './schema/index.ts';
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
