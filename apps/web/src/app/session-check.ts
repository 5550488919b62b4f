import { appQueryClient } from '../lib/app-query-client.ts';
import { currentUserQueryOptions } from '../lib/current-user.ts';

/**
 * Asks for the signed-in user into the app's query cache at once, so the answer travels while the
 * language and the page's scripts load instead of after the first render (`main.tsx`); the session
 * check (`require-auth.tsx`) then finds it there, or still on its way, and does not ask twice.
 */
export function checkSession(): void {
  appQueryClient.prefetchQuery(currentUserQueryOptions).catch(() => undefined);
}
