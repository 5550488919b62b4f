import { lazy, Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router';
import { Button } from '../components/ui/button.tsx';
import { FullScreenSpinner } from '../components/ui/full-screen-spinner.tsx';
import { loginPathFor } from '../features/auth/login-redirect.ts';
import { loadSignedInTranslations } from '../i18n/i18n.ts';
import { useCurrentUser } from '../lib/current-user.ts';
import { WorkspaceProvider } from '../lib/workspace-context.tsx';

// The signed-in area (the shell, Radix, the resource registry and its routes) and the signed-in
// screens' texts are downloaded only for a protected page, while its session is checked rather
// than after (one round trip fewer on every cold load; a visitor found signed out there has
// downloaded them for nothing). The public pages, the login page among them, never load them.
let signedInArea: Promise<{ default: typeof import('./signed-in-app.tsx').SignedInApp }> | undefined;
const loadSignedInArea = () => {
  signedInArea ??= Promise.all([import('./signed-in-app.tsx'), loadSignedInTranslations()]).then(
    ([module]) => ({ default: module.SignedInApp }),
  );
  return signedInArea;
};
const SignedInApp = lazy(loadSignedInArea);

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
 * The protected area: a full-screen indicator while the session is checked, the login page
 * (with `from` and the query string in navigation state) without one, else the shell (spec §2, §4).
 */
export function RequireAuth() {
  const { t } = useTranslation();
  const location = useLocation();
  const { data: user, isPending, isError, refetch } = useCurrentUser();
  useEffect(() => {
    // A failed download is the lazy page's to report, once it renders.
    if (isPending) loadSignedInArea().catch(() => undefined);
  }, [isPending]);

  if (isPending) return <FullScreenSpinner label={t('common.loading')} />;
  if (isError && user === undefined) return <SessionError onRetry={() => void refetch()} />;
  if (!user)
    return <Navigate to={loginPathFor(location.pathname)} state={{ search: location.search }} replace />;

  return (
    <WorkspaceProvider user={user}>
      <Suspense fallback={<FullScreenSpinner label={t('common.loading')} />}>
        <SignedInApp />
      </Suspense>
    </WorkspaceProvider>
  );
}
