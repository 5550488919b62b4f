import { cn } from '../lib/class-names.ts';

/** The product's mark: a shopping bag on the brand colour. */
export function BrandMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" className={cn('size-9 shrink-0', className)} aria-hidden="true">
      <rect width="32" height="32" rx="9" className="fill-brand-600 dark:fill-brand-500" />
      <path d="M9 13h14l-1.4 10.2a1.5 1.5 0 0 1-1.5 1.3h-8.2a1.5 1.5 0 0 1-1.5-1.3Z" fill="#fff" />
      <path d="M12.5 13a3.5 3.5 0 0 1 7 0" fill="none" stroke="#fff" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}
