import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validationCodes as codes } from '../validation-codes.ts';
import { recipeLineInputSchema, recipeQuantityLimits } from './products.ts';

const line = (quantity: unknown) => ({
  ingredientProductId: '00000000-0000-4000-8000-000000000000',
  quantity,
});
const messages = (quantity: unknown) => {
  const result = recipeLineInputSchema.safeParse(line(quantity));
  return result.success ? [] : result.error.issues.map((issue) => [issue.path.join('.'), issue.message]);
};

/** The largest number below 10^12 (JavaScript writes it 999999999999.9999). */
const largest = 1e12 - 2 ** -13;

describe('a recipe quantity: what its column, numeric(18, 6) and above 0, keeps', () => {
  it('takes one millionth up to the last number under 10^12', () => {
    expect(recipeQuantityLimits).toEqual({ min: 0.000001, below: 1e12 });
    for (const quantity of [0.000001, 0.5, 1, 12.345678, largest, '٠٫٠٠٠٠٠١'])
      expect(messages(quantity), String(quantity)).toEqual([]);
    expect(String(largest)).toBe('999999999999.9999');
  });

  it('refuses less than one millionth (it would round to 0) and 10^12 or more (it would overflow)', () => {
    for (const quantity of [0.0000009999, 0.0000005, 0.0000001, Number.MIN_VALUE])
      expect(messages(quantity), String(quantity)).toEqual([['quantity', codes.QUANTITY_TOO_SMALL]]);
    for (const quantity of [1e12, 1e12 + 1, 1e15, '1000000000000'])
      expect(messages(quantity), String(quantity)).toEqual([['quantity', codes.QUANTITY_TOO_LARGE]]);
    for (const quantity of [0, -0.000001, -1])
      expect(messages(quantity), String(quantity)).toEqual([['quantity', codes.QUANTITY_MUST_BE_POSITIVE]]);
  });

  it('property: a quantity is taken exactly when it is at least one millionth and under 10^12', () => {
    fc.assert(
      fc.property(fc.double({ min: -1e13, max: 1e13, noNaN: true }), (quantity) => {
        const kept = quantity >= 0.000001 && quantity < 1e12;
        expect(messages(quantity).length === 0).toBe(kept);
      }),
    );
  });
});
