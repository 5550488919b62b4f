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

let early: Promise<CurrentUser | null> | undefined;

/**
 * Asks for the session at once, before the page that checks it has rendered: on a cold load of a
 * signed-in page, the question then travels beside the language's texts instead of after them
 * (one round trip fewer before the page shows). The first session check takes this answer.
 */
export function checkSessionEarly(): void {
  if (early) return;
  early = fetchCurrentUser();
  // A failure is the first check's to report (and retry); never an unhandled rejection here.
  early.catch(() => undefined);
}

/** The session question asked by `checkSessionEarly`, once: later checks ask the server again. */
export function takeEarlySessionCheck(): Promise<CurrentUser | null> | undefined {
  const answer = early;
  early = undefined;
  return answer;
}
