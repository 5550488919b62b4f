import type { CurrentUser } from '@dukkan/contract';
import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest, isApiError } from './api-client.ts';
import { shouldRetryCurrentUser } from './query-client.ts';
import { queryKeys } from './query-keys.ts';

/** The signed-in user, or null when the session is missing or refused (401/403: never retried). */
export async function fetchCurrentUser(signal?: AbortSignal): Promise<CurrentUser | null> {
  try {
    return await apiRequest<CurrentUser>('/auth/user', { signal });
  } catch (error) {
    if (isApiError(error) && (error.statusCode === 401 || error.statusCode === 403)) return null;
    throw error;
  }
}

/** Fresh for 5 minutes, refetched on focus and reconnect (spec §7, §9). */
export const currentUserQueryOptions = queryOptions({
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
