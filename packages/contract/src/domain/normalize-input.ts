/**
 * What Egyptian and other Arabic-speaking users type, made into what the field rules check and
 * what is stored. The contract's field schemas apply these before their rules, so the web form
 * (through the same schema) and the server (the authority) normalize alike.
 */

// Arabic-Indic (U+0660…U+0669) and Extended Arabic-Indic (U+06F0…U+06F9, Persian and Urdu keyboards).
const arabicIndicDigits = /[\u0660-\u0669\u06f0-\u06f9]/g;

/** Every Arabic-Indic and Extended Arabic-Indic digit as its Latin digit; anything else as it is. */
export function toLatinDigits(text: string): string {
  return text.replace(arabicIndicDigits, (digit) =>
    String(digit.charCodeAt(0) - (digit >= '\u06f0' ? 0x06f0 : 0x0660)),
  );
}

// Whitespace (a pasted number may hold no-break spaces), bidi marks that copying from Arabic text
// brings along, hyphens and dashes, dots and parentheses: how numbers are grouped, never digits.
const phoneSeparators = /[\s\u200e\u200f\u202a-\u202e\u2066-\u2069\-\u2010-\u2015\u2212.()]/gu;

/**
 * A phone number as it is checked and stored: Latin digits, without spaces, hyphens, dots or
 * parentheses (`+20 100 123 4567` → `+201001234567`, `٠١٠٠٢٣٤٥٦٧٨` → `01002345678`). A plus
 * or a letter stays where it is, for the rule to refuse it.
 */
export function normalizePhone(text: string): string {
  return toLatinDigits(text).replace(phoneSeparators, '');
}

/** A normalized phone number: an optional leading plus, then digits only. */
export const normalizedPhonePattern = /^\+?[0-9]+$/;

// `scheme:` at the start (RFC 3986): `https:`, `mailto:`, `javascript:`.
const hasScheme = /^[a-z][a-z0-9+.-]*:(?!\d)/i;
// A host name with at least one dot, an optional port, then a path, query, fragment or nothing.
const looksLikeHost =
  /^[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?(?:\.[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?)+(?::\d+)?(?:[/?#]|$)/u;

/**
 * A website as it is checked and stored: trimmed, and `https://` put before a bare host
 * (`shop.example/menu` → `https://shop.example/menu`). Anything else, a scheme included
 * (`javascript:alert(1)`), is left for the URL rule to judge.
 */
export function normalizeWebsite(text: string): string {
  const website = text.trim();
  return !hasScheme.test(website) && looksLikeHost.test(website) ? `https://${website}` : website;
}

const decimalNumber = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

/**
 * A typed number as a number: Latin or Arabic-Indic digits, the Arabic decimal separator `٫`
 * or a dot, the Arabic thousands separator `٬` ignored (`١٢٬٥٠٠٫٧٥` → 12500.75). `undefined`
 * for an empty text, NaN for anything else (no `0x10`, `1e3` or `Infinity` as `Number()` reads them).
 */
export function parseNumberInput(text: string): number | undefined {
  const normalized = toLatinDigits(text)
    .trim()
    .replace(/\u066c/g, '')
    .replace(/\u066b/g, '.');
  if (normalized === '') return undefined;
  return decimalNumber.test(normalized) ? Number(normalized) : Number.NaN;
}
