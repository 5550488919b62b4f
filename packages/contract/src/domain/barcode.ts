/*
 * Product barcodes are GS1 trade item numbers: EAN-8, UPC-A (12 digits), EAN-13 and GTIN-14, each
 * ending in a mod-10 check digit. The check catches every single mistyped digit, which is the
 * mistake a merchant typing from a label makes.
 */

import { normalizeCode } from './normalize-code.ts';
import { toLatinDigits } from './normalize-input.ts';

/** The GTIN lengths a barcode may have: EAN-8, UPC-A, EAN-13, GTIN-14. */
export const barcodeLengths: readonly number[] = [8, 12, 13, 14];

const digitsOnly = /^[0-9]+$/;

/**
 * The GS1 mod-10 check digit of a body (the digits before the check digit): from the right, the
 * digits weigh 3, 1, 3, 1…; the check digit brings the weighted sum up to a multiple of 10.
 */
export function gs1CheckDigit(body: string): number {
  if (!digitsOnly.test(body)) throw new RangeError(`A barcode body has digits only: ${JSON.stringify(body)}`);
  let sum = 0;
  for (let fromRight = 0; fromRight < body.length; fromRight++) {
    const digit = body.charCodeAt(body.length - 1 - fromRight) - 48;
    sum += fromRight % 2 === 0 ? digit * 3 : digit;
  }
  return (10 - (sum % 10)) % 10;
}

/** The body with its check digit appended ('400638133393' → '4006381333931'), for tests and demo data. */
export function withCheckDigit(body: string): string {
  return `${body}${gs1CheckDigit(body)}`;
}

/**
 * Why a barcode is refused, or null: empty (no barcode) is accepted, and so is an EAN-8, UPC-A,
 * EAN-13 or GTIN-14 of ASCII digits whose last digit is its GS1 check digit. The value is taken
 * as it is: trim it and convert other digits first (`normalizeBarcode`).
 */
export function barcodeIssue(value: string): 'BARCODE_IS_INVALID' | null {
  if (value === '') return null;
  if (!digitsOnly.test(value) || !barcodeLengths.includes(value.length)) return 'BARCODE_IS_INVALID';
  const check = value.charCodeAt(value.length - 1) - 48;
  return gs1CheckDigit(value.slice(0, -1)) === check ? null : 'BARCODE_IS_INVALID';
}

/**
 * A typed or pasted barcode as it is checked and stored: a code (`normalizeCode`: nothing
 * invisible, full-width digits as ASCII, trimmed), with Arabic-Indic digits made ASCII.
 */
export function normalizeBarcode(value: string): string {
  return toLatinDigits(normalizeCode(value));
}
