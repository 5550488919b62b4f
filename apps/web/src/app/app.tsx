import { pagePath, publicPages } from '@dukkan/contract';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BrowserRouter, useLocation } from 'react-router';
import { FullScreenSpinner } from '../components/ui/full-screen-spinner.tsx';
import { AppRoutes } from './routes.tsx';

// The toaster (react-hot-toast and its CSS-in-JS, ~5 KB on the wire) is not needed to show the
// login form, whose only messages follow a submit: there it mounts at the first interaction. Every
// other page mounts it at once. A toast raised before it mounts waits in react-hot-toast's store.
const AppToaster = lazy(() =>
  import('../components/app-toaster.tsx').then((m) => ({ default: m.AppToaster })),
);

function LazyToaster() {
  const { pathname } = useLocation();
  const [wanted, setWanted] = useState(false);
  const onLoginPage = pagePath(pathname) === publicPages.login;
  useEffect(() => {
    if (wanted) return;
    if (!onLoginPage) {
      setWanted(true);
      return;
    }
    const start = () => setWanted(true);
    const events = ['pointerdown', 'keydown', 'focusin'] as const;
    for (const event of events) window.addEventListener(event, start, { once: true, capture: true });
    return () => {
      for (const event of events) window.removeEventListener(event, start, { capture: true });
    };
  }, [wanted, onLoginPage]);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <AppToaster />
    </Suspense>
  );
}

function PageLoading() {
  const { t } = useTranslation();
  return <FullScreenSpinner label={t('common.loading')} />;
}

/** Routing and toasts around the routes; server state is the routes' own (`query-root.tsx`). */
export function App() {
  return (
    <BrowserRouter>
      <Suspense fallback={<PageLoading />}>
        <AppRoutes />
      </Suspense>
      <LazyToaster />
    </BrowserRouter>
  );
}
