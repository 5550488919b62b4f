import { authorityRolesResource } from '@dukkan/contract';
import { queryKeys } from '../../lib/query-keys.ts';
import type { OperationOptions } from '../../resource-ui/use-resource.ts';

/** A membership change moves the roles' user counts and may change the signed-in user's own access. */
export const usersOperationOptions: OperationOptions = {
  alsoInvalidate: [queryKeys.currentUser],
  alsoInvalidateResources: [authorityRolesResource.key],
};

/** The same, for the member and invitation dialogs: they show a refusal's reason themselves. */
export const usersDialogOperationOptions: OperationOptions = {
  ...usersOperationOptions,
  reasonShownByCaller: true,
};
