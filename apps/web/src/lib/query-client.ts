import { QueryClient } from '@tanstack/react-query';
import { isApiError } from './api-client.ts';

/** Client errors (4xx) will fail the same way again; others are retried up to 3 times (spec §8). */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (isApiError(error) && error.statusCode >= 400 && error.statusCode < 500) return false;
  return failureCount < 3;
}

/** The current user: a refused session (401/403) is an answer, not a failure; others retry up to 3 times. */
export function shouldRetryCurrentUser(failureCount: number, error: unknown): boolean {
  if (isApiError(error) && (error.statusCode === 401 || error.statusCode === 403)) return false;
  return failureCount < 3;
}

/** The sign-in portal's lookups: a 404 is an answer (unknown or not installed); others retry up to 3 times (spec §8). */
export function shouldRetryUnlessNotFound(failureCount: number, error: unknown): boolean {
  if (isApiError(error) && error.statusCode === 404) return false;
  return failureCount < 3;
}

/**
 * Changes are never paused for the network (TanStack's default `networkMode: 'online'` parks a
 * mutation while offline and sends it when the line returns, long after the user cancelled): they
 * run at once, the API client refuses them offline, and the form says so with its values kept.
 */
export const mutationDefaults = { retry: false, networkMode: 'always' } as const;

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetry },
      mutations: mutationDefaults,
    },
  });
}
