import { auditLogCustomization } from './features/audit/audit-log-reading.ts';
import { catalogueCustomizations } from './features/catalogue/catalogue-customizations.ts';
import { productsCustomization } from './features/products/products-customization.ts';
import { rolesCustomization } from './features/roles/roles-customization.ts';
import { subscriptionsCustomizations } from './features/subscriptions/subscriptions-resources.ts';
import { workspaceUsersCustomization } from './features/users/workspace-users-resource.ts';
import { variationCustomizations } from './features/variations/variations-customization.ts';
import { exchangeRatesCustomization } from './features/workspaces/base-currency-rule.ts';
import { createResourceEngine, type ResourceEngine } from './resource-engine/registry.ts';

/** What the features add to the contract's resources; everything else the engine derives. */
const resourceCustomizations = (now: () => Date) => [
  ...catalogueCustomizations,
  ...variationCustomizations,
  productsCustomization,
  rolesCustomization,
  workspaceUsersCustomization,
  ...subscriptionsCustomizations(now),
  exchangeRatesCustomization,
  auditLogCustomization,
];

/** The resource engine over the contract's registry with the features' customizations. */
export function createAppResources(now?: () => Date): ResourceEngine {
  return createResourceEngine(resourceCustomizations(now ?? (() => new Date())), { now });
}
