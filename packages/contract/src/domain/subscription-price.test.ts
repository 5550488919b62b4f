import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type PlanLength, periodPrice, planLengths, planMonths } from './subscription-price.ts';

const price = (
  monthlyPricePerLocation: number,
  activeLocations: number,
  plan: PlanLength,
  discountBasisPoints = 0,
) => periodPrice({ monthlyPricePerLocation, activeLocations, plan, discountBasisPoints });

describe('periodPrice', () => {
  it('each plan length: price per location per month × locations × months × (1 − discount)', () => {
    // 25.00 per location per month, 3 locations.
    expect(price(2500, 3, 'monthly')).toBe(7_500);
    expect(price(2500, 3, 'quarterly', 500)).toBe(21_375); // 22,500 less 5 %
    expect(price(2500, 3, 'semiannually', 1_000)).toBe(40_500); // 45,000 less 10 %
    expect(price(2500, 3, 'annually', 2_000)).toBe(72_000); // 90,000 less 20 %
  });

  it('a workspace without active locations pays for one', () => {
    expect(price(999, 0, 'monthly')).toBe(999);
    expect(price(999, 1, 'monthly')).toBe(999);
  });

  it('rounds half up to the minor unit', () => {
    // 1 × 1 × 1 × (1 − 0.5) = 0.5 → 1; 3 × 0.75 = 2.25 → 2; 1 × 0.25 = 0.25 → 0; 5 × 0.9 = 4.5 → 5.
    expect(price(1, 1, 'monthly', 5_000)).toBe(1);
    expect(price(3, 1, 'monthly', 2_500)).toBe(2);
    expect(price(1, 1, 'monthly', 7_500)).toBe(0);
    expect(price(5, 1, 'monthly', 1_000)).toBe(5);
    expect(price(15, 1, 'monthly', 1_000)).toBe(14); // 13.5 → 14
  });

  it('is the exact price rounded half up: within half a minor unit, a half going up', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.integer({ min: 0, max: 5_000 }),
        fc.constantFrom(...planLengths),
        fc.integer({ min: 0, max: 10_000 }),
        (monthly, locations, plan, discount) => {
          // The exact price is numerator / 10,000 minor units.
          const numerator =
            BigInt(monthly) *
            BigInt(Math.max(1, locations)) *
            BigInt(planMonths[plan]) *
            BigInt(10_000 - discount);
          const result = BigInt(price(monthly, locations, plan, discount));
          // -1/2 < result − exact ≤ 1/2, scaled by 20,000.
          const difference = 20_000n * result - 2n * numerator;
          expect(difference > -10_000n && difference <= 10_000n).toBe(true);
        },
      ),
    );
  });

  it('without a discount the price is the whole product; a full discount makes it nothing', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.integer({ min: 1, max: 500 }),
        (monthly, locations) => {
          for (const plan of planLengths)
            expect(price(monthly, locations, plan)).toBe(monthly * locations * planMonths[plan]);
          expect(price(monthly, locations, 'annually', 10_000)).toBe(0);
        },
      ),
    );
  });

  it('refuses fractions, negatives, a discount past 100 % and a price past the safe integers', () => {
    expect(() => price(10.5, 1, 'monthly')).toThrow(RangeError);
    expect(() => price(-1, 1, 'monthly')).toThrow(RangeError);
    expect(() => price(10, -1, 'monthly')).toThrow(RangeError);
    expect(() => price(10, 1.5, 'monthly')).toThrow(RangeError);
    expect(() => price(10, 1, 'monthly', 10_001)).toThrow(RangeError);
    expect(() => price(10, 1, 'monthly', -5)).toThrow(RangeError);
    expect(() => price(10, 1, 'weekly' as PlanLength)).toThrow(RangeError);
    expect(() => price(Number.MAX_SAFE_INTEGER, 2, 'annually')).toThrow(RangeError);
  });
});
