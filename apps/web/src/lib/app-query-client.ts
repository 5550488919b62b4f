import { createQueryClient } from './query-client.ts';

/** The app's server state, created with the first page that needs it (the login page does not). */
export const appQueryClient = createQueryClient();
