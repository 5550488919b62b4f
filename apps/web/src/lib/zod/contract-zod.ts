import type { z as Zod } from 'zod/v4';

/**
 * `zod` as the web build resolves it for the contract (`vite.config.ts`): a stand-in whose
 * members are zod's own once the app's zod (`./index.ts`) has loaded, which every module that
 * builds or checks a schema imports first (a form's resolver, `./resolver.ts`).
 *
 * The contract builds each schema on first use (`lazySchema`), never at import, so the pages that
 * only list records can show without downloading zod: ~22 KB of the server-state chunk that every
 * signed-in page waited for. A schema built before zod has loaded fails here, loudly, naming the
 * cause, instead of somewhere inside zod.
 */
let provided: Readonly<Record<string, unknown>> | undefined;

/** Called once by `./index.ts` with the members of zod the contract uses. */
export function provideZod(members: Readonly<Record<string, unknown>>): void {
  provided = members;
}

export const z = new Proxy(
  {},
  {
    get(_target, member) {
      if (typeof member !== 'string') return undefined;
      if (!provided)
        throw new Error(
          `A contract schema was built (z.${member}) before zod loaded: import the form's resolver from lib/zod/resolver.ts, or lib/zod/index.ts, first.`,
        );
      if (!(member in provided))
        throw new Error(
          `z.${member} is not among the zod members the browser provides to the contract (lib/zod/index.ts).`,
        );
      return provided[member];
    },
  },
) as typeof Zod;
