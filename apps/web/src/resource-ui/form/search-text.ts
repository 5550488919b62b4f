/**
 * Text as a search compares it: lower case, without accents (é → e), Arabic diacritics and
 * tatweel, with the alef forms (أ إ آ) as ا, ى as ي, ة as ه, and Arabic-Indic digits as Latin ones,
 * so "جنيه" finds "جُنَيْه" and "Reunion" finds "Réunion".
 */
export function foldForSearch(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f\u064b-\u065f\u0670\u0640]/g, '')
    .replace(/[\u0622\u0623\u0625]/g, '\u0627')
    .replace(/\u0649/g, '\u064a')
    .replace(/\u0629/g, '\u0647')
    .replace(/[\u0660-\u0669]/g, (digit) => String(digit.charCodeAt(0) - 0x0660))
    .replace(/[\u06f0-\u06f9]/g, (digit) => String(digit.charCodeAt(0) - 0x06f0))
    .toLocaleLowerCase('en')
    .replace(/\s+/g, ' ')
    .trim();
}
