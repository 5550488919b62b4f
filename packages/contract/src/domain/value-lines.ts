import type { Locale } from '../resource-kit/fields.ts';

/** A letter, digit or mark of the Arabic script: text written in Arabic. */
const arabic = /\p{Script=Arabic}/u;

/** How a variation value's text is compared within its type: trimmed and case-folded, in either language. */
export const comparableValueText = (text: string | null | undefined): string | null =>
  text?.trim().toLowerCase() || null;

/**
 * The name a line of a new type's values box gives its value: `Small`, `صغير`, or both names on
 * the one line separated by `|` in either order (`Small | صغير`). A part written in Arabic letters
 * is the Arabic name, any other the English one; empty parts are ignored. Null when one language
 * comes twice (`Small | Large`: two values on one line).
 */
export function namesOfLine(line: string): { locale: Locale; value: string }[] | null {
  const names = new Map<Locale, string>();
  for (const part of line.split('|')) {
    const value = part.trim();
    if (!value) continue;
    const locale: Locale = arabic.test(value) ? 'ar' : 'en';
    if (names.has(locale)) return null;
    names.set(locale, value);
  }
  return (['en', 'ar'] as const).flatMap((locale) => {
    const value = names.get(locale);
    return value === undefined ? [] : [{ locale, value }];
  });
}
