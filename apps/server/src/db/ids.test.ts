import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { timeOfId, timeOrderedId } from './ids.ts';

describe('timeOrderedId', () => {
  const millisecond = fc.integer({ min: 0, max: 2 ** 48 - 1 });

  it('is a version 7 UUID with the milliseconds in its first 48 bits, valid for the API', () => {
    fc.assert(
      fc.property(millisecond, (now) => {
        const id = timeOrderedId(now);
        expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
        expect(timeOfId(id)).toBe(now);
        expect(z.uuid().safeParse(id).success).toBe(true);
      }),
    );
  });

  it('sorts an id made later after one made earlier (as text; PostgreSQL compares uuids byte by byte)', () => {
    fc.assert(
      fc.property(millisecond, millisecond, (a, b) => {
        fc.pre(a !== b);
        const [earlier, later] = a < b ? [a, b] : [b, a];
        expect(timeOrderedId(earlier) < timeOrderedId(later)).toBe(true);
      }),
    );
  });

  it('differs from call to call within one millisecond', () => {
    const ids = new Set(Array.from({ length: 1_000 }, () => timeOrderedId(1_764_547_200_000)));
    expect(ids.size).toBe(1_000);
  });
});
