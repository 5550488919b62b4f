import { workspaceInitials } from '@dukkan/contract';
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useTranslation } from 'react-i18next';
import { Avatar } from '../../components/ui/avatar.tsx';
import type { MenuWithTriggerProps } from '../../components/ui/deferred-menu.tsx';
import { CheckIcon, SettingsIcon } from '../../components/ui/icons.tsx';
import { useWorkspace } from '../../lib/workspace-context.tsx';
import { MenuFrame, MenuLink, MenuSeparator } from './menu-items.tsx';
import { menuContentClassName, menuItemClassName } from './menu-styles.ts';

/**
 * The workspace selector's chunk (`workspace-selector.tsx`): Radix's menu of the workspaces, and
 * the way to the selected one's settings (`/settings`, where every member reads them and its
 * admins change them).
 */
export function WorkspaceSelectorPopup(trigger: MenuWithTriggerProps) {
  const { t } = useTranslation();
  const { workspaces, selectedWorkspace, selectWorkspace } = useWorkspace();
  if (!selectedWorkspace) return null;

  return (
    <MenuFrame
      trigger={trigger}
      content={{
        align: 'start',
        sideOffset: 6,
        className: `${menuContentClassName} w-(--radix-dropdown-menu-trigger-width)`,
      }}
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
      <MenuSeparator />
      <MenuLink to="/settings" icon={SettingsIcon}>
        {t('shell.workspaceSettings')}
      </MenuLink>
    </MenuFrame>
  );
}
