import { workspaceInitials } from '@dukkan/contract';
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Avatar } from '../../components/ui/avatar.tsx';
import { CheckIcon, ChevronsUpDownIcon, SettingsIcon } from '../../components/ui/icons.tsx';
import { useDirection } from '../../lib/use-direction.ts';
import { useWorkspace, useWorkspaceGrant } from '../../lib/workspace-context.tsx';
import { menuContentClassName, menuItemClassName } from './menu-styles.ts';

// Loaded when an admin opens it: the form renderer stays off the shell's first load.
const WorkspaceSettingsDialog = lazy(() =>
  import('../../features/workspaces/workspace-settings-dialog.tsx').then((module) => ({
    default: module.WorkspaceSettingsDialog,
  })),
);

/**
 * Picks the workspace that scopes the screens; the choice is remembered (spec §4). The selected
 * workspace's admins also find its settings here (name, logo, base currency).
 */
export function WorkspaceSelector() {
  const { t } = useTranslation();
  const dir = useDirection();
  const { workspaces, selectedWorkspace, selectWorkspace } = useWorkspace();
  const { isAdmin } = useWorkspaceGrant();
  const [settingsOpen, setSettingsOpen] = useState(false);

  if (!selectedWorkspace) {
    return (
      <p className="rounded-lg border border-dashed border-slate-300 px-3 py-2.5 text-sm text-slate-500 dark:border-slate-700 dark:text-slate-400">
        {t('shell.noWorkspace')}
      </p>
    );
  }

  return (
    <>
      {/* Not modal: a modal menu hides the page (aria-hidden) while its links stay focusable (axe: aria-hidden-focus). */}
      <DropdownMenu.Root dir={dir} modal={false}>
        {/* Named by what it shows, then what it does (WCAG 2.5.3: the visible label is in the name). */}
        <DropdownMenu.Trigger className="flex w-full items-center gap-3 rounded-xl border border-slate-200 bg-white p-2 text-start shadow-xs transition-colors hover:bg-slate-50 data-[state=open]:bg-slate-50 dark:border-slate-800 dark:bg-slate-900 dark:hover:bg-slate-800 dark:data-[state=open]:bg-slate-800">
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
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content
            align="start"
            sideOffset={6}
            className={`${menuContentClassName} w-(--radix-dropdown-menu-trigger-width)`}
          >
            <DropdownMenu.Label className="px-2 py-1.5 text-xs font-semibold text-slate-500 dark:text-slate-400">
              {t('shell.switchWorkspace')}
            </DropdownMenu.Label>
            <DropdownMenu.RadioGroup value={selectedWorkspace.id} onValueChange={selectWorkspace}>
              {workspaces.map((workspace) => (
                <DropdownMenu.RadioItem key={workspace.id} value={workspace.id} className={menuItemClassName}>
                  <Avatar
                    src={workspace.logo}
                    fallback={workspaceInitials(workspace.name)}
                    size="sm"
                    shape="rounded"
                  />
                  <span className="min-w-0 flex-1 truncate">{workspace.name}</span>
                  <DropdownMenu.ItemIndicator>
                    <CheckIcon className="size-4 text-brand-600 dark:text-brand-400" />
                  </DropdownMenu.ItemIndicator>
                </DropdownMenu.RadioItem>
              ))}
            </DropdownMenu.RadioGroup>
            {isAdmin && (
              <>
                <DropdownMenu.Separator className="my-1 h-px bg-slate-200 dark:bg-slate-700" />
                <DropdownMenu.Item className={menuItemClassName} onSelect={() => setSettingsOpen(true)}>
                  <SettingsIcon className="size-4" />
                  {t('shell.workspaceSettings')}
                </DropdownMenu.Item>
              </>
            )}
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      {settingsOpen && isAdmin && (
        <Suspense fallback={null}>
          <WorkspaceSettingsDialog workspace={selectedWorkspace} onClose={() => setSettingsOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
