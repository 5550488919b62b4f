import ar from '../../../web/src/i18n/locales/signed-in/ar.json' with { type: 'json' };
import en from '../../../web/src/i18n/locales/signed-in/en.json' with { type: 'json' };
import type { ReaderLocale } from './storage.ts';

/*
 * The headers of an exported list: the same texts the list's columns show, read from the web's
 * signed-in texts (`resources.<key>.fields.<field>`, else `resources.common.fields.<field>`) so a
 * field is named once for both; the server bundles them with itself.
 */

const texts: Record<ReaderLocale, unknown> = { en, ar };

/** The text at a dotted path of the reader's texts, or undefined. */
export function textAt(locale: ReaderLocale, path: string): string | undefined {
  let current: unknown = texts[locale];
  for (const part of path.split('.')) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return typeof current === 'string' ? current : undefined;
}

const languageNames: Record<ReaderLocale, Record<ReaderLocale, string>> = {
  en: { en: 'English', ar: 'Arabic' },
  ar: { en: 'بالإنجليزية', ar: 'بالعربية' },
};

/** A field's header: its label in the resource's texts or the common ones, else the field's name. */
export function fieldHeader(locale: ReaderLocale, resourceKey: string, field: string): string {
  return (
    textAt(locale, `resources.${resourceKey}.fields.${field}`) ??
    textAt(locale, `resources.common.fields.${field}`) ??
    field
  );
}

/** The header of one language's column of a localized field: "Name (English)", "الاسم (بالعربية)". */
export function localizedHeader(
  locale: ReaderLocale,
  resourceKey: string,
  field: string,
  language: ReaderLocale,
): string {
  const suffix = language === 'en' ? 'En' : 'Ar';
  return (
    textAt(locale, `resources.${resourceKey}.fields.${field}${suffix}`) ??
    textAt(locale, `resources.common.fields.${field}${suffix}`) ??
    `${fieldHeader(locale, resourceKey, field)} (${languageNames[locale][language]})`
  );
}
