import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { BrowserRouter } from 'react-router';
import { AppToaster } from '../components/app-toaster.tsx';
import { FullScreenSpinner } from '../components/ui/full-screen-spinner.tsx';
import { AppRoutes } from './routes.tsx';

function PageLoading() {
  const { t } = useTranslation();
  return <FullScreenSpinner label={t('common.loading')} />;
}

/** Providers around the routes: server state, routing, toasts. */
export function App({ queryClient }: { queryClient: QueryClient }) {
  return (
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <Suspense fallback={<PageLoading />}>
          <AppRoutes />
        </Suspense>
      </BrowserRouter>
      <AppToaster />
    </QueryClientProvider>
  );
}
