import { createContext, type ReactNode, useContext } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../lib/api-client.ts';
import { useDocumentTitle } from '../lib/use-document-title.ts';
import { AlertIcon } from './ui/action-icons.tsx';
import { Button } from './ui/button.tsx';
import { LockIcon } from './ui/icons.tsx';

/** What the signed-in shell puts into every page header: the menu button and the user menu. */
interface ShellSlots {
  start: ReactNode;
  end: ReactNode;
}

const ShellSlotsContext = createContext<ShellSlots>({ start: null, end: null });
export const ShellSlotsProvider = ShellSlotsContext.Provider;

/** The shared page header bar: fixed height, bottom border, items centred (spec §2). */
function PageHeader({ title, actions }: { title: string; actions?: ReactNode }) {
  const slots = useContext(ShellSlotsContext);
  return (
    <header className="sticky top-0 z-20 flex print:hidden h-16 shrink-0 items-center gap-3 border-b border-slate-200 bg-white/90 px-4 backdrop-blur sm:px-6 dark:border-slate-800 dark:bg-slate-900/90">
      {slots.start}
      <h1 className="min-w-0 truncate text-lg font-semibold text-slate-900 dark:text-white">{title}</h1>
      <div className="ms-auto flex items-center gap-2">
        {actions}
        {slots.end}
      </div>
    </header>
  );
}

/** A signed-in screen: its header bar, then its content. */
export function Page({
  title,
  actions,
  children,
}: {
  title: string;
  actions?: ReactNode;
  children: ReactNode;
}) {
  useDocumentTitle(title);
  return (
    <>
      <PageHeader title={title} actions={actions} />
      <main id="main-content" tabIndex={-1} className="flex-1 p-4 outline-none sm:p-6 lg:p-8 print:p-0">
        {children}
      </main>
    </>
  );
}

/** The centred message of a screen with nothing (yet) to show. */
export function EmptyState({
  icon,
  title,
  children,
}: {
  icon: ReactNode;
  title: string;
  children?: ReactNode;
}) {
  return (
    <div className="mx-auto flex max-w-lg flex-col items-center rounded-2xl border border-dashed border-slate-300 bg-white px-6 py-14 text-center dark:border-slate-700 dark:bg-slate-900">
      <span className="grid size-12 place-items-center rounded-full bg-slate-100 text-slate-600 dark:bg-slate-800 dark:text-slate-300">
        {icon}
      </span>
      <p className="mt-4 font-semibold text-slate-900 dark:text-slate-100">{title}</p>
      {children && <div className="mt-1 text-sm text-slate-600 dark:text-slate-400">{children}</div>}
    </div>
  );
}

/**
 * What a screen shows when its data could not be loaded: the spec's refusal for a 403, otherwise
 * `message` and a retry.
 */
export function LoadFailed({
  error,
  message,
  onRetry,
}: {
  error: unknown;
  message: string;
  onRetry: () => void;
}) {
  const { t } = useTranslation();
  const forbidden = isApiError(error) && error.code === 'FORBIDDEN';
  return (
    <div role="alert" className="flex flex-col items-center px-6 py-14 text-center">
      <span className="grid size-12 place-items-center rounded-full bg-red-50 text-red-600 dark:bg-red-500/10 dark:text-red-400">
        {forbidden ? <LockIcon /> : <AlertIcon />}
      </span>
      <p className="mt-4 font-semibold">{forbidden ? t('errors.notAuthorizedPage') : message}</p>
      {!forbidden && (
        <Button variant="secondary" className="mt-4" onClick={onRetry}>
          {t('common.retry')}
        </Button>
      )}
    </div>
  );
}
