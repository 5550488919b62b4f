import { type InputHTMLAttributes, type Ref, useEffect, useRef } from 'react';
import { cn } from '../../lib/class-names.ts';

interface CheckboxProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> {
  /** Some but not all of what it stands for is checked: shown as a dash, announced as "mixed". */
  indeterminate?: boolean;
  ref?: Ref<HTMLInputElement>;
}

/** A native checkbox (keyboard and screen readers for free) in the brand colour. */
export function Checkbox({ indeterminate = false, className, ref, ...props }: CheckboxProps) {
  const own = useRef<HTMLInputElement | null>(null);
  useEffect(() => {
    if (own.current) own.current.indeterminate = indeterminate;
  }, [indeterminate]);
  return (
    <input
      type="checkbox"
      ref={(node) => {
        own.current = node;
        if (typeof ref === 'function') ref(node);
        else if (ref) ref.current = node;
      }}
      aria-checked={indeterminate ? 'mixed' : undefined}
      className={cn(
        'size-4 shrink-0 cursor-pointer rounded border-slate-300 accent-brand-600 disabled:cursor-not-allowed disabled:opacity-40 dark:accent-brand-400',
        className,
      )}
      {...props}
    />
  );
}
