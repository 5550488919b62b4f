import { userInitial } from '@dukkan/contract';
import { useTranslation } from 'react-i18next';
import { Avatar } from '../../components/ui/avatar.tsx';
import { DeferredMenu } from '../../components/ui/deferred-menu.tsx';
import { lazyComponent } from '../../lib/lazy-component.tsx';
import { useWorkspace } from '../../lib/workspace-context.tsx';

/** The menu's chunk; its `preload` is a test's way to start with it there. */
export const userMenuPopup = lazyComponent(() =>
  import('./user-menu-popup.tsx').then((m) => m.UserMenuPopup),
);

/** Theme, language (the current one disabled), My profile and Logout (spec §2). */
export function UserMenu() {
  const { t } = useTranslation();
  const { user } = useWorkspace();
  return (
    // Named by what it shows, then what it does (WCAG 2.5.3: the visible label is in the name).
    <DeferredMenu
      menu={userMenuPopup}
      className="flex items-center gap-2 rounded-full p-0.5 transition-colors hover:bg-slate-100 data-[state=open]:bg-slate-100 sm:pe-3 dark:hover:bg-slate-800 dark:data-[state=open]:bg-slate-800"
    >
      <Avatar src={user.profilePicture} fallback={userInitial(user.name)} size="sm" />
      <span className="sr-only max-w-40 truncate text-sm font-semibold text-slate-700 sm:not-sr-only sm:block dark:text-slate-200">
        {user.name}
      </span>
      <span className="sr-only">{t('shell.accountMenu')}</span>
    </DeferredMenu>
  );
}
