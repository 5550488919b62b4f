import { usedSecondFactor } from '@dukkan/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router';
import { ShellSlotsProvider } from '../../components/page.tsx';
import { Button } from '../../components/ui/button.tsx';
import { MenuIcon } from '../../components/ui/icons.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { lazyComponent } from '../../lib/lazy-component.tsx';
import { queryKeys } from '../../lib/query-keys.ts';
import { clearSecondFactorRequired, useSecondFactorRequired } from '../../lib/second-factor-required.ts';
import { useMediaQuery } from '../../lib/use-media-query.ts';
import { useWorkspace } from '../../lib/workspace-context.tsx';
import { MobileDrawer, wideScreenQuery } from './mobile-drawer.tsx';
import { SidebarContent } from './sidebar-content.tsx';
import { UserMenu } from './user-menu.tsx';

const drawerId = 'navigation-drawer';

const SecondFactorPrompt = lazyComponent(() =>
  import('../../features/auth/second-factor-prompt.tsx').then((m) => m.SecondFactorPrompt),
);

/** Pages of the person, not of a workspace: open whatever the workspace requires (enrolment is here). */
const personalPaths = ['/profile'];

/**
 * Whether the selected workspace wants a second factor this session has not used. A call refused
 * for that (`SECOND_FACTOR_REQUIRED`) has the current user read again: the workspace's setting
 * may have changed since it was read, and the user's summary is what decides.
 */
function useSecondFactorGate(): boolean {
  const { user, selectedWorkspace } = useWorkspace();
  const { pathname } = useLocation();
  const queryClient = useQueryClient();
  const refused = useSecondFactorRequired();
  useEffect(() => {
    if (!refused) return;
    clearSecondFactorRequired();
    void queryClient.invalidateQueries({ queryKey: queryKeys.currentUser });
  }, [refused, queryClient]);
  return (
    selectedWorkspace?.requireSecondFactor === true &&
    !usedSecondFactor(user.sessionFactors) &&
    !personalPaths.some((path) => pathname === path || pathname.startsWith(`${path}/`))
  );
}

function ContentSpinner() {
  const { t } = useTranslation();
  return (
    <div role="status" className="grid flex-1 place-items-center py-24 text-brand-600 dark:text-brand-400">
      <Spinner className="size-6" />
      <span className="sr-only">{t('common.loading')}</span>
    </div>
  );
}

/** The signed-in frame: a 280px sidebar on wide screens, a drawer on narrow ones, then the page. */
export function AppShell() {
  const { t } = useTranslation();
  const location = useLocation();
  const { user, selectedWorkspace } = useWorkspace();
  const gated = useSecondFactorGate();
  const [drawerOpen, setDrawerOpen] = useState(false);
  // The menu is drawn where it can be seen: in the sidebar on a wide screen, in the drawer on a
  // narrow one once it has been opened (kept afterwards, so it slides out whole). Both copies on
  // every page cost a phone ~30 ms of its first render; where the width is unknown, both are drawn.
  const wide = useMediaQuery(wideScreenQuery);
  const [drawerUsed, setDrawerUsed] = useState(false);
  const closeDrawer = useCallback(() => setDrawerOpen(false), []);

  // Any navigation closes the drawer, even a click on the link of the page already shown.
  useEffect(() => {
    if (location.key) setDrawerOpen(false);
  }, [location.key]);

  const slots = useMemo(
    () => ({
      start: (
        <Button
          variant="ghost"
          size="icon"
          className="-ms-2 lg:hidden"
          aria-label={t('shell.openMenu')}
          aria-expanded={drawerOpen}
          aria-controls={drawerId}
          onClick={() => {
            setDrawerUsed(true);
            setDrawerOpen(true);
          }}
        >
          <MenuIcon />
        </Button>
      ),
      end: <UserMenu />,
    }),
    [t, drawerOpen],
  );

  return (
    <div className="min-h-dvh lg:grid lg:grid-cols-[280px_minmax(0,1fr)] print:block">
      <a
        href="#main-content"
        className="sr-only z-50 rounded-lg bg-white px-4 py-2 text-sm font-semibold text-brand-800 shadow focus:not-sr-only focus:fixed focus:start-4 focus:top-4 dark:bg-slate-800 dark:text-brand-300"
      >
        {t('shell.skipToContent')}
      </a>
      <aside className="sticky top-0 hidden h-dvh print:hidden border-e border-slate-200 bg-white lg:block dark:border-slate-800 dark:bg-slate-900">
        {wide !== false && <SidebarContent />}
      </aside>
      <MobileDrawer id={drawerId} open={drawerOpen} onClose={closeDrawer}>
        {(wide === undefined || (!wide && (drawerOpen || drawerUsed))) && <SidebarContent />}
      </MobileDrawer>
      <div className="flex min-h-dvh min-w-0 flex-col">
        <ShellSlotsProvider value={slots}>
          <Suspense fallback={<ContentSpinner />}>
            {/* A page is its workspace's: switching starts it afresh, so changes agreed to be
                discarded (lib/leave-guard.ts) are gone, not shown in the other workspace. */}
            {gated && selectedWorkspace ? (
              <SecondFactorPrompt user={user} workspace={selectedWorkspace.name} />
            ) : (
              <Outlet key={selectedWorkspace?.id} />
            )}
          </Suspense>
        </ShellSlotsProvider>
      </div>
    </div>
  );
}
