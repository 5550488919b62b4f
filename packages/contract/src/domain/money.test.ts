import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyMoneyChange,
  convertMoney,
  formatMoney,
  formatMoneyInput,
  formatMoneyRange,
  maxMoneyMinorUnits,
  minorUnitDigits,
  parseMoneyInput,
} from './money.ts';

/** Intl separates the currency with a no-break space; the tests read it as a plain one. */
const plain = (text: string) => text.replace(/\u00a0/g, ' ');

describe('formatMoney', () => {
  it("formats minor units with the currency's own fraction digits", () => {
    expect(minorUnitDigits('EGP')).toBe(2);
    expect(minorUnitDigits('KWD')).toBe(3);
    expect(minorUnitDigits('JPY')).toBe(0);
    expect(plain(formatMoney(213_750, 'EGP', 'en'))).toBe('EGP 2,137.50');
    expect(plain(formatMoney(5, 'EGP', 'en'))).toBe('EGP 0.05');
    expect(plain(formatMoney(1_234_567, 'KWD', 'en'))).toBe('KWD 1,234.567');
    expect(plain(formatMoney(1500, 'JPY', 'en'))).toBe('¥1,500');
    expect(plain(formatMoney(-250, 'USD', 'en'))).toBe('-$2.50');
  });

  it('is exact for amounts a division by 100 would round', () => {
    expect(plain(formatMoney(900_719_925_474_099, 'USD', 'en'))).toBe('$9,007,199,254,740.99');
  });

  it('uses Arabic-Egypt digits and separators in Arabic', () => {
    expect(formatMoney(213_750, 'EGP', 'ar')).toContain('٢٬١٣٧٫٥٠');
  });
});

describe('formatMoneyRange', () => {
  it('names the currency once and spaces the dash', () => {
    expect(plain(formatMoneyRange(12_000, 18_000, 'EGP', 'en'))).toBe('EGP 120.00 – 180.00');
    expect(plain(formatMoneyRange(12_000, 12_000, 'EGP', 'en'))).toBe('EGP 120.00');
    expect(formatMoneyRange(12_000, 18_000, 'EGP', 'ar')).toContain('١٢٠٫٠٠ – ١٨٠٫٠٠');
  });
});

describe('parseMoneyInput', () => {
  it('reads Latin and Arabic-Indic digits, either decimal separator, and grouping', () => {
    expect(parseMoneyInput('12.5', 'EGP')).toEqual({ ok: true, minor: 1250 });
    expect(parseMoneyInput('١٢٫٥٠', 'EGP')).toEqual({ ok: true, minor: 1250 });
    expect(parseMoneyInput('۱۲', 'EGP')).toEqual({ ok: true, minor: 1200 });
    expect(parseMoneyInput(' 1,234.567 ', 'KWD')).toEqual({ ok: true, minor: 1_234_567 });
    expect(parseMoneyInput('١٬٢٠٠', 'JPY')).toEqual({ ok: true, minor: 1200 });
    expect(parseMoneyInput('.5', 'USD')).toEqual({ ok: true, minor: 50 });
    expect(parseMoneyInput('12.500', 'EGP')).toEqual({ ok: true, minor: 1250 });
    expect(parseMoneyInput('', 'EGP')).toEqual({ ok: true, minor: null });
  });

  it('refuses what is not an amount of the currency', () => {
    expect(parseMoneyInput('-3', 'EGP')).toEqual({ ok: false, code: 'MONEY_IS_NEGATIVE' });
    expect(parseMoneyInput('abc', 'EGP')).toEqual({ ok: false, code: 'MONEY_IS_INVALID' });
    expect(parseMoneyInput('1e3', 'EGP')).toEqual({ ok: false, code: 'MONEY_IS_INVALID' });
    expect(parseMoneyInput('1.2.3', 'EGP')).toEqual({ ok: false, code: 'MONEY_IS_INVALID' });
    expect(parseMoneyInput('12.505', 'EGP')).toEqual({ ok: false, code: 'MONEY_TOO_MANY_DECIMALS' });
    expect(parseMoneyInput('12.5', 'JPY')).toEqual({ ok: false, code: 'MONEY_TOO_MANY_DECIMALS' });
    expect(parseMoneyInput('10000000000000', 'EGP')).toEqual({ ok: false, code: 'MONEY_TOO_LARGE' });
  });

  it('reads back every amount formatMoneyInput shows, in both languages', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: maxMoneyMinorUnits }),
        fc.constantFrom('EGP', 'KWD', 'JPY', 'USD'),
        fc.constantFrom('en', 'ar'),
        (minor, currency, language) => {
          const shown = formatMoneyInput(minor, currency, language);
          expect(parseMoneyInput(shown, currency)).toEqual({ ok: true, minor });
        },
      ),
    );
  });
});

/** The exact half-up rounding of `numerator / denominator`, on rationals, for the properties. */
const halfUp = (numerator: bigint, denominator: bigint) =>
  (2n * numerator + denominator) / (2n * denominator);

