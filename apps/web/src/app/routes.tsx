import { type ComponentType, type LazyExoticComponent, lazy } from 'react';
import { useTranslation } from 'react-i18next';
import { Route, Routes } from 'react-router';
import { RequirePermission } from '../components/require-permission.tsx';
import { RequireAuth } from './require-auth.tsx';
import { guardedScreens, type ScreenName, screens } from './screens.ts';

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

/** The screens built so far; the others show an honest placeholder until their milestone. */
const screenPages: Partial<Record<ScreenName, LazyExoticComponent<ComponentType>>> = {
  authorityRoles: lazy(() =>
    import('../features/roles/roles-page.tsx').then((m) => ({ default: m.RolesPage })),
  ),
  users: lazy(() => import('../features/users/users-page.tsx').then((m) => ({ default: m.UsersPage }))),
  brands: lazy(() =>
    import('../features/catalogue/catalogue-pages.tsx').then((m) => ({ default: m.BrandsPage })),
  ),
  locations: lazy(() =>
    import('../features/catalogue/catalogue-pages.tsx').then((m) => ({ default: m.LocationsPage })),
  ),
  taxes: lazy(() =>
    import('../features/catalogue/catalogue-pages.tsx').then((m) => ({ default: m.TaxesPage })),
  ),
  measurementUnits: lazy(() =>
    import('../features/catalogue/catalogue-pages.tsx').then((m) => ({ default: m.MeasurementUnitsPage })),
  ),
  productTags: lazy(() =>
    import('../features/catalogue/catalogue-pages.tsx').then((m) => ({ default: m.ProductTagsPage })),
  ),
  customers: lazy(() =>
    import('../features/catalogue/catalogue-pages.tsx').then((m) => ({ default: m.CustomersPage })),
  ),
  exchangeRates: lazy(() =>
    import('../features/catalogue/catalogue-pages.tsx').then((m) => ({ default: m.ExchangeRatesPage })),
  ),
  categories: lazy(() =>
    import('../features/catalogue/categories-page.tsx').then((m) => ({ default: m.CategoriesPage })),
  ),
  wasteCategories: lazy(() =>
    import('../features/catalogue/categories-page.tsx').then((m) => ({ default: m.WasteCategoriesPage })),
  ),
};

/** A signed-in screen behind its route guard: its page, or the placeholder of a later milestone. */
function GuardedScreen({ name }: { name: ScreenName }) {
  const { t } = useTranslation();
  const screen = screens[name];
  const title = t(`nav.${screen.titleKey}`);
  const ScreenPage = screenPages[name];
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
