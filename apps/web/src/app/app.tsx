import { pagePath, publicPages } from '@dukkan/contract';
import { Suspense, startTransition, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { unstable_HistoryRouter as HistoryRouter, useLocation } from 'react-router';
import { FullScreenSpinner } from '../components/ui/full-screen-spinner.tsx';
import { lazyComponent } from '../lib/lazy-component.tsx';
import { createGuardedHistory } from '../lib/leave-guard.ts';
import { whenIdle } from '../lib/when-idle.ts';
import { AppRoutes } from './routes.tsx';

// The toaster (react-hot-toast and its CSS-in-JS, ~5 KB on the wire) is not needed to show a
// page: it mounts at the first interaction, or — but on the login page, whose only messages follow
// a submit — once the page has rendered and the browser is idle. Mounted with the page, its styles
// took ~16 ms of the signed-in area's first task. A toast raised before it mounts waits in
// react-hot-toast's store. It mounts once its chunk has arrived, as a transition (below).
const AppToaster = lazyComponent(() => import('../components/app-toaster.tsx').then((m) => m.AppToaster));

/** The toaster, mounted once the page no longer needs the main thread for itself (see above). */
export function LazyToaster() {
  const { pathname } = useLocation();
  const [wanted, setWanted] = useState(false);
  const onLoginPage = pagePath(pathname) === publicPages.login;
  useEffect(() => {
    if (wanted) return;
    let cancelled = false;
    const start = () => {
      AppToaster.preload().then(
        () => {
          // As a transition, as the first screen renders: an urgent update while that render
          // waits for a chunk would show the page's loading fallback instead, and the page would
          // then replace it no sooner than React's reveal throttle allows (~300 ms).
          if (!cancelled) startTransition(() => setWanted(true));
        },
        // Not downloaded (offline): the next interaction asks again.
        () => undefined,
      );
    };
    const events = ['pointerdown', 'keydown', 'focusin'] as const;
    for (const event of events) window.addEventListener(event, start, { once: true, capture: true });
    const idle = onLoginPage ? undefined : whenIdle(start);
    return () => {
      cancelled = true;
      for (const event of events) window.removeEventListener(event, start, { capture: true });
      idle?.();
    };
  }, [wanted, onLoginPage]);
  return wanted ? <AppToaster /> : null;
}

function PageLoading() {
  const { t } = useTranslation();
  return <FullScreenSpinner label={t('common.loading')} />;
}

/**
 * Routing and toasts around the routes; server state is the routes' own (`query-root.tsx`). The
 * history is `<BrowserRouter>`'s, asking before a page's unsaved changes are left (`leave-guard.ts`).
 */
export function App() {
  const [history] = useState(() => createGuardedHistory());
  return (
    <HistoryRouter history={history}>
      <Suspense fallback={<PageLoading />}>
        <AppRoutes />
      </Suspense>
      <LazyToaster />
    </HistoryRouter>
  );
}
