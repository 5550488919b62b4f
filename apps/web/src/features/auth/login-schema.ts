/** The login schema alone, as a chunk the login page loads on demand (see `loginResolver`). */
// zod, and the contract's schemas' access to it, come with this chunk (`lib/zod/index.ts`).
import '../../lib/zod/index.ts';

export { loginInputSchema } from '@dukkan/contract';
