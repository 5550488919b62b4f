import { publicPages } from '@dukkan/contract';
import { lazy } from 'react';
import { Route, Routes } from 'react-router';
import { LoginPage } from '../features/auth/login-page.tsx';
import { lazyComponent } from '../lib/lazy-component.tsx';

/**
 * TanStack Query with the session check (`require-auth.tsx`): one chunk, loaded by every page but
 * the login page. main.tsx asks for it at start (beside the language) on any other address, so
 * the first render finds it there and renders it at once.
 */
const queryRootChunk = () => import('./query-root-chunk.ts');
const QueryRoot = lazyComponent(() => queryRootChunk().then((m) => m.QueryRoot));
const RequireAuth = lazyComponent(() => queryRootChunk().then((m) => m.RequireAuth));
const SignedInGate = lazyComponent(() => queryRootChunk().then((m) => m.SignedInGate));
export const loadQueryRoot = () =>
  Promise.all([QueryRoot.preload(), RequireAuth.preload(), SignedInGate.preload()]);

// The login page is part of the entry: split off, it and the dozen small modules it shares with
// the other pages came as ~15 more requests of ~1 KB of headers each, 10 % of /login's budget.
// Every other page is its own chunk.
const LogoutPage = lazy(() =>
  import('../features/auth/logout-page.tsx').then((m) => ({ default: m.LogoutPage })),
);
const RequestAccessPage = lazy(() =>
  import('../features/access-requests/request-access-page.tsx').then((m) => ({
    default: m.RequestAccessPage,
  })),
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
const AcceptInvitePage = lazy(() =>
  import('../features/users/accept-invite-page.tsx').then((m) => ({ default: m.AcceptInvitePage })),
);
const AuthenticatePage = lazy(() =>
  import('../features/oauth/authenticate-page.tsx').then((m) => ({ default: m.AuthenticatePage })),
);

/** The public pages and the sign-in portal; every other address belongs to the signed-in area (`signed-in-app.tsx`). */
export function AppRoutes() {
  return (
    <Routes>
      <Route path={publicPages.login} element={<LoginPage />} />
      <Route element={<QueryRoot />}>
        <Route path={publicPages.logout} element={<LogoutPage />} />
        <Route path={publicPages.requestAccess} element={<RequestAccessPage />} />
        <Route path={publicPages.forgotPassword} element={<ForgotPasswordPage />} />
        <Route path={publicPages.resetPassword} element={<NewPasswordPage mode="reset" />} />
        <Route path={publicPages.setPassword} element={<NewPasswordPage mode="set" />} />
        <Route path={publicPages.acceptInvite} element={<AcceptInvitePage />} />
        <Route path={publicPages.notFound} element={<NotFoundPage />} />
        {/* The sign-in portal needs a session but not the shell: the gate without the signed-in area. */}
        <Route
          path={publicPages.portal}
          element={
            <SignedInGate>
              <AuthenticatePage />
            </SignedInGate>
          }
        />
        {/* Every other address is the signed-in area's: its screens, or its not-found page. */}
        <Route path="*" element={<RequireAuth />} />
      </Route>
    </Routes>
  );
}
