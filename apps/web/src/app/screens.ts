import {
  type PermissionRequirement,
  type ResourceDefinition,
  type ResourceKey,
  resources,
  tagFor,
} from '@dukkan/contract';

/** A signed-in screen: its route, its page (by the spec's name, §2) and who may open it. */
export interface Screen {
  /** Route path; `/*` marks screens with sub-pages (e.g. sub-categories). */
  path: string;
  /** Its page, looked up by name: an unregistered name is 'Unknown component: {name}'. */
  page: string;
  /** Its title and menu label: `nav.<titleKey>`. */
  titleKey: string;
  /** Who may open it (spec §2 table); null: every signed-in user. */
  requirement: PermissionRequirement | null;
  /** The resource it lists, for a resource's screen. */
  definition?: ResourceDefinition;
}

/** The screens that are not a registered resource's list (spec §2, "Protected routes"). */
const otherScreens = {
  dashboard: {
    path: '/',
    titleKey: 'dashboard',
    page: 'Applications',
    requirement: { or: ['viewApplications'] },
  },
  addProduct: {
    path: '/products/add',
    titleKey: 'addProduct',
    page: 'AddProduct',
    requirement: { or: ['addProducts'] },
  },
  editProduct: {
    path: '/products/:id',
    titleKey: 'editProduct',
    page: 'AddProduct',
    requirement: { or: ['viewProducts'] },
  },
  // An issued invoice's document: whoever may read the invoice (the engine's `GET payments/:id`).
  invoiceDocument: {
    path: '/payments/:id/document',
    titleKey: 'invoiceDocument',
    page: 'InvoiceDocument',
    requirement: { or: ['viewPayments'] },
  },
  settings: { path: '/settings', titleKey: 'settings', page: 'Settings', requirement: null },
  profile: { path: '/profile', titleKey: 'profile', page: 'Profile', requirement: null },
} as const satisfies Record<string, Screen>;

/**
 * Where a resource's screen is not the default one — route `/<its API path>`, page named after
 * its key (`productTags` → `ProductTags`, the spec's names) on the generic resource page.
 */
const resourceScreenOverrides: Partial<Record<ResourceKey, Partial<Pick<Screen, 'path' | 'page'>>>> = {
  workspaceUsers: { path: '/users', page: 'Users' },
  authorityRoles: { page: 'Roles' },
  categories: { path: '/categories/*' },
  wasteCategories: { path: '/waste-categories/*' },
  // The spec's routes and page names for the variation screens (§2).
  variationTypes: { path: '/variations-types', page: 'VariantOptions' },
  variationValues: { path: '/options', page: 'VariantValues' },
  // The audit log is read on the workspace's Activity page, a feed rather than a table.
  auditLog: { path: '/activity', page: 'Activity' },
};

/** The page name of a resource's screen: its key in PascalCase unless overridden. */
const defaultPageName = (key: string) => `${key[0]!.toUpperCase()}${key.slice(1)}`;

/** A resource's screen: guarded by its view permission (spec §2), titled `nav.<key>`. */
export function resourceScreen(definition: ResourceDefinition): Screen {
  const override = resourceScreenOverrides[definition.key as ResourceKey];
  return {
    path: override?.path ?? `/${definition.path}`,
    page: override?.page ?? defaultPageName(definition.key),
    titleKey: definition.key,
    requirement: { or: [tagFor(definition, 'list')] },
    definition,
  };
}

/** Every signed-in screen by name: each registered resource's (named by its key) and the others. */
export const screens: Readonly<Record<string, Screen>> = {
  ...otherScreens,
  ...Object.fromEntries(resources.map((definition) => [definition.key, resourceScreen(definition)])),
};

/** The screens that are not a resource's. */
export type OtherScreenName = keyof typeof otherScreens;
type ScreenName = OtherScreenName | ResourceKey;

/** A screen by name; throws for a name that is none (a menu entry naming a screen that does not exist). */
export function screenNamed(name: ScreenName): Screen {
  const screen = screens[name];
  if (!screen) throw new Error(`No screen ${name}`);
  return screen;
}
