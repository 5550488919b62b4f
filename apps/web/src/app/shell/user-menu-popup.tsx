import type { CurrentUser, UpdateLanguageInput } from '@dukkan/contract';
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { LanguageName } from '../../components/preference-toggles.tsx';
import type { MenuWithTriggerProps } from '../../components/ui/deferred-menu.tsx';
import { LanguageIcon, LogoutIcon, MoonIcon, SunIcon, UserIcon } from '../../components/ui/icons.tsx';
import { type LanguageCode, languages } from '../../i18n/languages.ts';
import { apiRequest } from '../../lib/api-client.ts';
import { describeApiError } from '../../lib/error-messages.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { useTheme } from '../../lib/theme.ts';
import { useWorkspace } from '../../lib/workspace-context.tsx';
import { MenuFrame, MenuLink, MenuSeparator } from './menu-items.tsx';
import { menuContentClassName, menuItemClassName } from './menu-styles.ts';

/** The user menu's chunk (`user-menu.tsx`): Radix's menu, with the trigger's contents it is given. */
export function UserMenuPopup(trigger: MenuWithTriggerProps) {
  const { t, i18n } = useTranslation();
  const { user } = useWorkspace();
  const { theme, toggleTheme } = useTheme();
  const queryClient = useQueryClient();
  // The switch is also the account's saved language, so mail arrives in it (issue 14). A failed
  // save leaves the interface switched and says so.
  const saveLanguage = useMutation({
    mutationFn: (body: UpdateLanguageInput) =>
      apiRequest<CurrentUser>('/auth/profile', { method: 'PATCH', body }),
    onSuccess: (updated) => queryClient.setQueryData(queryKeys.currentUser, updated),
    onError: (error) => toast.error(describeApiError(error, t, i18n.language)),
  });
  const switchLanguage = (language: LanguageCode) => {
    void i18n.changeLanguage(language);
    saveLanguage.mutate({ language });
  };

  return (
    <MenuFrame
      trigger={trigger}
      content={{ align: 'end', sideOffset: 8, className: `${menuContentClassName} w-[200px]` }}
    >
      <div className="px-2 py-1.5">
        <p className="truncate text-sm font-semibold">{user.name}</p>
        <p className="truncate text-xs text-slate-500 dark:text-slate-400">
          <bdi>{user.email}</bdi>
        </p>
      </div>
      <MenuSeparator />
      <DropdownMenu.Item className={menuItemClassName} onSelect={toggleTheme}>
        {theme === 'dark' ? <SunIcon className="size-4" /> : <MoonIcon className="size-4" />}
        {theme === 'dark' ? t('theme.light') : t('theme.dark')}
      </DropdownMenu.Item>
      <MenuSeparator />
      <DropdownMenu.Label className="px-2 pt-1 pb-0.5 text-xs font-semibold text-slate-500 dark:text-slate-400">
        {t('languages.label')}
      </DropdownMenu.Label>
      {languages.map((language) => (
        <DropdownMenu.Item
          key={language.code}
          className={menuItemClassName}
          disabled={i18n.resolvedLanguage === language.code}
          onSelect={() => switchLanguage(language.code)}
        >
          <LanguageIcon className="size-4" />
          <LanguageName code={language.code} />
        </DropdownMenu.Item>
      ))}
      <MenuSeparator />
      <MenuLink to="/profile" icon={UserIcon}>
        {t('shell.myProfile')}
      </MenuLink>
      <MenuLink to="/logout" icon={LogoutIcon}>
        {t('shell.logout')}
      </MenuLink>
    </MenuFrame>
  );
}
