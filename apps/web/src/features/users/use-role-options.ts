import { authorityRolesResource, tagFor } from '@dukkan/contract';
import { useCan, useWorkspaceGrant } from '../../lib/workspace-context.tsx';
import type { ListParams } from '../../resource-ui/list-params.ts';
import { useResourceList } from '../../resource-ui/use-resource.ts';

/** Every role of a workspace fits one page: the server caps a page at 100. */
const allRoles: ListParams = { page: 1, pageSize: 100, search: '', sort: 'title', filters: {} };

export interface RoleOption {
  id: string;
  title: string;
  /** A non-admin cannot hand out a role granting tags they do not hold themselves. */
  assignable: boolean;
}

/** The roles to pick from when inviting or changing a member's role, and to filter by. */
export function useRoleOptions() {
  const mayViewRoles = useCan({ and: [tagFor(authorityRolesResource, 'list')] });
  const grant = useWorkspaceGrant();
  const roles = useResourceList(authorityRolesResource, allRoles);
  const options: RoleOption[] = (roles.data?.data ?? []).map((role) => ({
    id: role.id,
    title: role.title,
    assignable: grant.isAdmin || role.permissions.every((tag) => grant.tags.has(tag)),
  }));
  return { options, mayViewRoles, isLoading: mayViewRoles && roles.isPending };
}
