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
