import { describe, expect, it, vi } from 'vitest';

// The contract as the browser build has it: its `zod` is the stand-in (`vite.config.ts`).
vi.mock('zod', () => import('./contract-zod.ts'));

/** Every zod schema reachable from the contract's exports (its resources' schemas among them). */
function schemasIn(
  value: unknown,
  found = new Set<object>(),
  seen = new Set<unknown>(),
  depth = 0,
): Set<object> {
  if (typeof value !== 'object' || value === null || seen.has(value) || depth > 4) return found;
  seen.add(value);
  // A lazy schema builds itself here (`'_zod' in` asks its proxy), as a form's first check would.
  if ('_zod' in value) {
    found.add(value);
    return found;
  }
  for (const entry of Object.values(value)) schemasIn(entry, found, seen, depth + 1);
  return found;
}

describe("the contract's zod in the browser", () => {
  it('refuses, naming the cause, to build a schema before zod has loaded', async () => {
    const { brandsResource } = await import('@dukkan/contract');
    expect(() => brandsResource.schemas.create.parse({})).toThrow(/before zod loaded/);
  });

  it('builds and checks every contract schema once the app has loaded zod', async () => {
    await import('./index.ts');
    const contract = await import('@dukkan/contract');
    // A schema that reaches for a member of zod the app does not hand over fails here.
    const schemas = schemasIn(Object.values(contract));
    expect(schemas.size).toBeGreaterThan(100);
    const created = contract.brandsResource.schemas.create.parse({
      code: 'B1',
      name: [{ locale: 'en', value: 'Brand' }],
    });
    expect(created.code).toBe('B1');
    expect(contract.brandsResource.schemas.create.safeParse({ code: '' }).success).toBe(false);
  });
});
