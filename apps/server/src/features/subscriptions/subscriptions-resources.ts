import { sql } from 'drizzle-orm';
import { applications, subscriptions } from '../../db/schema/index.ts';
import type { HookContext, ResourceCustomization } from '../../resource-engine/storage.ts';
import { followRequestInvoices } from './subscription-lifecycle.ts';

/** An application's name in the contract's localized shape, for a row naming the application. */
const applicationName = sql`(select json_build_array(
    json_build_object('locale', 'en', 'value', ${applications.nameEn}),
    json_build_object('locale', 'ar', 'value', ${applications.nameAr}))
  from ${applications} where ${applications.id} = ${subscriptions.applicationId})`;

/**
 * The workspace's subscriptions and invoices are read through the engine (list, get, filters);
 * they change only through the lifecycle's events and the operator's commands. A location's
 * create, update or delete changes what a pending request costs: its first invoice, issued on
 * request for a hosted checkout and still unpaid, follows in the same transaction (decision 0044).
 */
export function subscriptionsCustomizations(now: () => Date): ResourceCustomization[] {
  const follow = ({ db, workspaceId }: HookContext) => followRequestInvoices(db, workspaceId, now());
  return [
    { key: 'subscriptions', computed: { application: applicationName } },
    { key: 'payments' },
    { key: 'locations', hooks: { afterWrite: follow, afterDelete: follow } },
  ];
}
