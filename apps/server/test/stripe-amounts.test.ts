import { minorUnitDigits } from '@dukkan/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  fromStripeAmount,
  stripeCurrencyRule,
  toStripeAmount,
} from '../src/platform/payments/stripe-amounts.ts';

const threeDecimal = ['BHD', 'JOD', 'KWD', 'OMR', 'TND'];
const zeroDecimal = ['JPY', 'KRW', 'XOF', 'CLP', 'VND'];
const twoDecimal = ['EGP', 'SAR', 'AED', 'USD', 'EUR', 'TWD'];
const minor = fc.integer({ min: 0, max: 99_999_999_999 });

describe('Stripe amounts', () => {
  it('keeps the digits Dukkan stores each of these currencies with', () => {
    // The conversion assumes Intl's digits for these; a change in ICU would show here first.
    for (const code of threeDecimal) expect(minorUnitDigits(code), code).toBe(3);
    for (const code of zeroDecimal) expect(minorUnitDigits(code), code).toBe(0);
    for (const code of twoDecimal) expect(minorUnitDigits(code), code).toBe(2);
    // Whole units for Intl, two decimals for Stripe.
    for (const code of ['ISK', 'HUF']) expect(minorUnitDigits(code), code).toBe(0);
  });

  it('sends two-decimal and zero-decimal amounts as they are stored', () => {
    expect(toStripeAmount(213_750, 'EGP')).toEqual({ ok: true, amount: 213_750 });
    expect(toStripeAmount(500, 'JPY')).toEqual({ ok: true, amount: 500 });
    fc.assert(
      fc.property(minor, fc.constantFrom(...zeroDecimal, ...twoDecimal), (amount, currency) => {
        expect(toStripeAmount(amount, currency)).toEqual({ ok: true, amount });
        expect(fromStripeAmount(amount, currency)).toBe(amount);
      }),
    );
  });

  it('sends a three-decimal amount ending in 0, and refuses any other with the step 0.01', () => {
    expect(toStripeAmount(5_120, 'KWD')).toEqual({ ok: true, amount: 5_120 });
    expect(toStripeAmount(5_124, 'KWD')).toEqual({ ok: false, step: 0.01 });
    expect(stripeCurrencyRule('kwd')).toEqual({ digits: 3, step: 10 });
    fc.assert(
      fc.property(minor, fc.constantFrom(...threeDecimal), (amount, currency) => {
        const sent = toStripeAmount(amount, currency);
        if (amount % 10 === 0) expect(sent).toEqual({ ok: true, amount });
        else expect(sent).toEqual({ ok: false, step: 0.01 });
      }),
    );
  });

  it('sends whole forints in the two-decimal form Stripe keeps for HUF', () => {
    expect(toStripeAmount(1_500, 'HUF')).toEqual({ ok: true, amount: 150_000 });
    expect(fromStripeAmount(150_000, 'HUF')).toBe(1_500);
    expect(fromStripeAmount(150_050, 'HUF')).toBeNull();
  });

  it('sends whole krónur in the two-decimal form Stripe keeps for ISK', () => {
    expect(toStripeAmount(40, 'ISK')).toEqual({ ok: true, amount: 4_000 });
    expect(fromStripeAmount(4_000, 'ISK')).toBe(40);
    // A fractional króna reported back matches no invoice.
    expect(fromStripeAmount(4_010, 'ISK')).toBeNull();
  });

  it('reads back what it sent, for every currency Intl knows', () => {
    fc.assert(
      fc.property(minor, fc.constantFrom(...Intl.supportedValuesOf('currency')), (amount, currency) => {
        const sent = toStripeAmount(amount, currency);
        if (sent.ok) expect(fromStripeAmount(sent.amount, currency)).toBe(amount);
        // A refusal names a step the amount is not a multiple of.
        else
          expect(
            Math.round(amount * 10 ** -minorUnitDigits(currency) * 1e6) % Math.round(sent.step * 1e6),
          ).not.toBe(0);
      }),
    );
  });

  it('refuses what is not a whole, non-negative amount', () => {
    expect(toStripeAmount(-10, 'EGP').ok).toBe(false);
    expect(toStripeAmount(10.5, 'EGP').ok).toBe(false);
  });
});
