/**
 * Search text as list search compares it: what a record holds and what is typed into the search
 * box, folded alike so that a name is found however a phone keyboard typed it. The Arabic rules
 * are those of Lucene's Arabic normalizer, with the letters a Persian keyboard types for Arabic
 * ones; they never depend on a database's locale or on a Unicode version, so that the database
 * folds the stored text exactly as this function folds it.
 *
 * The whole fold is a character map: each character of `searchTextTranslation.from` becomes the
 * character at the same place in `.to`, or nothing where `.to` is shorter — what PostgreSQL's
 * `translate(text, from, to)` does. Every character is one UTF-16 unit before and after, so a
 * JavaScript string and a PostgreSQL text are folded the same, character for character. No
 * Unicode normalization (NFC, NFKC): its tables change with the Unicode version, and the databases'
 * `normalize()` need not have the same one.
 */

/** A group of characters each compared as the one at the same place in `to`. */
export interface SearchTextFold {
  from: string;
  to: string;
}

/** The Arabic letters typed for one another, and the Arabic-Indic and Persian digits. */
export const arabicSearchTextFolds: readonly SearchTextFold[] = [
  // Alef with hamza above or below, with madda, and alef wasla: typed as a bare alef.
  { from: 'أإآٱ', to: 'اااا' },
  { from: 'ى', to: 'ي' },
  { from: 'ة', to: 'ه' },
  { from: 'ؤ', to: 'و' },
  { from: 'ئ', to: 'ي' },
  // What a Persian keyboard types for ك, ي and ة: keheh, Farsi yeh, heh with yeh above.
  { from: 'کیۀ', to: 'كيه' },
  // Arabic-Indic (U+0660…) and Extended Arabic-Indic (U+06F0…, Persian and Urdu keyboards) digits.
  { from: '٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹', to: '01234567890123456789' },
];

/**
 * Upper-case letters as their lower-case letter, for the Latin, Greek and Cyrillic letters of the
 * blocks below: Unicode's simple lower-case mapping (one letter for one: `İ` is `i`). A fixed table
 * rather than `toLowerCase()` or SQL `lower()`, which disagree: `lower('ÉİΣ')` is `éiσ` with the
 * database's own character tables (a server's follow the locale its cluster was created with, so
 * another server may differ), but `éi̇ς` under the ICU collation and in JavaScript, whose full
 * mapping makes `İ` two characters and `Σ` a final `ς` at a word's end; and each follows its own
 * Unicode version. Letters outside these blocks (full-width `Ａ`, `ẞ`) keep their case.
 */
