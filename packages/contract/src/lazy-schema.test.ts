import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { isBuildingLazySchema, lazySchema, lazySchemasBuilt } from './lazy-schema.ts';

// zod as the contract sees it, counting each schema made outside a `lazySchema` factory.
const eagerBuilds: string[] = [];
vi.mock('zod', async (importOriginal) => {
  const actual = await importOriginal<typeof import('zod')>();
  const counted = new Proxy(actual.z, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      // The factories (`z.string`, `z.object`…), not the classes (`z.ZodObject`).
      if (typeof value !== 'function' || !/^[a-z]/.test(String(key))) return value;
      return (...args: unknown[]) => {
        if (!isBuildingLazySchema()) eagerBuilds.push(String(key));
        return (value as (...args: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { ...actual, z: counted };
});

describe('lazySchema', () => {
  it('builds its schema once, at the first use, and stands in for it', () => {
    const build = vi.fn(() => z.object({ code: z.string().min(2) }));
    const schema = lazySchema(build);
    expect(build).not.toHaveBeenCalled();
    expect(schema.parse({ code: 'AB' })).toEqual({ code: 'AB' });
    expect(schema.safeParse({ code: 'A' }).success).toBe(false);
    expect(Object.keys(schema.shape)).toEqual(['code']);
    expect(schema instanceof z.ZodObject).toBe(true);
    expect(schema.partial().parse({})).toEqual({});
    expect(z.object({ inner: schema }).parse({ inner: { code: 'XY' } })).toEqual({ inner: { code: 'XY' } });
    expect({ ...schema.extend({ more: z.number() }).shape }).toHaveProperty('more');
    expect(build).toHaveBeenCalledTimes(1);
  });
  it('throws at each use while its factory throws, never handing out a half-made schema', () => {
    let attempts = 0;
    const schema = lazySchema(() => {
      attempts++;
      if (attempts < 3) throw new Error(`attempt ${attempts}`);
      return z.string();
    });
    expect(() => schema.parse('a')).toThrow('attempt 1');
    expect(() => schema.parse('a')).toThrow('attempt 2');
    expect(schema.parse('a')).toBe('a');
    expect(isBuildingLazySchema()).toBe(false);
  });
});

describe('the contract', () => {
  it('builds no schema when it is imported', async () => {
    // The first import of the contract in this file (its modules load here, not before).
    eagerBuilds.length = 0;
    const builtBefore = lazySchemasBuilt();
    const contract = await import('./index.ts');
    expect(contract.resources.length).toBeGreaterThan(10);
    expect(eagerBuilds).toEqual([]);
    expect(lazySchemasBuilt()).toBe(builtBefore);
    // The count is real: using a schema builds it (and counts nothing, inside its factory).
    contract.brandsResource.schemas.create.parse({ code: 'B1', name: [{ locale: 'en', value: 'Brand' }] });
    z.string();
    expect(eagerBuilds).toEqual(['string']);
    expect(lazySchemasBuilt()).toBeGreaterThan(builtBefore + 3);
  });

  it('declares every registered resource consistently', async () => {
    const { checkResource, resources } = await import('./index.ts');
    for (const definition of resources) expect(() => checkResource(definition), definition.key).not.toThrow();
  });
});
