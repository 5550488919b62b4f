export interface LocalizedEntry {
  locale: string;
  value: string;
}
export type LocalizedText = LocalizedEntry[];

/**
 * The entry whose locale is contained in the current language, else the first entry, else '-'
 * (spec §9). `en-US` picks the `en` entry.
 */
export function pickLocalized(text: LocalizedText | null | undefined, language = 'en'): string {
  if (!text || text.length === 0) return '-';
  const match = text.find((entry) => entry.locale && language.includes(entry.locale));
  return (match ?? text[0])?.value || '-';
}

/**
 * Texts listed in a sentence of the given language: Arabic separates them with its own comma
 * ('صغير، أحمر'), other languages with ', '.
 */
export function joinList(items: readonly string[], language = 'en'): string {
  return items.join(listSeparator(language));
}

/** What separates the texts of a list in the language: '، ' in Arabic, ', ' otherwise. */
export function listSeparator(language = 'en'): string {
  return language.startsWith('ar') ? '، ' : ', ';
}
