import { type ComponentType, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink, useLocation } from 'react-router';
import {
  CardIcon,
  ChevronDownIcon,
  DatabaseIcon,
  HomeIcon,
  SettingsIcon,
  UsersIcon,
} from '../../components/ui/icons.tsx';
import { cn } from '../../lib/class-names.ts';
import { usePermissionCheck } from '../../lib/workspace-context.tsx';
import {
  buildNavigation,
  type NavGroupEntry,
  type NavIcon,
  type NavLinkEntry,
  navigation,
} from '../navigation.ts';

const icons: Record<NavIcon, ComponentType<{ className?: string }>> = {
  dashboard: HomeIcon,
  data: DatabaseIcon,
  customers: UsersIcon,
  subscriptions: CardIcon,
  settings: SettingsIcon,
};

const itemClassName = 'flex w-full items-center gap-3 rounded-lg px-3 text-sm transition-colors';
const idleClassName =
  'text-slate-700 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white';
const activeClassName = 'bg-brand-50 text-brand-800 dark:bg-brand-500/15 dark:text-brand-300';

function MenuLink({ entry, nested = false }: { entry: NavLinkEntry; nested?: boolean }) {
  const { t } = useTranslation();
  const Icon = entry.icon ? icons[entry.icon] : null;
  return (
    <NavLink
      to={entry.path}
      end={entry.path === '/'}
      className={({ isActive }) =>
        cn(
          itemClassName,
          nested ? 'h-9 font-normal' : 'h-10 font-semibold',
          isActive ? activeClassName : idleClassName,
        )
      }
    >
      {Icon && <Icon className="size-5 shrink-0 opacity-80" />}
      <span className="truncate">{t(`nav.${entry.labelKey}` as never) as string}</span>
    </NavLink>
  );
}

function MenuGroup({ entry, open, onToggle }: { entry: NavGroupEntry; open: boolean; onToggle: () => void }) {
  const { t } = useTranslation();
  const listId = useId();
  const Icon = icons[entry.icon];
  return (
    <li>
      <button
        type="button"
        className={cn(itemClassName, 'h-10 font-semibold', idleClassName)}
        aria-expanded={open}
        aria-controls={listId}
        onClick={onToggle}
      >
        <Icon className="size-5 shrink-0 opacity-80" />
        <span className="truncate">{t(`nav.groups.${entry.key}`)}</span>
        <ChevronDownIcon
          className={cn('ms-auto size-4 shrink-0 transition-transform', open && 'rotate-180')}
        />
      </button>
      <ul
        id={listId}
        hidden={!open}
        className="ms-5 mt-1 space-y-0.5 border-s border-slate-200 ps-3 dark:border-slate-800"
      >
        {entry.links.map((link) => (
          <li key={link.path}>
            <MenuLink entry={link} nested />
          </li>
        ))}
      </ul>
    </li>
  );
}

/** The side menu: permitted entries only; the group of the current page opens by itself. */
export function NavMenu() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const isAllowed = usePermissionCheck();
  const entries = buildNavigation(navigation, isAllowed, pathname);
  // The user's own open/close choices, forgotten on navigation so the current group opens again.
  const [toggled, setToggled] = useState<Partial<Record<NavGroupEntry['key'], boolean>>>({});
  useEffect(() => {
    if (pathname) setToggled({});
  }, [pathname]);

  return (
    <nav aria-label={t('nav.label')} className="flex-1 overflow-y-auto px-3 py-4">
      <ul className="space-y-1">
        {entries.map((entry) =>
          entry.kind === 'link' ? (
            <li key={entry.path}>
              <MenuLink entry={entry} />
            </li>
          ) : (
            <MenuGroup
              key={entry.key}
              entry={entry}
              open={toggled[entry.key] ?? entry.active}
              onToggle={() =>
                setToggled((current) => ({ ...current, [entry.key]: !(current[entry.key] ?? entry.active) }))
              }
            />
          ),
        )}
      </ul>
    </nav>
  );
}
