import type { PlanLength, SubscriptionStatus } from '@dukkan/contract';
import type { Database } from '../../src/db/client.ts';
import { applications, subscriptions } from '../../src/db/schema/index.ts';
import { unique } from './workspaces.ts';

export type ApplicationRow = typeof applications.$inferSelect;
type SubscriptionRow = typeof subscriptions.$inferSelect;

/**
 * An application row written straight to the table (no logo file, no secret): a public client
 * priced 100.00 EGP per location per month with a 14-day trial unless `fields` says otherwise.
 */
export async function insertApplication(
  db: Database,
  fields: Partial<typeof applications.$inferInsert> = {},
): Promise<ApplicationRow> {
  const clientId = fields.clientId ?? unique('app-');
  const [row] = await db
    .insert(applications)
    .values({
      clientId,
      nameEn: `App ${clientId}`,
      nameAr: `تطبيق ${clientId}`,
      homeUrl: `https://${clientId}.example/`,
      redirectUris: [`https://${clientId}.example/callback`],
      clientType: 'public',
      currency: 'EGP',
      monthlyPricePerLocation: 10_000,
      discounts: { monthly: 0, quarterly: 500, semiannually: 1000, annually: 2000 },
      trialDays: 14,
      ...fields,
    })
    .returning();
  return row!;
}

/** A workspace's subscription to an application, in any status, written straight to the table. */
export async function insertSubscription(
  db: Database,
  workspaceId: string,
  applicationId: string,
  status: SubscriptionStatus,
  fields: Partial<Omit<typeof subscriptions.$inferInsert, 'workspaceId' | 'applicationId' | 'status'>> & {
    plan?: PlanLength | null;
  } = {},
): Promise<SubscriptionRow> {
  const [row] = await db
    .insert(subscriptions)
    .values({ workspaceId, applicationId, status, ...fields })
    .returning();
  return row!;
}
