import type { HTMLAttributes } from 'react';
import { cn } from '../../lib/class-names.ts';

export function Card({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return (
    <div
      className={cn(
        'rounded-2xl border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900 dark:shadow-none',
        className,
      )}
      {...props}
    />
  );
}
