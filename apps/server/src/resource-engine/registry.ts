import { rolesBinding } from '../features/roles/roles-binding.ts';
import type { ResourceBinding } from './binding.ts';

/** Every resource the generic router serves, with its storage binding. */
export const resourceBindings: ResourceBinding[] = [rolesBinding as unknown as ResourceBinding];
