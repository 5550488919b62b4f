import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PublicLayout } from './public-layout.tsx';
import { MailCheckIcon } from './ui/icons.tsx';
import { TextLink } from './ui/text-link.tsx';

/** The message that replaces a public form once it was sent. */
function SuccessPanel({ title, body, children }: { title: string; body: string; children?: ReactNode }) {
  return (
    <div role="status" className="flex flex-col items-center py-4 text-center">
      <span className="grid size-14 place-items-center rounded-full bg-brand-50 text-brand-700 ring-8 ring-brand-50/50 dark:bg-brand-900/40 dark:text-brand-300 dark:ring-brand-900/20">
        <MailCheckIcon className="size-7" />
      </span>
      <h1 className="mt-5 text-xl font-semibold text-slate-900 dark:text-white">{title}</h1>
      <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">{body}</p>
      {children && <div className="mt-6">{children}</div>}
    </div>
  );
}

/**
 * A public page once its form was sent: the message, and the way back to sign-in (`loginLink`:
 * the sign-in it was reached from, with its return path).
 */
export function SentPage({
  title,
  body,
  loginLink = '/login',
}: {
  title: string;
  body: string;
  loginLink?: string;
}) {
  const { t } = useTranslation();
  return (
    <PublicLayout>
      <div className="rounded-2xl border border-slate-200 bg-white p-8 shadow-lg shadow-slate-900/5 dark:border-slate-800 dark:bg-slate-900 dark:shadow-none">
        <SuccessPanel title={title} body={body}>
          <TextLink to={loginLink}>{t('common.backToLogin')}</TextLink>
        </SuccessPanel>
      </div>
    </PublicLayout>
  );
}
