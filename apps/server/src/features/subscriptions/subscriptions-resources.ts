import { sql } from 'drizzle-orm';
import { applications, subscriptions } from '../../db/schema/index.ts';
import type { ResourceCustomization } from '../../resource-engine/storage.ts';

/** An application's name in the contract's localized shape, for a row naming the application. */
const applicationName = sql`(select json_build_array(
    json_build_object('locale', 'en', 'value', ${applications.nameEn}),
    json_build_object('locale', 'ar', 'value', ${applications.nameAr}))
  from ${applications} where ${applications.id} = ${subscriptions.applicationId})`;

/**
 * The workspace's subscriptions and invoices are read through the engine (list, get, filters);
 * they change only through the lifecycle's events and the operator's commands.
 */
export const subscriptionsCustomizations: ResourceCustomization[] = [
  { key: 'subscriptions', computed: { application: applicationName } },
  { key: 'payments' },
];
