import { numberFormat } from './format.ts';
import { toLatinDigits } from './normalize-input.ts';

/*
 * Money is an integer of a currency's minor units (piastres, fils, cents), never a float: typed,
 * stored, changed in bulk and converted between currencies as integers, rounded half-up to the
 * minor unit where a change or a rate makes a fraction of one.
 */

/** The digits after the decimal point of a currency's minor unit: 2 for EGP, 3 for KWD, 0 for JPY. */
export function minorUnitDigits(currency: string): number {
  return numberFormat('en', { style: 'currency', currency }).resolvedOptions()
    .maximumFractionDigits as number;
}

/**
 * The most a price or cost column keeps, in minor units: fifteen digits, below 2^53 so every
 * amount is exact as a JavaScript number (EGP 9,999,999,999,999.99).
 */
export const maxMoneyMinorUnits = 999_999_999_999_999;

/** An integer of minor units as an exact decimal text in major units: 213750, 2 digits → '2137.50'. */
function majorUnits(minor: number, digits: number): `${number}` {
  const sign = minor < 0 ? '-' : '';
  const text = String(Math.abs(Math.trunc(minor))).padStart(digits + 1, '0');
  const whole = text.slice(0, text.length - digits);
  return (digits > 0 ? `${sign}${whole}.${text.slice(-digits)}` : `${sign}${whole}`) as `${number}`;
}

/** The reader's format of amounts in `currency`, with exactly its `digits` fraction digits. */
const currencyFormat = (language: string, currency: string, digits: number) =>
  numberFormat(language, {
    style: 'currency',
    currency,
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });

/**
 * An amount of integer minor units in the reader's language (ar → ar-EG, else en-US), with the
 * currency's own fraction digits: 213750 EGP → 'EGP 2,137.50' / '‏٢٬١٣٧٫٥٠ ج.م.‏'. Formatted from
 * a decimal text, not a division, so no amount is ever rounded on its way to the screen.
 */
export function formatMoney(minor: number, currency: string, language: string): string {
  const digits = minorUnitDigits(currency);
  return currencyFormat(language, currency, digits).format(majorUnits(minor, digits));
}

/**
 * A range of amounts as a list shows it: one amount when both ends are equal ('EGP 120.00'),
 * else both with an en dash ('EGP 120.00 – 180.00'), the currency named once.
 */
export function formatMoneyRange(min: number, max: number, currency: string, language: string): string {
  if (min === max) return formatMoney(min, currency, language);
  const digits = minorUnitDigits(currency);
  return currencyFormat(language, currency, digits)
    .formatRange(majorUnits(min, digits), majorUnits(max, digits))
    .replace(/\s*\u2013\s*/, ' \u2013 ');
}

/**
 * An amount as an input shows it for editing: the member's digits and decimal separator, no
 * grouping and no currency (12.50 / ١٢٫٥٠), so what is shown is what `parseMoneyInput` reads back.
 */
