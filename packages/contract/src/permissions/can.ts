import type { CurrentUser } from '../auth/current-user.ts';
import type { PermissionTag } from './tags.ts';

/** All of `and` and at least one of `or`; an empty or missing list is ignored (spec §6). */
export interface PermissionRequirement {
  and?: readonly PermissionTag[];
  or?: readonly PermissionTag[];
}

/** What the check needs to know of a person in one workspace. */
export interface WorkspaceGrant {
  isAdmin: boolean;
  tags: ReadonlySet<string>;
}

const noGrant: WorkspaceGrant = { isAdmin: false, tags: new Set() };

/** The grant a user holds in a workspace: admin, or the tags of their role there. */
export function grantIn(
  user: Pick<CurrentUser, 'adminWorkspaces' | 'workspaces'>,
  workspaceId: string | null | undefined,
): WorkspaceGrant {
  if (!workspaceId) return noGrant;
  if (user.adminWorkspaces.some((workspace) => workspace.id === workspaceId)) {
    return { isAdmin: true, tags: new Set() };
  }
  const membership = user.workspaces.find((entry) => entry.workspaceId === workspaceId);
  if (!membership) return noGrant;
  return { isAdmin: false, tags: new Set(membership.role.permissions.map((permission) => permission.tag)) };
}

/**
 * May a person with this grant satisfy the requirement? Admins pass everything. An empty
 * requirement passes only here, where it is explicit; the server never derives one from a route.
 */
export function satisfies(grant: WorkspaceGrant, requirement: PermissionRequirement): boolean {
  if (grant.isAdmin) return true;
  const and = requirement.and ?? [];
  const or = requirement.or ?? [];
  if (!and.every((tag) => grant.tags.has(tag))) return false;
  if (or.length > 0 && !or.some((tag) => grant.tags.has(tag))) return false;
  return true;
}

/** `can(user, workspaceId, { and, or })`: the one permission question of the product. */
export function can(
  user: Pick<CurrentUser, 'adminWorkspaces' | 'workspaces'>,
  workspaceId: string | null | undefined,
  requirement: PermissionRequirement,
): boolean {
  return satisfies(grantIn(user, workspaceId), requirement);
}