export const caseSearchTextFolds: readonly SearchTextFold[] = [
  // Basic Latin.
  { from: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', to: 'abcdefghijklmnopqrstuvwxyz' },
  // Latin-1 Supplement.
  { from: 'ÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖØÙÚÛÜÝÞ', to: 'àáâãäåæçèéêëìíîïðñòóôõöøùúûüýþ' },
  // Latin Extended-A.
  {
    from: 'ĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĲĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ',
    to: 'āăąćĉċčďđēĕėęěĝğġģĥħĩīĭįiĳĵķĺļľŀłńņňŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷÿźżž',
  },
  // Greek and Coptic.
  {
    from: 'ͰͲͶͿΆΈΉΊΌΎΏΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩΪΫϏϘϚϜϞϠϢϤϦϨϪϬϮϴϷϹϺϽϾϿ',
    to: 'ͱͳͷϳάέήίόύώαβγδεζηθικλμνξοπρστυφχψωϊϋϗϙϛϝϟϡϣϥϧϩϫϭϯθϸϲϻͻͼͽ',
  },
  // Cyrillic.
  {
    from: 'ЀЁЂЃЄЅІЇЈЉЊЋЌЍЎЏАБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ',
    to: 'ѐёђѓєѕіїјљњћќѝўџабвгдежзийклмнопрстуфхцчшщъыьэюя',
  },
  {
    from: 'ѠѢѤѦѨѪѬѮѰѲѴѶѸѺѼѾҀҊҌҎҐҒҔҖҘҚҜҞҠҢҤҦҨҪҬҮҰҲҴҶҸҺҼҾӀӁӃӅӇӉӋӍӐӒӔӖӘӚӜӞӠӢӤӦӨӪӬӮӰӲӴӶӸӺӼӾ',
    to: 'ѡѣѥѧѩѫѭѯѱѳѵѷѹѻѽѿҁҋҍҏґғҕҗҙқҝҟҡңҥҧҩҫҭүұҳҵҷҹһҽҿӏӂӄӆӈӊӌӎӑӓӕӗәӛӝӟӡӣӥӧөӫӭӯӱӳӵӷӹӻӽӿ',
  },
];

/**
 * The blocks `caseSearchTextFolds` covers, as code point ranges: every upper-case letter in them
 * whose lower case is one other letter is in the table.
 */
export const caseFoldedBlocks: readonly (readonly [number, number])[] = [
  [0x0000, 0x007f],
  [0x0080, 0x00ff],
  [0x0100, 0x017f],
  [0x0370, 0x03ff],
  [0x0400, 0x04ff],
];

/**
 * Removed from search text, as code point ranges: the tatweel (U+0640), the Arabic diacritics
 * (harakat, tanween, shadda, sukun and the rest of U+064B…U+065F, the superscript alef U+0670;
 * a hamza or madda typed as a mark, U+0653…U+0655, goes as the letters' hamza goes), and the
 * invisible marks that Arabic and Persian keyboards and copied Arabic text put inside
 * words: the Arabic letter mark (U+061C), zero-width space, non-joiner and joiner, and the
 * left-to-right and right-to-left marks (U+200B…U+200F).
 */
export const removedFromSearchText: readonly (readonly [number, number])[] = [
  [0x0640, 0x0640],
  [0x064b, 0x065f],
  [0x0670, 0x0670],
  [0x061c, 0x061c],
  [0x200b, 0x200f],
];

const charactersOf = (ranges: readonly (readonly [number, number])[]) =>
  ranges
    .flatMap(([first, last]) => Array.from({ length: last - first + 1 }, (_, index) => first + index))
    .map((codePoint) => String.fromCharCode(codePoint))
    .join('');

const folds = [...arabicSearchTextFolds, ...caseSearchTextFolds];

/**
 * The fold as the arguments of PostgreSQL's `translate(text, from, to)`: the folded characters in
 * `from` with their replacements at the same places in `to`, then the removed ones, past the end
 * of `to`. The SQL mirror of `normalizeSearchText` is generated from it.
 */
export const searchTextTranslation: Readonly<SearchTextFold> = {
  from: folds.map((fold) => fold.from).join('') + charactersOf(removedFromSearchText),
  to: folds.map((fold) => fold.to).join(''),
};

const replacements = new Map(
  [...searchTextTranslation.from].map((char, index) => [char, searchTextTranslation.to[index] ?? '']),
);
const translated = new RegExp(
  `[${[...searchTextTranslation.from].map((char) => `\\u{${char.charCodeAt(0).toString(16)}}`).join('')}]`,
  'gu',
);

/**
 * A text as search compares it: `searchTextTranslation` applied, character by character.
 * `أحـمـد` and `احمد` are `احمد`; `مدرسة` is `مدرسه`; `مصطفى` is `مصطفي`; `٠١٠٠` and `۰۱۰۰` are
 * `0100`; `CAFÉ` is `café`. Idempotent, and never longer than the text.
 */
export function normalizeSearchText(text: string): string {
  return text.replace(translated, (char) => replacements.get(char)!);
}

/**
 * The definite article and the one-letter words written onto it (و، ب، ك، ف: "and the", "with
 * the", "like the", "so the"; ل with the article's alef dropped, "for the"): Lucene's Arabic
 * stemmer's prefixes that contain the article. Longest first.
 */
export const arabicArticlePrefixes: readonly string[] = ['وال', 'بال', 'كال', 'فال', 'ال', 'لل'];

/**
 * What a list search looks for: the typed text folded (`normalizeSearchText`), cut into its words,
 * each without a leading article where two letters or more remain — `القهوة` is found in
 * `قهوة تركي`, and `مخبز ذهبي` in `المخبز الذهبي`, where the words are found in their order with
 * anything between them. No words (blank, or marks alone): no search.
 */
export function searchWords(typed: string): string[] {
  return normalizeSearchText(typed)
    .split(/\s+/u)
    .filter((word) => word.length > 0)
    .map((word) => {
      const prefix = arabicArticlePrefixes.find((article) => word.startsWith(article));
      return prefix && word.length - prefix.length >= 2 ? word.slice(prefix.length) : word;
    });
}
