import { useState } from 'react';
import { cn } from '../../lib/class-names.ts';

type Size = 'sm' | 'md' | 'lg';
const sizes: Record<Size, string> = { sm: 'size-8', md: 'size-9', lg: 'size-12' };
const textSizes: Record<Size, string> = { sm: 'text-xs', md: 'text-sm', lg: 'text-base' };

interface AvatarProps {
  /** Image address; the fallback shows when it is missing or fails to load. */
  src?: string | null;
  fallback: string;
  size?: Size;
  shape?: 'circle' | 'rounded';
  className?: string;
}

/** A picture, or its text fallback (initials) — decorative: the name is always shown beside it. */
export function Avatar({ src, fallback, size = 'md', shape = 'circle', className }: AvatarProps) {
  const [failed, setFailed] = useState(false);
  const rounding = shape === 'circle' ? 'rounded-full' : 'rounded-lg';
  if (src && !failed) {
    return (
      <img
        src={src}
        alt=""
        onError={() => setFailed(true)}
        className={cn('shrink-0 object-cover', sizes[size], rounding, className)}
      />
    );
  }
  return (
    <span
      aria-hidden="true"
      className={cn(
        'inline-grid shrink-0 place-items-center bg-brand-100 font-semibold text-brand-800 dark:bg-brand-900/60 dark:text-brand-200',
        // "USER" is four letters: keep it inside the circle.
        fallback.length > 2 ? 'text-[0.6rem] tracking-tight' : textSizes[size],
        sizes[size],
        rounding,
        className,
      )}
    >
      {fallback}
    </span>
  );
}
