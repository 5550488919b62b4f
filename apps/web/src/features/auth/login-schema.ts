/** The login schema alone, as a chunk the login page loads on demand (see `loginResolver`). */
export { loginInputSchema } from '@dukkan/contract';
