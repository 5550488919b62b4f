import { formattingLocale } from './format.ts';

/** The digits after the decimal point of a currency's minor unit: 2 for EGP, 3 for KWD, 0 for JPY. */
export function minorUnitDigits(currency: string): number {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency }).resolvedOptions()
    .maximumFractionDigits as number;
}

/** An integer of minor units as an exact decimal text in major units: 213750, 2 digits → '2137.50'. */
function majorUnits(minor: number, digits: number): `${number}` {
  const sign = minor < 0 ? '-' : '';
  const text = String(Math.abs(Math.trunc(minor))).padStart(digits + 1, '0');
  const whole = text.slice(0, text.length - digits);
  return (digits > 0 ? `${sign}${whole}.${text.slice(-digits)}` : `${sign}${whole}`) as `${number}`;
}

/**
 * An amount of integer minor units in the reader's language (ar → ar-EG, else en-US), with the
 * currency's own fraction digits: 213750 EGP → 'EGP 2,137.50' / '‏٢٬١٣٧٫٥٠ ج.م.‏'. Formatted from
 * a decimal text, not a division, so no amount is ever rounded on its way to the screen.
 */
export function formatMoney(minor: number, currency: string, language: string): string {
  const digits = minorUnitDigits(currency);
  return new Intl.NumberFormat(formattingLocale(language), {
    style: 'currency',
    currency,
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(majorUnits(minor, digits));
}
