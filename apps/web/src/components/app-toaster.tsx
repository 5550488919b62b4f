import { Toaster } from 'react-hot-toast';

/**
 * Spec §9: 4 s by default, 2 s for success, loading until replaced. The limit of 20 toasts and
 * the 1 s removal delay are react-hot-toast's own constants.
 */
export function AppToaster() {
  return (
    <Toaster
      position="top-center"
      toastOptions={{
        duration: 4000,
        success: { duration: 2000 },
        loading: { duration: Number.POSITIVE_INFINITY },
        className:
          'rounded-xl! bg-white! text-sm! text-slate-900! shadow-lg! ring-1! ring-slate-200! dark:bg-slate-800! dark:text-slate-100! dark:ring-slate-700!',
      }}
    />
  );
}
