import type { ResourceCustomization } from '../../resource-engine/storage.ts';

/**
 * The members of a workspace are the contract's `workspaceUsers` resource, served by this
 * feature's own routes (`routes.ts`): a member is a user and a membership, invited, not created.
 */
export const workspaceUsersCustomization: ResourceCustomization = {
  key: 'workspaceUsers',
  servedByFeature: true,
};
