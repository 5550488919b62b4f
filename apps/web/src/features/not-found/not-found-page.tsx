import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PublicLayout } from '../../components/public-layout.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

/** `/404` and every unknown address. */
export function NotFoundPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('notFound.title'));
  return (
    <PublicLayout>
      <div className="text-center">
        <p
          className="text-7xl font-bold tracking-tight text-brand-600 dark:text-brand-400"
          aria-hidden="true"
        >
          {t('notFound.code')}
        </p>
        <h1 className="mt-4 text-2xl font-semibold text-slate-900 dark:text-white">{t('notFound.title')}</h1>
        <p className="mt-2 text-slate-600 dark:text-slate-400">{t('notFound.body')}</p>
        <Link
          to="/"
          className="mt-8 inline-flex h-10 items-center rounded-lg bg-brand-600 px-4 text-sm font-semibold text-white shadow-sm hover:bg-brand-700 dark:bg-brand-500 dark:text-slate-950 dark:hover:bg-brand-400"
        >
          {t('common.goHome')}
        </Link>
      </div>
    </PublicLayout>
  );
}
