import { QueryClientContext, QueryClientProvider } from '@tanstack/react-query';
import { useContext } from 'react';
import { Outlet } from 'react-router';
import { appQueryClient } from '../lib/app-query-client.ts';
import { setActiveQueryClient } from '../lib/query-client-handle.ts';

/**
 * Server state for every page under it: TanStack Query's code is a chunk of its own, so the login
 * page, which does without it, never downloads it. A client provided from outside (tests) is kept.
 */
export function QueryRoot() {
  const outer = useContext(QueryClientContext);
  const client = outer ?? appQueryClient;
  setActiveQueryClient(client);
  if (outer) return <Outlet />;
  return (
    <QueryClientProvider client={client}>
      <Outlet />
    </QueryClientProvider>
  );
}
