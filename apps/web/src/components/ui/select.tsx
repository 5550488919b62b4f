import type { Ref, SelectHTMLAttributes } from 'react';
import { cn } from '../../lib/class-names.ts';
import { controlClassName } from './input.tsx';

interface SelectProps extends SelectHTMLAttributes<HTMLSelectElement> {
  ref?: Ref<HTMLSelectElement>;
}

/** A native select (keyboard and screen-reader friendly) with the chevron on the inline end. */
export function Select({ className, children, ...props }: SelectProps) {
  return (
    <div className="relative">
      <select className={cn(controlClassName, 'h-10 appearance-none pe-9', className)} {...props}>
        {children}
      </select>
      <svg
        className="pointer-events-none absolute inset-y-0 end-3 my-auto size-4 text-slate-500 dark:text-slate-400"
        viewBox="0 0 20 20"
        fill="currentColor"
        aria-hidden="true"
      >
        <path
          fillRule="evenodd"
          d="M5.23 7.21a.75.75 0 0 1 1.06.02L10 11.17l3.71-3.94a.75.75 0 1 1 1.08 1.04l-4.25 4.5a.75.75 0 0 1-1.08 0l-4.25-4.5a.75.75 0 0 1 .02-1.06Z"
          clipRule="evenodd"
        />
      </svg>
    </div>
  );
}
