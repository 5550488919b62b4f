import { authorityRolesResource } from './authority-roles.ts';

/** Every resource of the generic engine, one line each. */
export const resources = [authorityRolesResource] as const;

export * from './authority-roles.ts';
