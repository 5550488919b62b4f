import { catalogueCustomizations } from './features/catalogue/catalogue-customizations.ts';
import { rolesCustomization } from './features/roles/roles-customization.ts';
import { workspaceUsersCustomization } from './features/users/workspace-users-resource.ts';
import { createResourceEngine, type ResourceEngine } from './resource-engine/registry.ts';

/** What the features add to the contract's resources; everything else the engine derives. */
export const resourceCustomizations = [
  ...catalogueCustomizations,
  rolesCustomization,
  workspaceUsersCustomization,
];

/** The resource engine over the contract's registry with the features' customizations. */
export function createAppResources(now?: () => Date): ResourceEngine {
  return createResourceEngine(resourceCustomizations, { now });
}
