import { Link, type LinkProps } from 'react-router';
import { cn } from '../../lib/class-names.ts';

export function TextLink({ className, ...props }: LinkProps) {
  return (
    <Link
      className={cn(
        'rounded-sm font-semibold text-brand-700 underline-offset-4 hover:underline dark:text-brand-400',
        className,
      )}
      {...props}
    />
  );
}
