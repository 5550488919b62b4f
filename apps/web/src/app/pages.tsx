import type { ResourceDefinition } from '@dukkan/contract';
import { type ComponentType, type LazyExoticComponent, lazy } from 'react';
import { getRegisteredComponent } from '../lib/component-registry.ts';
import { screens } from './screens.ts';

type Page = ComponentType | LazyExoticComponent<ComponentType>;

const categoryTrees = () => import('../features/catalogue/categories-page.tsx');
const GenericResourcePage = lazy(() =>
  import('../resource-ui/resource-page.tsx').then((m) => ({ default: m.ResourcePage })),
);

/**
 * The pages of the spec's names that are not the generic resource page, each its own chunk. A
 * name mapped to null is a screen of a later milestone, shown as an honest placeholder.
 */
const customPages: Record<string, Page | null> = {
  Applications: null,
  Products: lazy(() =>
    import('../features/products/products-page.tsx').then((m) => ({ default: m.ProductsPage })),
  ),
  AddProduct: lazy(() =>
    import('../features/products/product-page.tsx').then((m) => ({ default: m.ProductPage })),
  ),
  VariantOptions: lazy(() =>
    import('../features/variations/variation-types-page.tsx').then((m) => ({
      default: m.VariationTypesPage,
    })),
  ),
  VariantValues: lazy(() =>
    import('../features/variations/variation-values-page.tsx').then((m) => ({
      default: m.VariationValuesPage,
    })),
  ),
  Subscriptions: null,
  Payments: null,
  Categories: lazy(() => categoryTrees().then((m) => ({ default: m.CategoriesPage }))),
  WasteCategories: lazy(() => categoryTrees().then((m) => ({ default: m.WasteCategoriesPage }))),
  Roles: lazy(() => import('../features/roles/roles-page.tsx').then((m) => ({ default: m.RolesPage }))),
  Users: lazy(() => import('../features/users/users-page.tsx').then((m) => ({ default: m.UsersPage }))),
  Profile: lazy(() =>
    import('../features/profile/profile-page.tsx').then((m) => ({ default: m.ProfilePage })),
  ),
  Settings: lazy(() =>
    import('../features/settings/settings-page.tsx').then((m) => ({ default: m.SettingsPage })),
  ),
};

/** A resource's declaration on the generic page (one chunk shared by every simple resource). */
function genericPage(definition: ResourceDefinition): Page {
  // biome-ignore lint/correctness/noComponentHookFactories: made once per resource when this module loads, so each page keeps one identity
  const Generic = () => <GenericResourcePage definition={definition} />;
  Generic.displayName = `${definition.key}Page`;
  return Generic;
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
