import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { BrandMark } from '../../components/brand-mark.tsx';
import { NavMenu } from './nav-menu.tsx';
import { WorkspaceSelector } from './workspace-selector.tsx';

/** The product name, the workspace selector and the menu: the sidebar and the drawer show the same. */
export function SidebarContent() {
  const { t } = useTranslation();
  return (
    <div className="flex h-full min-h-0 flex-col">
      <div className="flex h-16 shrink-0 items-center px-5">
        <Link to="/" className="flex items-center gap-2.5 rounded-lg">
          <BrandMark className="size-8" />
          <span className="text-lg font-semibold tracking-tight text-slate-900 dark:text-white">
            {t('app.name')}
          </span>
        </Link>
      </div>
      <div className="px-3 pt-1">
        <WorkspaceSelector />
      </div>
      <NavMenu />
    </div>
  );
}