export function formatMoneyInput(minor: number, currency: string, language: string): string {
  const digits = minorUnitDigits(currency);
  return numberFormat(language, {
    useGrouping: false,
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(majorUnits(minor, digits));
}

export type MoneyInputIssue =
  | 'MONEY_IS_INVALID'
  | 'MONEY_IS_NEGATIVE'
  | 'MONEY_TOO_MANY_DECIMALS'
  | 'MONEY_TOO_LARGE';
export type MoneyInput = { ok: true; minor: number | null } | { ok: false; code: MoneyInputIssue };

// Grouping as typed or pasted: commas, the Arabic thousands separator, spaces (no-break and
// narrow ones from a spreadsheet), apostrophes, and the bidi marks copied from Arabic text.
const grouping = /[,\u066c\s'\u2019\u200e\u200f\u061c\u2066-\u2069]/gu;
const decimalText = /^(\d+)(?:\.(\d*))?$|^\.(\d+)$/;

/**
 * What a member typed in a money field, as minor units of `currency`: Latin or Arabic-Indic
 * digits, a dot or the Arabic decimal separator `٫` (`١٢٫٥٠` is 12.50), grouping ignored. Empty
 * is `null` (no amount). Refused: a minus sign, anything not a number, more decimals than the
 * currency's minor unit has (12.505 EGP), and more than `maxMoneyMinorUnits`.
 */
export function parseMoneyInput(text: string, currency: string): MoneyInput {
  const normalized = toLatinDigits(text)
    .replace(grouping, '')
    .replace(/\u066b/g, '.');
  if (normalized === '') return { ok: true, minor: null };
  if (/^[-\u2212]/.test(normalized)) {
    return decimalText.test(normalized.slice(1))
      ? { ok: false, code: 'MONEY_IS_NEGATIVE' }
      : { ok: false, code: 'MONEY_IS_INVALID' };
  }
  const match = decimalText.exec(normalized.replace(/^\+/, ''));
  if (!match) return { ok: false, code: 'MONEY_IS_INVALID' };
  const whole = match[1] ?? '0';
  const fraction = (match[2] ?? match[3] ?? '').replace(/0+$/, '');
  const digits = minorUnitDigits(currency);
  if (fraction.length > digits) return { ok: false, code: 'MONEY_TOO_MANY_DECIMALS' };
  const minor = BigInt(whole) * 10n ** BigInt(digits) + BigInt(fraction.padEnd(digits, '0') || '0');
  if (minor > BigInt(maxMoneyMinorUnits)) return { ok: false, code: 'MONEY_TOO_LARGE' };
  return { ok: true, minor: Number(minor) };
}

/** `numerator / denominator` of non-negative integers, rounded half-up to an integer. */
function divideHalfUp(numerator: bigint, denominator: bigint): bigint {
  return (2n * numerator + denominator) / (2n * denominator);
}

/** A bulk change of many amounts at once: set to, add, subtract, or change by a percentage. */
export type MoneyChange =
  | { kind: 'set'; amount: number }
  | { kind: 'add'; amount: number }
  | { kind: 'subtract'; amount: number }
  /** `percent` from -100 (free) up, at most 4 decimals: 10 is +10 %, -12.5 is −12.5 %. */
  | { kind: 'percent'; percent: number };

export type MoneyChangeOutcome =
  | { ok: true; minor: number }
  | { ok: false; code: 'MONEY_IS_NEGATIVE' | 'MONEY_TOO_LARGE' };

/** Percentages keep four decimals: 12.3456 % is 123,456 parts in ten million. */
const percentScale = 10_000n;

/**
 * One amount after a bulk change, in minor units; a percentage rounded half-up to the minor unit
 * (1,005 + 10 % = 1,105.5 → 1,106), computed on integers so no float ever rounds it. Refused when
 * the result would fall below zero or above `maxMoneyMinorUnits`.
 */
export function applyMoneyChange(minor: number, change: MoneyChange): MoneyChangeOutcome {
  let next: bigint;
  if (change.kind === 'set') next = BigInt(change.amount);
  else if (change.kind === 'add') next = BigInt(minor) + BigInt(change.amount);
  else if (change.kind === 'subtract') next = BigInt(minor) - BigInt(change.amount);
  else {
    const factor = 100n * percentScale + BigInt(Math.round(change.percent * Number(percentScale)));
    if (factor < 0n) return { ok: false, code: 'MONEY_IS_NEGATIVE' };
    next = divideHalfUp(BigInt(minor) * factor, 100n * percentScale);
  }
  if (next < 0n) return { ok: false, code: 'MONEY_IS_NEGATIVE' };
  if (next > BigInt(maxMoneyMinorUnits)) return { ok: false, code: 'MONEY_TOO_LARGE' };
  return { ok: true, minor: Number(next) };
}

/** Exchange rates keep eight decimals (`exchangeRateLimits`); a rate is read at that scale. */
const rateScale = 100_000_000n;

/**
 * An amount in `from` converted to `to`, where `rate` is how many units of `from` one unit of
 * `to` is worth (the workspace's rate for the new base, against the old one): minor units
 * re-scaled to the new currency's minor digits and rounded half-up (EGP 100.00 at 48.5 per USD →
 * USD 2.06). `null` when the result exceeds `maxMoneyMinorUnits`.
 */
export function convertMoney(minor: number, from: string, to: string, rate: number): number | null {
  const scaledRate = BigInt(Math.round(rate * Number(rateScale)));
  if (scaledRate <= 0n) return null;
  const numerator = BigInt(minor) * 10n ** BigInt(minorUnitDigits(to)) * rateScale;
  const denominator = 10n ** BigInt(minorUnitDigits(from)) * scaledRate;
  const converted = divideHalfUp(numerator, denominator);
  return converted > BigInt(maxMoneyMinorUnits) ? null : Number(converted);
}
