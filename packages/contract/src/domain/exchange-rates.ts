/**
 * A workspace's exchange rates are against its base currency: 1 unit of `currency` is `rate`
 * units of the base. Changing the base converts them through the new base's own rate.
 */
export interface CurrencyRate {
  currency: string;
  rate: number;
}

/** What a stored rate can be: the column keeps 8 decimals, so a smaller rate would be stored as 0. */
export const exchangeRateLimits = { min: 0.000_000_01, max: 1_000_000_000 } as const;

export type RebaseOutcome =
  | { ok: true; rates: CurrencyRate[] }
  /**
   * `BASE_CURRENCY_HAS_NO_RATE`: there are rates, but none for the new base to convert them
   * through. `RATE_OUT_OF_RANGE`: a converted rate would fall outside `exchangeRateLimits`.
   */
  | { ok: false; code: 'BASE_CURRENCY_HAS_NO_RATE' | 'RATE_OUT_OF_RANGE' };

const roundRate = (rate: number) => Number(rate.toFixed(8));

/**
 * The rates against `newBase` equal to `rates` against `oldBase`: every other currency's rate
 * divided by the new base's, and the old base given the new base's inverse; the new base has none
 * (its rate is always 1). Nothing to convert when the base stays or there are no rates.
 */
export function rebaseExchangeRates(
  rates: readonly CurrencyRate[],
  oldBase: string,
  newBase: string,
): RebaseOutcome {
  if (oldBase === newBase || rates.length === 0) return { ok: true, rates: [...rates] };
  const pivot = rates.find((entry) => entry.currency === newBase);
  if (!pivot) return { ok: false, code: 'BASE_CURRENCY_HAS_NO_RATE' };
  const converted = rates
    .filter((entry) => entry.currency !== newBase && entry.currency !== oldBase)
    .map((entry) => ({ currency: entry.currency, rate: roundRate(entry.rate / pivot.rate) }));
  converted.push({ currency: oldBase, rate: roundRate(1 / pivot.rate) });
  const inRange = converted.every(
    (entry) => entry.rate >= exchangeRateLimits.min && entry.rate <= exchangeRateLimits.max,
  );
  return inRange ? { ok: true, rates: converted } : { ok: false, code: 'RATE_OUT_OF_RANGE' };
}
