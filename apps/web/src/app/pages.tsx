import type { ResourceDefinition } from '@dukkan/contract';
import { type ComponentType, type LazyExoticComponent, lazy } from 'react';
import { matchRoutes } from 'react-router';
import { getRegisteredComponent } from '../lib/component-registry.ts';
import { screens } from './screens.ts';

/** A page in a chunk of its own, which can be asked for before it renders. */
type LazyPage<P = object> = LazyExoticComponent<ComponentType<P>> & { preload: () => void };
type Page = ComponentType | LazyPage;

/** `lazy`, keeping the loader: the module system downloads a chunk once, however often it is asked. */
function lazyPage<P = object>(load: () => Promise<{ default: ComponentType<P> }>): LazyPage<P> {
  return Object.assign(lazy(load), {
    preload: () => {
      load().catch(() => undefined);
    },
  });
}

const categoryTrees = () => import('../features/catalogue/categories-page.tsx');
const GenericResourcePage = lazyPage<{ definition: ResourceDefinition }>(() =>
  import('../resource-ui/resource-page.tsx').then((m) => ({ default: m.ResourcePage })),
);

/**
 * The pages of the spec's names that are not the generic resource page, each its own chunk. A
 * name mapped to null is a screen of a later milestone, shown as an honest placeholder.
 */
const customPages: Record<string, Page | null> = {
  Applications: lazyPage(() =>
    import('../features/applications/applications-page.tsx').then((m) => ({ default: m.ApplicationsPage })),
  ),
  Products: lazyPage(() =>
    import('../features/products/products-page.tsx').then((m) => ({ default: m.ProductsPage })),
  ),
  AddProduct: lazyPage(() =>
    import('../features/products/product-page.tsx').then((m) => ({ default: m.ProductPage })),
  ),
  VariantOptions: lazyPage(() =>
    import('../features/variations/variation-types-page.tsx').then((m) => ({
      default: m.VariationTypesPage,
    })),
  ),
  VariantValues: lazyPage(() =>
    import('../features/variations/variation-values-page.tsx').then((m) => ({
      default: m.VariationValuesPage,
    })),
  ),
  // Subscriptions is the generic page of its read-only declaration; payments adds the upcoming invoices.
  Payments: lazyPage(() =>
    import('../features/subscriptions/payments-page.tsx').then((m) => ({ default: m.PaymentsPage })),
  ),
  Categories: lazyPage(() => categoryTrees().then((m) => ({ default: m.CategoriesPage }))),
  WasteCategories: lazyPage(() => categoryTrees().then((m) => ({ default: m.WasteCategoriesPage }))),
  Roles: lazyPage(() => import('../features/roles/roles-page.tsx').then((m) => ({ default: m.RolesPage }))),
  Users: lazyPage(() => import('../features/users/users-page.tsx').then((m) => ({ default: m.UsersPage }))),
  Profile: lazyPage(() =>
    import('../features/profile/profile-page.tsx').then((m) => ({ default: m.ProfilePage })),
  ),
  Settings: lazyPage(() =>
    import('../features/settings/settings-page.tsx').then((m) => ({ default: m.SettingsPage })),
  ),
};

/** A resource's declaration on the generic page (one chunk shared by every simple resource). */
function genericPage(definition: ResourceDefinition): Page {
  // biome-ignore lint/correctness/noComponentHookFactories: made once per resource when this module loads, so each page keeps one identity
  const Generic = () => <GenericResourcePage definition={definition} />;
  Generic.displayName = `${definition.key}Page`;
  return Object.assign(Generic, { preload: GenericResourcePage.preload });
}

/**
 * The signed-in pages by the spec's names (§2): a custom page where one is registered under the
 * name, else — for a registered resource — the generic resource page.
 */
const pages: Record<string, Page | null> = {
  ...Object.fromEntries(
    Object.values(screens)
      .filter((screen) => screen.definition && !(screen.page in customPages))
      .map((screen) => [screen.page, genericPage(screen.definition!)]),
  ),
  ...customPages,
};

/** The page registered under a name; 'Unknown component: {name}' for any other (spec §2). */
export function pageOf(name: string): Page | null {
  return getRegisteredComponent(pages, name);
}

/**
 * Asks for the chunk of the page at `pathname` (as the signed-in routes would match it) without
 * waiting for the shell to render it: on a cold load of a deep link the page's code then downloads
 * beside the shell's, not after it.
 */
export function preloadPageAt(pathname: string): void {
  const routes = Object.values(screens).map((screen) => ({ path: screen.path, page: screen.page }));
  const match = matchRoutes(routes, pathname)?.[0]?.route;
  const page = match ? pages[match.page] : undefined;
  if (page && 'preload' in page) page.preload();
}
