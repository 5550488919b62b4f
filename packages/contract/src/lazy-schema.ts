/**
 * Schemas built on first use. Every schema of the contract is declared as `lazySchema(() => …)`,
 * so importing the contract builds none: a page that only lists records (which reads a resource's
 * key, path, columns and permission) never runs zod, and the server builds each schema the first
 * time a request needs it. Building all of them at import took ~85 ms in Node and ~100 ms on a
 * phone-class CPU before the first signed-in page could render (README, "Design notes").
 *
 * The value is the schema itself, made at the first use: the factory's schema gives its kind and
 * definition, and zod's constructor initializes the value with them, as zod's own `clone` does.
 * A factory may use other lazy schemas: they are made as it reads them.
 */

let factoriesRunning = 0;
let schemasBuilt = 0;

/** Whether a `lazySchema` factory is building its schema now (for the contract's own test). */
export const isBuildingLazySchema = (): boolean => factoriesRunning > 0;
/** How many lazy schemas have been built so far (for the contract's own test). */
export const lazySchemasBuilt = (): number => schemasBuilt;

/** What a lazy schema reads of the schema its factory made: its constructor and definition. */
interface ZodInternals {
  _zod: {
    constr: { init: (instance: object, definition: unknown) => void };
    def: unknown;
    deferred?: (() => void)[];
  };
}

export function lazySchema<T extends object>(build: () => T): T {
  // The schema's own object: a plain object until the first use, then initialized by the built
  // schema's constructor with the built schema's definition (as zod's own `clone` makes a copy).
  // The initializer runs on the proxy, so every closure it installs captures the value the code
  // holds: one identity for the schema, as zod's JSON Schema conversion and registries expect.
  const target: object = {};
  let state: 'new' | 'building' | 'built' = 'new';
  const ready = (): object => {
    if (state === 'new') {
      state = 'building';
      factoriesRunning++;
      try {
        const made = build() as unknown as ZodInternals;
        Object.setPrototypeOf(target, Object.getPrototypeOf(made));
        made._zod.constr.init(proxy, made._zod.def);
        const internals = (proxy as ZodInternals)._zod;
        for (const deferred of internals.deferred ?? []) deferred();
        internals.deferred = undefined;
        schemasBuilt++;
        state = 'built';
      } finally {
        factoriesRunning--;
        // A factory that threw is tried again at the next use, and throws again, rather than
        // leaving a half-made schema behind.
        if (state !== 'built') {
          state = 'new';
          for (const key of Reflect.ownKeys(target)) Reflect.deleteProperty(target, key);
          Object.setPrototypeOf(target, Object.prototype);
        }
      }
    }
    return target;
  };
  const proxy: T = new Proxy(target as T, {
    get: (_target, key) => Reflect.get(ready(), key, proxy),
    set: (_target, key, value) => Reflect.set(ready(), key, value, proxy),
    has: (_target, key) => Reflect.has(ready(), key),
    defineProperty: (_target, key, descriptor) => Reflect.defineProperty(ready(), key, descriptor),
    deleteProperty: (_target, key) => Reflect.deleteProperty(ready(), key),
    ownKeys: () => Reflect.ownKeys(ready()),
    getOwnPropertyDescriptor: (_target, key) => Reflect.getOwnPropertyDescriptor(ready(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(ready()),
  });
  return proxy;
}
