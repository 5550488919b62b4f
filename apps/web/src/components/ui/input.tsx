import type { InputHTMLAttributes, Ref } from 'react';
import { cn } from '../../lib/class-names.ts';

export const controlClassName =
  'block w-full rounded-lg border border-slate-300 bg-white px-3 text-sm text-slate-900 shadow-xs transition-colors placeholder:text-slate-400 hover:border-slate-400 focus-visible:border-brand-600 focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-brand-600/30 disabled:cursor-not-allowed disabled:bg-slate-100 disabled:text-slate-600 aria-invalid:border-red-500 aria-invalid:focus-visible:outline-red-500/30 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:placeholder:text-slate-500 dark:hover:border-slate-600 dark:focus-visible:border-brand-400 dark:disabled:bg-slate-800 dark:disabled:text-slate-300 dark:aria-invalid:border-red-400';

export interface InputProps extends InputHTMLAttributes<HTMLInputElement> {
  ref?: Ref<HTMLInputElement>;
}

export function Input({ className, ...props }: InputProps) {
  return <input className={cn(controlClassName, 'h-10', className)} {...props} />;
}

/** An email address: left to right in either language, with the email keyboard and autofill. */
export function EmailInput(props: InputProps) {
  return (
    <Input type="email" autoComplete="email" inputMode="email" dir="ltr" className="text-start" {...props} />
  );
}

/** A phone number: left to right in either language, with the phone keyboard and autofill. */
export function PhoneInput(props: InputProps) {
  return <Input type="tel" autoComplete="tel" dir="ltr" className="text-start" {...props} />;
}
