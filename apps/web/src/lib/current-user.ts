import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from './api-client.ts';
import { fetchCurrentUser } from './fetch-current-user.ts';
import { shouldRetryCurrentUser } from './query-client.ts';
import { queryKeys } from './query-keys.ts';

/** Fresh for 5 minutes, refetched on focus and reconnect (spec §7, §9). */
const currentUserQueryOptions = queryOptions({
  queryKey: queryKeys.currentUser,
  queryFn: ({ signal }) => fetchCurrentUser(signal),
  staleTime: 300_000,
  refetchOnWindowFocus: true,
  refetchOnReconnect: true,
  retry: shouldRetryCurrentUser,
});

export function useCurrentUser() {
  return useQuery(currentUserQueryOptions);
}

/**
 * Ends the session (`GET auth/logout`) and forgets every cached answer: the user query then holds
 * null, so whatever needs a session sends the visitor to sign in.
 */
export async function signOut(queryClient: QueryClient): Promise<void> {
  try {
    await apiRequest('/auth/logout');
  } catch {
    // Even if the server cannot be reached, this browser forgets the user.
  }
  queryClient.clear();
  queryClient.setQueryData(queryKeys.currentUser, null);
}
