import {
  allPermissionTags,
  type PermissionAction,
  type PermissionTag,
  permissionResources,
} from '@dukkan/contract';

type GroupState = 'all' | 'some' | 'none';

/** The tags of one matrix row: the actions the catalogue gives that resource. */
export function tagsOfResource(resource: keyof typeof permissionResources): PermissionTag[] {
  return permissionResources[resource].map((action) => `${action}${resource}` as PermissionTag);
}

/** The tags of one matrix column: every resource that has that action. */
export function tagsOfAction(action: PermissionAction): PermissionTag[] {
  return Object.entries(permissionResources)
    .filter(([, actions]) => (actions as readonly PermissionAction[]).includes(action))
    .map(([resource]) => `${action}${resource}` as PermissionTag);
}

/** Whether all, some or none of a row's or column's tags are selected (tri-state header). */
export function groupState(selected: ReadonlySet<string>, tags: readonly PermissionTag[]): GroupState {
  const count = tags.filter((tag) => selected.has(tag)).length;
  if (count === 0) return 'none';
  return count === tags.length ? 'all' : 'some';
}

/**
 * Clicking a row or column header: selects every tag of the group the user may grant, or, when
 * those are all selected already, clears them. Tags the user may not grant keep their state.
 * The result keeps the catalogue's order, unknown tags (from an older catalogue) at the end.
 */
export function toggleGroup(
  selected: readonly string[],
  tags: readonly PermissionTag[],
  grantable: (tag: PermissionTag) => boolean,
): string[] {
  const current = new Set(selected);
  const editable = tags.filter(grantable);
  const clear = editable.length > 0 && editable.every((tag) => current.has(tag));
  for (const tag of editable) {
    if (clear) current.delete(tag);
    else current.add(tag);
  }
  return orderTags(current);
}

export function toggleTag(selected: readonly string[], tag: PermissionTag, checked: boolean): string[] {
  const current = new Set(selected);
  if (checked) current.add(tag);
  else current.delete(tag);
  return orderTags(current);
}

function orderTags(tags: ReadonlySet<string>): string[] {
  const known = new Set<string>(allPermissionTags);
  return [...allPermissionTags.filter((tag) => tags.has(tag)), ...[...tags].filter((tag) => !known.has(tag))];
}
