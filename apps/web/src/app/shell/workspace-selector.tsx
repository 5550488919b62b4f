import { workspaceInitials } from '@dukkan/contract';
import { useTranslation } from 'react-i18next';
import { Avatar } from '../../components/ui/avatar.tsx';
import { DeferredMenu } from '../../components/ui/deferred-menu.tsx';
import { ChevronsUpDownIcon } from '../../components/ui/icons.tsx';
import { lazyComponent } from '../../lib/lazy-component.tsx';
import { useWorkspace } from '../../lib/workspace-context.tsx';

/** The menu's chunk; its `preload` is a test's way to start with it there. */
export const workspaceSelectorPopup = lazyComponent(() =>
  import('./workspace-selector-popup.tsx').then((m) => m.WorkspaceSelectorPopup),
);

/**
 * Picks the workspace that scopes the screens; the choice is remembered (spec §4). Its menu also
 * leads to the selected workspace's settings (`/settings`).
 */
export function WorkspaceSelector() {
  const { t } = useTranslation();
  const { selectedWorkspace } = useWorkspace();

  if (!selectedWorkspace) {
    return (
      <p className="rounded-lg border border-dashed border-slate-300 px-3 py-2.5 text-sm text-slate-500 dark:border-slate-700 dark:text-slate-400">
        {t('shell.noWorkspace')}
      </p>
    );
  }

  return (
    // Named by what it shows, then what it does (WCAG 2.5.3: the visible label is in the name).
    <DeferredMenu
      menu={workspaceSelectorPopup}
      className="flex w-full items-center gap-3 rounded-xl border border-slate-200 bg-white p-2 text-start shadow-xs transition-colors hover:bg-slate-50 data-[state=open]:bg-slate-50 dark:border-slate-800 dark:bg-slate-900 dark:hover:bg-slate-800 dark:data-[state=open]:bg-slate-800"
    >
      <Avatar
        src={selectedWorkspace.logo}
        fallback={workspaceInitials(selectedWorkspace.name)}
        shape="rounded"
      />
      <span className="min-w-0 flex-1">
        <span className="block text-xs text-slate-500 dark:text-slate-400">{t('shell.workspace')}</span>
        <span className="block truncate text-sm font-semibold text-slate-900 dark:text-white">
          {selectedWorkspace.name}
        </span>
      </span>
      <span className="sr-only">{t('shell.switchWorkspace')}</span>
      <ChevronsUpDownIcon className="size-4 shrink-0 text-slate-400" />
    </DeferredMenu>
  );
}
