import { type ReactNode, Suspense, useDeferredValue } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router';
import { Button } from '../components/ui/button.tsx';
import { FullScreenSpinner } from '../components/ui/full-screen-spinner.tsx';
import { loadSignedInTranslations } from '../i18n/i18n.ts';
import { useCurrentUser } from '../lib/current-user.ts';
import { lazyComponent, useArrived } from '../lib/lazy-component.tsx';
import { loginRedirectFor } from '../lib/login-redirect.ts';
import { WorkspaceProvider } from '../lib/workspace-context.tsx';

// The signed-in area (the shell, Radix, the resource registry and its routes) and the signed-in
// screens' texts are downloaded only for a protected page, while its session is checked rather
// than after (one round trip fewer on every cold load; a visitor found signed out there has
// downloaded them for nothing). The public pages, the login page among them, never load them.
const SignedInApp = lazyComponent(() =>
  Promise.all([import('./signed-in-app.tsx'), loadSignedInTranslations()]).then(
    ([module]) => module.SignedInApp,
  ),
);

function SessionError({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <div role="alert" className="grid min-h-dvh place-items-center px-4 text-center">
      <div>
        <p className="text-lg font-semibold">{t('errors.somethingWentWrong')}</p>
        <p className="mt-1 text-slate-600 dark:text-slate-400">{t('errors.tryAgainLater')}</p>
        <Button className="mt-6" onClick={onRetry}>
          {t('common.retry')}
        </Button>
      </div>
    </div>
  );
}

/**
 * What needs a session: a full-screen indicator while it is checked, the login page (with `from`
 * and the query string in navigation state) without one, else `children` with the user and the
 * selected workspace. The shell uses it, and so does the sign-in portal, which is not in the shell.
 */
export function SignedInGate({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const location = useLocation();
  const { data: user, isPending, isError, refetch } = useCurrentUser();
  // The first render with a user builds the whole signed-in area (the shell and the page, a
  // visit's largest render). Deferred, it is a transition, which React builds in slices of a few
  // milliseconds instead of one long task, the indicator staying meanwhile. Later answers (another
  // user, none after signing out) apply at once.
  const shownUser = useDeferredValue(user);

  if (isPending || (user && !shownUser)) return <FullScreenSpinner label={t('common.loading')} />;
  if (isError && user === undefined) return <SessionError onRetry={() => void refetch()} />;
  if (!user) {
    const login = loginRedirectFor(location);
    return <Navigate to={login.to} state={login.state} replace />;
  }
  return <WorkspaceProvider user={user}>{children}</WorkspaceProvider>;
}

/** The protected area (spec §2, §4): the shell and its screens, behind the session check. */
export function RequireAuth() {
  const { t } = useTranslation();
  const { data: user, isPending } = useCurrentUser();
  // Asked for while the session is checked; the area renders once it has arrived, the check's
  // indicator staying until then (never a Suspense fallback in its place: see `useArrived`).
  const arrived = useArrived(SignedInApp, isPending || Boolean(user));
  const loading = <FullScreenSpinner label={t('common.loading')} />;

  return (
    <SignedInGate>
      {arrived ? (
        <Suspense fallback={loading}>
          <SignedInApp />
        </Suspense>
      ) : (
        loading
      )}
    </SignedInGate>
  );
}
