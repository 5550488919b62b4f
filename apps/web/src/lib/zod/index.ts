/**
 * `zod` as the web build resolves it (`vite.config.ts`): zod itself, configured first by
 * `./jitless.ts` — before any schema, the contract's included, is built.
 */
import './jitless.ts';

export * from 'zod/v4';
