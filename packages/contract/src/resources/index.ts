import { auditLogResource } from './audit-log.ts';
import { authorityRolesResource } from './authority-roles.ts';
import { brandsResource } from './brands.ts';
import { categoriesResource, wasteCategoriesResource } from './categories.ts';
import { customersResource } from './customers.ts';
import { exchangeRatesResource } from './exchange-rates.ts';
import { locationsResource } from './locations.ts';
import { measurementUnitsResource } from './measurement-units.ts';
import { productTagsResource } from './product-tags.ts';
import { productsResource } from './products.ts';
import { paymentsResource, subscriptionsResource } from './subscriptions.ts';
import { taxesResource } from './taxes.ts';
import { variationTypesResource, variationValuesResource } from './variations.ts';
import { workspaceUsersResource } from './workspace-users.ts';

/** Every resource of the generic engine, one line each. */
export const resources = [
  authorityRolesResource,
  workspaceUsersResource,
  brandsResource,
  locationsResource,
  taxesResource,
  measurementUnitsResource,
  categoriesResource,
  wasteCategoriesResource,
  productTagsResource,
  variationTypesResource,
  variationValuesResource,
  productsResource,
  customersResource,
  exchangeRatesResource,
  subscriptionsResource,
  paymentsResource,
  auditLogResource,
] as const;

export * from './audit-log.ts';
export * from './authority-roles.ts';
export * from './brands.ts';
export * from './catalogue-common.ts';
export * from './categories.ts';
export * from './customers.ts';
export * from './exchange-rates.ts';
export * from './locations.ts';
export * from './measurement-units.ts';
export * from './product-tags.ts';
export * from './products.ts';
export * from './subscriptions.ts';
export * from './taxes.ts';
export * from './variations.ts';
export * from './workspace-users.ts';

export type RegisteredResource = (typeof resources)[number];
/** The key of a registered resource, e.g. `productTags`. */
export type ResourceKey = RegisteredResource['key'];

/** The registered resource with this key (references name their resource by key). */
export function findResource(key: string): RegisteredResource | undefined {
  return resources.find((resource) => resource.key === key);
}