describe('applyMoneyChange', () => {
  it('rounds a percentage half-up to the minor unit', () => {
    expect(applyMoneyChange(1005, { kind: 'percent', percent: 10 })).toEqual({ ok: true, minor: 1106 });
    expect(applyMoneyChange(1000, { kind: 'percent', percent: 12.5 })).toEqual({ ok: true, minor: 1125 });
    expect(applyMoneyChange(999, { kind: 'percent', percent: -50 })).toEqual({ ok: true, minor: 500 });
    expect(applyMoneyChange(1999, { kind: 'percent', percent: -100 })).toEqual({ ok: true, minor: 0 });
    // 1.15 × 100 is 114.99999999999999 in floats; the integers keep it 115.
    expect(applyMoneyChange(100, { kind: 'percent', percent: 15 })).toEqual({ ok: true, minor: 115 });
  });

  it('sets, adds and subtracts; refuses below zero or beyond the column', () => {
    expect(applyMoneyChange(500, { kind: 'set', amount: 1200 })).toEqual({ ok: true, minor: 1200 });
    expect(applyMoneyChange(500, { kind: 'add', amount: 250 })).toEqual({ ok: true, minor: 750 });
    expect(applyMoneyChange(500, { kind: 'subtract', amount: 600 })).toEqual({
      ok: false,
      code: 'MONEY_IS_NEGATIVE',
    });
    expect(applyMoneyChange(maxMoneyMinorUnits, { kind: 'add', amount: 1 })).toEqual({
      ok: false,
      code: 'MONEY_TOO_LARGE',
    });
    expect(applyMoneyChange(10, { kind: 'percent', percent: -150 })).toEqual({
      ok: false,
      code: 'MONEY_IS_NEGATIVE',
    });
  });

  it('is the exact half-up rounding of the rational result (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000_000 }),
        fc.integer({ min: -1_000_000, max: 10_000_000 }),
        (minor, tenThousandths) => {
          const percent = tenThousandths / 10_000;
          const outcome = applyMoneyChange(minor, { kind: 'percent', percent });
          const numerator = BigInt(minor) * BigInt(1_000_000 + tenThousandths);
          const exact = halfUp(numerator, 1_000_000n);
          // Half-up: the result is within half a minor unit, and a tie goes up.
          expect(outcome).toEqual({ ok: true, minor: Number(exact) });
          const twice = 2n * numerator;
          expect(twice >= (2n * exact - 1n) * 1_000_000n && twice < (2n * exact + 1n) * 1_000_000n).toBe(
            true,
          );
        },
      ),
    );
  });

  it('adds and subtracts back to the start (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e12 }), fc.integer({ min: 0, max: 1e12 }), (minor, amount) => {
        const added = applyMoneyChange(minor, { kind: 'add', amount });
        if (!added.ok) throw new Error('in range');
        expect(applyMoneyChange(added.minor, { kind: 'subtract', amount })).toEqual({ ok: true, minor });
      }),
    );
  });
});

describe('convertMoney', () => {
  it('re-scales to the new minor digits and rounds half-up', () => {
    // 1 USD is 48.5 EGP: EGP 100.00 → USD 2.0618… → 2.06.
    expect(convertMoney(10_000, 'EGP', 'USD', 48.5)).toBe(206);
    // 1 KWD is 157.3 EGP: EGP 1,000.00 → KWD 6.357279… → 6.357 (three digits).
    expect(convertMoney(100_000, 'EGP', 'KWD', 157.3)).toBe(6357);
    // 1 EGP is 3.07 JPY reversed: 1 JPY is 0.32573290 EGP → EGP 10.00 → JPY 30.7 → 31.
    expect(convertMoney(1000, 'EGP', 'JPY', 0.3257329)).toBe(31);
    expect(convertMoney(0, 'EGP', 'USD', 48.5)).toBe(0);
    expect(convertMoney(maxMoneyMinorUnits, 'USD', 'EGP', 0.01)).toBeNull();
  });

  it('is the exact half-up rounding at the stored rate (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1e12 }),
        fc.integer({ min: 1, max: 100_000_000_000 }),
        fc.constantFrom(['EGP', 'USD'], ['USD', 'KWD'], ['EGP', 'JPY'], ['JPY', 'KWD']),
        (minor, scaledRate, [from, to]) => {
          const rate = scaledRate / 1e8;
          const converted = convertMoney(minor, from as string, to as string, rate);
          const numerator = BigInt(minor) * 10n ** BigInt(minorUnitDigits(to as string)) * 100_000_000n;
          const denominator = 10n ** BigInt(minorUnitDigits(from as string)) * BigInt(scaledRate);
          const exact = halfUp(numerator, denominator);
          expect(converted).toBe(exact > BigInt(maxMoneyMinorUnits) ? null : Number(exact));
        },
      ),
    );
  });
});
