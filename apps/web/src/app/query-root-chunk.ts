/** What the pages after the login page share: server state and the session check (one chunk). */
export { QueryRoot } from './query-root.tsx';
export { RequireAuth, SignedInGate } from './require-auth.tsx';
