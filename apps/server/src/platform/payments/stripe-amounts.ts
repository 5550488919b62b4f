import { minorUnitDigits } from '@dukkan/contract';

/*
 * Amounts as Stripe's API takes them (decision 0044). Dukkan stores an invoice in whole minor units
 * of its application's currency, any ISO 4217 code, with the digits Intl gives it
 * (`minorUnitDigits`: 2 for EGP, 3 for KWD, 0 for JPY and ISK). Stripe counts in its own unit
 * per currency, which is not always that one:
 * - zero-decimal currencies (JPY, KRW, XOF…) are whole units, as Dukkan's;
 * - the five three-decimal currencies (BHD, JOD, KWD, OMR, TND) are thousandths, as Dukkan's, but
 *   Stripe's card partners take only amounts whose last digit is 0 (KWD 5.124 cannot be charged);
 * - ISK stays two-decimal in the API but is charged in whole krónur only: Dukkan's 40 ISK is
 *   Stripe's 4000;
 * - every other currency is two-decimal, even where Intl has none (HUF: Dukkan's 1500 HUF is
 *   Stripe's 150000).
 * An amount that does not convert exactly, or is not a multiple of Stripe's step, is refused
 * here, before anything is sent: Stripe would refuse it, or charge another amount.
 */

/** Stripe's zero-decimal currencies (its "Supported currencies" page). */
const zeroDecimal: ReadonlySet<string> = new Set([
  'BIF',
  'CLP',
  'DJF',
  'GNF',
  'JPY',
  'KMF',
  'KRW',
  'MGA',
  'PYG',
  'RWF',
  'UGX',
  'VND',
  'VUV',
  'XAF',
  'XOF',
  'XPF',
]);

/** Stripe's three-decimal currencies, whose amounts must end in 0. */
const threeDecimal: ReadonlySet<string> = new Set(['BHD', 'JOD', 'KWD', 'OMR', 'TND']);

/** How Stripe counts a currency: its unit's digits, and the step every amount is a multiple of. */
export function stripeCurrencyRule(currency: string): { digits: number; step: number } {
  const code = currency.toUpperCase();
  if (zeroDecimal.has(code)) return { digits: 0, step: 1 };
  if (threeDecimal.has(code)) return { digits: 3, step: 10 };
  if (code === 'ISK') return { digits: 2, step: 100 };
  return { digits: 2, step: 1 };
}

export type StripeAmount =
  | { ok: true; amount: number }
  /** `step`: the smallest amount Stripe can charge in steps of, in major units of the currency (0.01 KWD). */
  | { ok: false; step: number };

/**
 * An invoice's amount (Dukkan's minor units of `currency`) as Stripe's `unit_amount`, or the
 * refusal of an amount Stripe cannot charge exactly.
 */
export function toStripeAmount(minor: number, currency: string): StripeAmount {
  const ours = minorUnitDigits(currency);
  const rule = stripeCurrencyRule(currency);
  const step = (rule.step * 10 ** -rule.digits).toFixed(Math.max(rule.digits, ours));
  const refused = { ok: false as const, step: Number(step) };
  if (!Number.isSafeInteger(minor) || minor < 0) return refused;
  let amount: number;
  if (rule.digits >= ours) amount = minor * 10 ** (rule.digits - ours);
  else {
    const factor = 10 ** (ours - rule.digits);
    if (minor % factor !== 0) return refused;
    amount = minor / factor;
  }
  if (!Number.isSafeInteger(amount) || amount % rule.step !== 0) return refused;
  return { ok: true, amount };
}

/**
 * An amount Stripe reports (`amount_total`, its unit) in Dukkan's minor units of `currency`, or
 * null when it has no exact equivalent (then it matches no invoice).
 */
export function fromStripeAmount(amount: number, currency: string): number | null {
  const ours = minorUnitDigits(currency);
  const { digits } = stripeCurrencyRule(currency);
  if (!Number.isSafeInteger(amount)) return null;
  if (ours >= digits) return amount * 10 ** (ours - digits);
  const factor = 10 ** (digits - ours);
  return amount % factor === 0 ? amount / factor : null;
}
