import type { ReactNode } from 'react';
import { MailCheckIcon } from './ui/icons.tsx';

/** The message that replaces a public form once it was sent. */
export function SuccessPanel({
  title,
  body,
  children,
}: {
  title: string;
  body: string;
  children?: ReactNode;
}) {
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
