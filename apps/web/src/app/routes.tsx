import { lazy } from 'react';
import { useTranslation } from 'react-i18next';
import { Route, Routes } from 'react-router';
import { RequirePermission } from '../components/require-permission.tsx';
import { RequireAuth } from './require-auth.tsx';
import { type ScreenName, screens, upcomingScreens } from './screens.ts';

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

/** A later milestone's screen, behind its route guard. */
function UpcomingScreen({ name }: { name: ScreenName }) {
  const { t } = useTranslation();
  const screen = screens[name];
  const title = t(`nav.${screen.titleKey}`);
  const page = <ComingSoonPage title={title} />;
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
      <Route path="/404" element={<NotFoundPage />} />
      <Route element={<RequireAuth />}>
        {upcomingScreens.map((name) =>
          screens[name].path === '/' ? (
            <Route key={name} index element={<UpcomingScreen name={name} />} />
          ) : (
            <Route key={name} path={screens[name].path} element={<UpcomingScreen name={name} />} />
          ),
        )}
        <Route path={screens.settings.path} element={<SettingsPage />} />
        <Route path={screens.profile.path} element={<ProfilePage />} />
      </Route>
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
