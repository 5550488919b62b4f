import { lazy } from 'react';
import { useTranslation } from 'react-i18next';
import { Route, Routes } from 'react-router';
import { NotAuthorizedViewContext } from '../components/not-authorized-view.tsx';
import { RecordEditorProvider } from '../resource-ui/record-editor-provider.tsx';
import { NotAuthorized } from './not-authorized.tsx';
import { pageOf, preloadPageAt } from './pages.tsx';
import { RequirePermission } from './require-permission.tsx';
import { type Screen, screens } from './screens.ts';
import { AppShell } from './shell/app-shell.tsx';

const ComingSoonPage = lazy(() =>
  import('../features/placeholder/coming-soon-page.tsx').then((m) => ({ default: m.ComingSoonPage })),
);
const NotFoundPage = lazy(() =>
  import('../features/not-found/not-found-page.tsx').then((m) => ({ default: m.NotFoundPage })),
);

// This module loads once per visit, as the signed-in area opens: the page it opens on starts
// downloading now, beside the shell's first render.
preloadPageAt(window.location.pathname);

/** A signed-in screen behind its route guard: its page, or the placeholder of a later milestone. */
function GuardedScreen({ screen }: { screen: Screen }) {
  const { t } = useTranslation();
  const title = t(`nav.${screen.titleKey}` as never) as string;
  const ScreenPage = pageOf(screen.page);
  const page = ScreenPage ? <ScreenPage /> : <ComingSoonPage title={title} />;
  if (!screen.requirement) return page;
  return (
    <RequirePermission {...screen.requirement} title={title}>
      {page}
    </RequirePermission>
  );
}

/**
 * The signed-in area, loaded once someone is signed in: the shell around every screen (each
 * registered resource's, derived from the contract's registry, and the others), and the
 * not-found page for any other address. It provides the shared layers with the app's refusal view
 * and the resources' create dialog (a field's "New …").
 */
export function SignedInApp() {
  return (
    <NotAuthorizedViewContext.Provider value={NotAuthorized}>
      <RecordEditorProvider>
        <Routes>
          <Route element={<AppShell />}>
            {Object.entries(screens).map(([name, screen]) =>
              screen.path === '/' ? (
                <Route key={name} index element={<GuardedScreen screen={screen} />} />
              ) : (
                <Route key={name} path={screen.path} element={<GuardedScreen screen={screen} />} />
              ),
            )}
          </Route>
          <Route path="*" element={<NotFoundPage />} />
        </Routes>
      </RecordEditorProvider>
    </NotAuthorizedViewContext.Provider>
  );
}
