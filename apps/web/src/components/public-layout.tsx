import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { cn } from '../lib/class-names.ts';
import { BrandMark } from './brand-mark.tsx';
import { LanguageToggle, ThemeToggle } from './preference-toggles.tsx';
import { Button } from './ui/button.tsx';

/** The frame of the signed-out pages: the product name, language and theme, and a centred column. */
export function PublicLayout({ children, wide = false }: { children: ReactNode; wide?: boolean }) {
  const { t } = useTranslation();
  return (
    <div className="flex min-h-dvh flex-col bg-gradient-to-b from-brand-50/80 via-slate-50 to-slate-50 dark:from-brand-950/40 dark:via-slate-950 dark:to-slate-950">
      <header className="flex items-center justify-between gap-4 px-4 py-3 sm:px-6">
        <Link to="/login" className="flex items-center gap-2.5 rounded-lg">
          <BrandMark />
          <span className="flex items-baseline gap-2 text-lg font-semibold tracking-tight">
            {t('app.name')}
            <span className="text-sm font-normal text-slate-500 dark:text-slate-400" aria-hidden="true">
              {t('app.altName')}
            </span>
          </span>
        </Link>
        <div className="flex items-center gap-1">
          <LanguageToggle />
          <ThemeToggle />
        </div>
      </header>
      <main className="flex flex-1 justify-center px-4 pt-6 pb-16 sm:items-center sm:pt-0">
        <div className={cn('w-full', wide ? 'max-w-xl' : 'max-w-md')}>{children}</div>
      </main>
    </div>
  );
}

/** The card of a signed-out page: a heading, a line of context, then the form or message. */
export function PublicCard({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-lg shadow-slate-900/5 sm:p-8 dark:border-slate-800 dark:bg-slate-900 dark:shadow-none">
      <h1 className="text-xl font-semibold tracking-tight text-slate-900 sm:text-2xl dark:text-white">
        {title}
      </h1>
      {subtitle && <p className="mt-1.5 text-sm text-slate-600 dark:text-slate-400">{subtitle}</p>}
      <div className="mt-6">{children}</div>
    </div>
  );
}

/**
 * A public form's submit button, the card's width. While the form waits for its invisible captcha
 * (`solvingCaptcha`), it says so instead of its label.
 */
export function PublicSubmit({
  pending,
  solvingCaptcha = false,
  children,
}: {
  pending: boolean;
  solvingCaptcha?: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Button type="submit" className="w-full" loading={pending}>
      {pending && solvingCaptcha ? t('auth.captcha.verifying') : children}
    </Button>
  );
}
