import { authorityRolesResource } from './authority-roles.ts';
import { workspaceUsersResource } from './workspace-users.ts';

/** Every resource of the generic engine, one line each. */
export const resources = [authorityRolesResource, workspaceUsersResource] as const;

export * from './authority-roles.ts';
export * from './workspace-users.ts';
