import { Spinner } from './spinner.tsx';

/** The whole-page loading state (session check, first load of a lazy screen). */
export function FullScreenSpinner({ label }: { label: string }) {
  return (
    <div
      role="status"
      aria-live="polite"
      className="grid min-h-dvh place-items-center text-brand-600 dark:text-brand-400"
    >
      <Spinner className="size-8" />
      <span className="sr-only">{label}</span>
    </div>
  );
}
