/**
 * The permission resources of spec §3 and the actions each one has; `Audit` (the workspace's
 * audit log, view only) extends the spec's catalogue (decision 0032).
 */
export const permissionActions = ['view', 'add', 'edit', 'delete'] as const;
export type PermissionAction = (typeof permissionActions)[number];

export const permissionResources = {
  Dashboard: ['view'],
  Applications: permissionActions,
  Products: permissionActions,
  Brands: permissionActions,
  Locations: permissionActions,
  Variations: permissionActions,
  Users: permissionActions,
  Categories: permissionActions,
  WasteCategories: permissionActions,
  Tags: permissionActions,
  Subscriptions: permissionActions,
  Payments: permissionActions,
  Authority: permissionActions,
  MeasurementUnits: permissionActions,
  Customers: permissionActions,
  Taxes: permissionActions,
  Files: permissionActions,
  ExchangeRate: ['view', 'add', 'edit'],
  Audit: ['view'],
} as const satisfies Record<string, readonly PermissionAction[]>;

export type PermissionResource = keyof typeof permissionResources;

type TagsOf<R extends PermissionResource> = `${(typeof permissionResources)[R][number]}${R}`;
/** `<action><Resource>`, e.g. `viewBrands`; only the pairs `permissionResources` declares. */
export type PermissionTag = { [R in PermissionResource]: TagsOf<R> }[PermissionResource];

export function permissionTag<R extends PermissionResource>(
  action: (typeof permissionResources)[R][number],
  resource: R,
): PermissionTag {
  return `${action}${resource}` as PermissionTag;
}

/** Every permission tag, in a stable order. */
export const allPermissionTags: readonly PermissionTag[] = Object.entries(permissionResources).flatMap(
  ([resource, actions]) => actions.map((action) => `${action}${resource}` as PermissionTag),
);

const tagSet: ReadonlySet<string> = new Set(allPermissionTags);
export function isPermissionTag(value: string): value is PermissionTag {
  return tagSet.has(value);
}
