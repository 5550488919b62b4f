import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { listboxKeyTarget } from './listbox-keys.ts';

describe('listboxKeyTarget', () => {
  it('moves by one, by ten and to the ends, and chooses on Enter', () => {
    expect(listboxKeyTarget('ArrowDown', false, 2, 30)).toBe(3);
    expect(listboxKeyTarget('ArrowUp', false, 2, 30)).toBe(1);
    expect(listboxKeyTarget('PageDown', false, 2, 30)).toBe(12);
    expect(listboxKeyTarget('PageUp', false, 12, 30)).toBe(2);
    expect(listboxKeyTarget('Home', true, 12, 30)).toBe(0);
    expect(listboxKeyTarget('End', true, 12, 30)).toBe(29);
    expect(listboxKeyTarget('Enter', false, 12, 30)).toBe('choose');
  });

  it('leaves other keys, and Home/End without Ctrl, to the search box', () => {
    expect(listboxKeyTarget('a', false, 0, 30)).toBeUndefined();
    expect(listboxKeyTarget('Home', false, 5, 30)).toBeUndefined();
    expect(listboxKeyTarget('End', false, 5, 30)).toBeUndefined();
  });

  it('never leaves the list, an empty one included', () => {
    const keys = ['ArrowDown', 'ArrowUp', 'PageDown', 'PageUp', 'Home', 'End'];
    fc.assert(
      fc.property(fc.constantFrom(...keys), fc.nat(50), fc.nat(50), (key, count, at) => {
        const active = Math.min(at, Math.max(count - 1, 0));
        const target = listboxKeyTarget(key, true, active, count);
        expect(typeof target).toBe('number');
        expect(target).toBeGreaterThanOrEqual(0);
        expect(target).toBeLessThanOrEqual(Math.max(count - 1, 0));
      }),
    );
  });
});
