import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CurrencyRate, rebaseExchangeRates } from './exchange-rates.ts';

const byCurrency = (rates: readonly CurrencyRate[]) =>
  Object.fromEntries(rates.map((entry) => [entry.currency, entry.rate]));

/** Distinct currencies other than the old base EGP, each with a rate in a plausible range. */
const ratesArbitrary = fc
  .uniqueArray(fc.constantFrom('USD', 'EUR', 'SAR', 'AED', 'GBP', 'KWD', 'JPY', 'TRY'), {
    minLength: 1,
    maxLength: 8,
  })
  .chain((currencies) =>
    fc.tuple(
      fc.constant(currencies),
      fc.array(fc.double({ min: 0.01, max: 100, noNaN: true }), {
        minLength: currencies.length,
        maxLength: currencies.length,
      }),
    ),
  )
  .map(([currencies, values]) =>
    currencies.map((currency, index) => ({ currency, rate: Number((values[index] ?? 1).toFixed(8)) })),
  );

describe('rebaseExchangeRates', () => {
  it('converts through the new base: 1 USD = 50 EGP and 1 EUR = 55 EGP become 1 EUR = 1.1 USD and 1 EGP = 0.02 USD', () => {
    const outcome = rebaseExchangeRates(
      [
        { currency: 'USD', rate: 50 },
        { currency: 'EUR', rate: 55 },
      ],
      'EGP',
      'USD',
    );
    expect(outcome).toEqual({
      ok: true,
      rates: [
        { currency: 'EUR', rate: 1.1 },
        { currency: 'EGP', rate: 0.02 },
      ],
    });
  });

  it('changes nothing when the base stays, or when there are no rates', () => {
    const rates = [{ currency: 'USD', rate: 50 }];
    expect(rebaseExchangeRates(rates, 'EGP', 'EGP')).toEqual({ ok: true, rates });
    expect(rebaseExchangeRates([], 'EGP', 'USD')).toEqual({ ok: true, rates: [] });
  });

  it('refuses a new base that has no rate to convert through', () => {
    expect(rebaseExchangeRates([{ currency: 'USD', rate: 50 }], 'EGP', 'EUR')).toEqual({
      ok: false,
      code: 'BASE_CURRENCY_HAS_NO_RATE',
    });
  });

  it('refuses a conversion that would give a rate too small to store', () => {
    const outcome = rebaseExchangeRates(
      [
        { currency: 'USD', rate: 1_000_000 },
        { currency: 'EUR', rate: 0.001 },
      ],
      'EGP',
      'USD',
    );
    expect(outcome).toEqual({ ok: false, code: 'RATE_OUT_OF_RANGE' });
  });

  it('keeps one rate per currency: the new base leaves, the old base joins, the rest stay', () => {
    fc.assert(
      fc.property(ratesArbitrary, fc.nat(), (rates, pick) => {
        const newBase = (rates[pick % rates.length] as CurrencyRate).currency;
        const outcome = rebaseExchangeRates(rates, 'EGP', newBase);
        if (!outcome.ok) return;
        const currencies = outcome.rates.map((entry) => entry.currency);
        expect(new Set(currencies).size).toBe(currencies.length);
        expect(currencies).not.toContain(newBase);
        expect(currencies).toContain('EGP');
        expect(currencies.length).toBe(rates.length);
      }),
    );
  });

  it('comes back to the same rates when the base is changed back', () => {
    fc.assert(
      fc.property(ratesArbitrary, fc.nat(), (rates, pick) => {
        const newBase = (rates[pick % rates.length] as CurrencyRate).currency;
        const there = rebaseExchangeRates(rates, 'EGP', newBase);
        expect(there.ok).toBe(true);
        if (!there.ok) return;
        const back = rebaseExchangeRates(there.rates, newBase, 'EGP');
        expect(back.ok).toBe(true);
        if (!back.ok) return;
        const original = byCurrency(rates);
        const returned = byCurrency(back.rates);
        expect(Object.keys(returned).sort()).toEqual(Object.keys(original).sort());
        for (const [currency, rate] of Object.entries(original)) {
          expect(Math.abs((returned[currency] as number) / rate - 1)).toBeLessThan(1e-4);
        }
      }),
    );
  });
});
