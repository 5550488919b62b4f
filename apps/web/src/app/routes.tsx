import { type ComponentType, type LazyExoticComponent, lazy } from 'react';
import { useTranslation } from 'react-i18next';
import { Route, Routes } from 'react-router';
import { RequirePermission } from '../components/require-permission.tsx';
import { getRegisteredComponent } from '../lib/component-registry.ts';
import { RequireAuth } from './require-auth.tsx';
import { guardedScreens, type PageName, type Screen, type ScreenName, screens } from './screens.ts';

// Every page is its own chunk: /login downloads the login page and nothing of the rest.
const LoginPage = lazy(() =>
  import('../features/auth/login-page.tsx').then((m) => ({ default: m.LoginPage })),
);
const LogoutPage = lazy(() =>
  import('../features/auth/logout-page.tsx').then((m) => ({ default: m.LogoutPage })),
);
const RequestAccessPage = lazy(() =>
  import('../features/auth/request-access-page.tsx').then((m) => ({ default: m.RequestAccessPage })),
);
const ForgotPasswordPage = lazy(() =>
  import('../features/auth/forgot-password-page.tsx').then((m) => ({ default: m.ForgotPasswordPage })),
);
const NewPasswordPage = lazy(() =>
  import('../features/auth/new-password-page.tsx').then((m) => ({ default: m.NewPasswordPage })),
);
const NotFoundPage = lazy(() =>
  import('../features/not-found/not-found-page.tsx').then((m) => ({ default: m.NotFoundPage })),
);
const ProfilePage = lazy(() =>
  import('../features/profile/profile-page.tsx').then((m) => ({ default: m.ProfilePage })),
);
const SettingsPage = lazy(() =>
  import('../features/settings/settings-page.tsx').then((m) => ({ default: m.SettingsPage })),
);
const ComingSoonPage = lazy(() =>
  import('../features/placeholder/coming-soon-page.tsx').then((m) => ({ default: m.ComingSoonPage })),
);
const AcceptInvitePage = lazy(() =>
  import('../features/invitations/accept-invite-page.tsx').then((m) => ({ default: m.AcceptInvitePage })),
);

const catalogue = () => import('../features/catalogue/catalogue-pages.tsx');
const categoryTrees = () => import('../features/catalogue/categories-page.tsx');

/**
 * The signed-in pages by name (spec §2), each its own chunk. A name mapped to null is a screen of
 * a later milestone, shown as an honest placeholder; a name not here at all is an error.
 */
const pages: Record<PageName, LazyExoticComponent<ComponentType> | null> = {
  Applications: null,
  Products: null,
  AddProduct: null,
  VariantOptions: null,
  VariantValues: null,
  Subscriptions: null,
  Payments: null,
  Brands: lazy(() => catalogue().then((m) => ({ default: m.BrandsPage }))),
  Locations: lazy(() => catalogue().then((m) => ({ default: m.LocationsPage }))),
  Taxes: lazy(() => catalogue().then((m) => ({ default: m.TaxesPage }))),
  MeasurementUnits: lazy(() => catalogue().then((m) => ({ default: m.MeasurementUnitsPage }))),
  ProductTags: lazy(() => catalogue().then((m) => ({ default: m.ProductTagsPage }))),
  Customers: lazy(() => catalogue().then((m) => ({ default: m.CustomersPage }))),
  ExchangeRates: lazy(() => catalogue().then((m) => ({ default: m.ExchangeRatesPage }))),
  Categories: lazy(() => categoryTrees().then((m) => ({ default: m.CategoriesPage }))),
  WasteCategories: lazy(() => categoryTrees().then((m) => ({ default: m.WasteCategoriesPage }))),
  Roles: lazy(() => import('../features/roles/roles-page.tsx').then((m) => ({ default: m.RolesPage }))),
  Users: lazy(() => import('../features/users/users-page.tsx').then((m) => ({ default: m.UsersPage }))),
};

/** The page registered under a screen's name; 'Unknown component: {name}' for any other (spec §2). */
export function pageOf(name: string): LazyExoticComponent<ComponentType> | null {
  return getRegisteredComponent(pages, name);
}

/** A signed-in screen behind its route guard: its page, or the placeholder of a later milestone. */
function GuardedScreen({ name }: { name: ScreenName }) {
  const { t } = useTranslation();
  const screen: Screen = screens[name];
  const title = t(`nav.${screen.titleKey}`);
  const ScreenPage = screen.page ? pageOf(screen.page) : null;
  const page = ScreenPage ? <ScreenPage /> : <ComingSoonPage title={title} />;
  if (!screen.requirement) return page;
  return (
    <RequirePermission {...screen.requirement} title={title}>
      {page}
    </RequirePermission>
  );
}

export function AppRoutes() {
  return (
    <Routes>
      <Route path="/login" element={<LoginPage />} />
      <Route path="/logout" element={<LogoutPage />} />
      <Route path="/request-for-access" element={<RequestAccessPage />} />
      <Route path="/forgot-password" element={<ForgotPasswordPage />} />
      <Route path="/reset-password" element={<NewPasswordPage mode="reset" />} />
      <Route path="/set-password" element={<NewPasswordPage mode="set" />} />
      <Route path="/accept-invite" element={<AcceptInvitePage />} />
      <Route path="/404" element={<NotFoundPage />} />
      <Route element={<RequireAuth />}>
        {guardedScreens.map((name) =>
          screens[name].path === '/' ? (
            <Route key={name} index element={<GuardedScreen name={name} />} />
          ) : (
            <Route key={name} path={screens[name].path} element={<GuardedScreen name={name} />} />
          ),
        )}
        <Route path={screens.settings.path} element={<SettingsPage />} />
        <Route path={screens.profile.path} element={<ProfilePage />} />
      </Route>
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
