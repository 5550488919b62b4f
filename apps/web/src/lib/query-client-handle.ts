import type { QueryClient } from '@tanstack/react-query';

let active: QueryClient | undefined;

/**
 * The query client the mounted app uses, once its code has loaded (`app/query-root.tsx` sets it).
 * The login page is shown without TanStack Query; after signing in it hands the user to this
 * client (loading the default one if none is mounted yet).
 */
export async function activeQueryClient(): Promise<QueryClient> {
  if (active) return active;
  return (await import('./app-query-client.ts')).appQueryClient;
}

export function setActiveQueryClient(client: QueryClient) {
  active = client;
}
