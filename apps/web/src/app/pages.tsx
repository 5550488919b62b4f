import type { ResourceDefinition, ResourceKey } from '@dukkan/contract';
import type { ComponentType } from 'react';
import { matchRoutes } from 'react-router';
import { getRegisteredComponent } from '../lib/component-registry.ts';
import { type LazyComponent, lazyComponent } from '../lib/lazy-component.tsx';
import { operationNotices } from './operation-notices.ts';
import { screens } from './screens.ts';

/** A page in a chunk of its own, which can be asked for before it renders. */
type Page = ComponentType | LazyComponent;

const categoryTrees = () => import('../features/catalogue/categories-page.tsx');
const GenericResourcePage = lazyComponent(() =>
  import('../resource-ui/resource-page.tsx').then((m) => m.ResourcePage),
);

/**
 * The pages of the spec's names that are not the generic resource page, each its own chunk. A
 * name mapped to null is a screen of a later milestone, shown as an honest placeholder.
 */
const customPages: Record<string, Page | null> = {
  Applications: lazyComponent(() =>
    import('../features/applications/applications-page.tsx').then((m) => m.ApplicationsPage),
  ),
  Products: lazyComponent(() => import('../features/products/products-page.tsx').then((m) => m.ProductsPage)),
  AddProduct: lazyComponent(() => import('../features/products/product-page.tsx').then((m) => m.ProductPage)),
  VariantOptions: lazyComponent(() =>
    import('../features/variations/variation-types-page.tsx').then((m) => m.VariationTypesPage),
  ),
  VariantValues: lazyComponent(() =>
    import('../features/variations/variation-values-page.tsx').then((m) => m.VariationValuesPage),
  ),
  // Subscriptions is the generic page of its read-only declaration; payments adds the upcoming invoices.
  Payments: lazyComponent(() =>
    import('../features/subscriptions/payments-page.tsx').then((m) => m.PaymentsPage),
  ),
  InvoiceDocument: lazyComponent(() =>
    import('../features/subscriptions/invoice-document-page.tsx').then((m) => m.InvoiceDocumentPage),
  ),
  Categories: lazyComponent(() => categoryTrees().then((m) => m.CategoriesPage)),
  WasteCategories: lazyComponent(() => categoryTrees().then((m) => m.WasteCategoriesPage)),
  Roles: lazyComponent(() => import('../features/roles/roles-page.tsx').then((m) => m.RolesPage)),
  Users: lazyComponent(() => import('../features/users/users-page.tsx').then((m) => m.UsersPage)),
  Profile: lazyComponent(() => import('../features/auth/profile-page.tsx').then((m) => m.ProfilePage)),
  Activity: lazyComponent(() => import('../features/audit/activity-page.tsx').then((m) => m.ActivityPage)),
  Settings: lazyComponent(() =>
    import('../features/workspaces/settings-page.tsx').then((m) => m.SettingsPage),
  ),
};

/** A resource's declaration on the generic page (one chunk shared by every simple resource). */
function genericPage(definition: ResourceDefinition): Page {
  // biome-ignore lint/correctness/noComponentHookFactories: made once per resource when this module loads, so each page keeps one identity
  const Generic = () => (
    <GenericResourcePage
      definition={definition}
      useOperationNotice={operationNotices[definition.key as ResourceKey]}
    />
  );
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
  if (page && 'preload' in page) page.preload().catch(() => undefined);
}
