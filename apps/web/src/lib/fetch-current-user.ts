import type { CurrentUser } from '@dukkan/contract';
import { apiRequest, isApiError } from './api-client.ts';

/**
 * The signed-in user, or null when the session is missing or refused (401/403: never retried).
 * Its own module, without TanStack Query, so the login page can ask without loading it.
 */
export async function fetchCurrentUser(signal?: AbortSignal): Promise<CurrentUser | null> {
  try {
    return (await apiRequest<CurrentUser | null>('/auth/user', { signal })) ?? null;
  } catch (error) {
    if (isApiError(error) && (error.statusCode === 401 || error.statusCode === 403)) return null;
    throw error;
  }
}
