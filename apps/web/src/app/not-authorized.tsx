import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { EmptyState } from '../components/page.tsx';
import { LockIcon } from '../components/ui/icons.tsx';
import { TextLink } from '../components/ui/text-link.tsx';
import { usePermissionCheck } from '../lib/workspace-context.tsx';
import { navigation, openablePages } from './navigation.ts';

/**
 * The refusal of spec §2 ('You are not authorized to access this page'), then links to the pages
 * the user may open, taken from the menu so both offer the same; with none, the way out is to
 * sign out. A member without viewApplications lands here at `/` (spec §4).
 */
export function NotAuthorized() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const headingId = useId();
  const pages = openablePages(navigation, usePermissionCheck(), pathname);
  return (
    <EmptyState icon={<LockIcon />} title={t('errors.notAuthorizedPage')}>
      <p>{t('errors.notAuthorizedHint')}</p>
      {pages.length > 0 ? (
        <nav aria-labelledby={headingId} className="mt-4">
          <h2 id={headingId} className="font-semibold text-slate-900 dark:text-slate-100">
            {t('shell.pagesYouCanOpen')}
          </h2>
          <ul className="mt-2 flex flex-wrap justify-center gap-x-4 gap-y-2">
            {pages.map((page) => (
              <li key={page.path}>
                <TextLink to={page.path}>{t(`nav.${page.labelKey}` as never) as string}</TextLink>
              </li>
            ))}
          </ul>
        </nav>
      ) : (
        <p className="mt-4">
          {t('shell.noPageToOpen')} <TextLink to="/logout">{t('shell.logout')}</TextLink>
        </p>
      )}
    </EmptyState>
  );
}
