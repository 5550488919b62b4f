/** The languages of the product; `dir` is what sets `<html dir>` (see `applyDocumentLanguage`). */
export const languages = [
  { code: 'en', dir: 'ltr' },
  { code: 'ar', dir: 'rtl' },
] as const satisfies readonly { code: string; dir: 'ltr' | 'rtl' }[];

export type Language = (typeof languages)[number];
export type LanguageCode = Language['code'];

export const defaultLanguage: LanguageCode = 'en';
export const languageCodes: LanguageCode[] = languages.map((language) => language.code);

/** The supported language a (possibly regional) code names, if any: `ar-EG` → `ar`, `fr` → none. */
function supportedLanguage(code: string | null | undefined): Language | undefined {
  const base = code?.trim().toLowerCase().split(/[-_]/)[0];
  return languages.find((language) => language.code === base);
}

/** The supported language a (possibly regional or unknown) code stands for; `ar-EG` → `ar`. */
export function resolveLanguage(code: string | null | undefined): Language {
  return supportedLanguage(code) ?? languages[0];
}

/**
 * The first of `candidates`, in order, that the product has, else the default: a browser whose
 * languages are `fr, ar` gets Arabic, `fr-CA, en-GB` English, `de` the default.
 */
export function firstSupportedLanguage(candidates: readonly (string | null | undefined)[]): LanguageCode {
  for (const candidate of candidates) {
    const language = supportedLanguage(candidate);
    if (language) return language.code;
  }
  return defaultLanguage;
}

/** Makes `<html lang dir>` follow the language. */
export function applyDocumentLanguage(
  code: string | undefined,
  root: HTMLElement = document.documentElement,
) {
  const language = resolveLanguage(code);
  root.lang = language.code;
  root.dir = language.dir;
}
