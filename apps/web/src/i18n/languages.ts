/** The languages of the product; `dir` is what sets `<html dir>` (see `applyDocumentLanguage`). */
export const languages = [
  { code: 'en', dir: 'ltr' },
  { code: 'ar', dir: 'rtl' },
] as const satisfies readonly { code: string; dir: 'ltr' | 'rtl' }[];

export type Language = (typeof languages)[number];
export type LanguageCode = Language['code'];

export const defaultLanguage: LanguageCode = 'en';
export const languageCodes: LanguageCode[] = languages.map((language) => language.code);

/** The supported language a (possibly regional or unknown) code stands for; `ar-EG` → `ar`. */
export function resolveLanguage(code: string | null | undefined): Language {
  const base = code?.toLowerCase().split('-')[0];
  return languages.find((language) => language.code === base) ?? languages[0];
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
