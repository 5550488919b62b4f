/**
 * A code (a brand's, a product's, a SKU, a barcode) as it is stored and compared: two codes that
 * look the same are one code. Keyboards, input methods and copying from Arabic text bring in
 * characters that change the bytes without changing what is seen: a letter and its accent typed
 * apart (`E` + `◌́`) or together (`É`), the full-width letters of an East Asian input method
 * (`ＡＢＣ`), a zero-width space or a bidi mark pasted along. Case is not folded: `abc` and `ABC`
 * look different and stay two codes (docs/decisions/0020-codes.md).
 */

/**
 * Unicode's Default_Ignorable_Code_Point (as of Unicode 17): characters a renderer shows as
 * nothing unless it supports them — zero-width space, joiners (U+200B–U+200D), the word joiner
 * (U+2060), the byte order mark (U+FEFF), bidi marks and embeddings (U+200E, U+200F, U+061C,
 * U+202A–U+202E, U+2066–U+2069), the soft hyphen, variation selectors, tag characters. Listed
 * rather than `\p{Default_Ignorable_Code_Point}` so that every engine (a browser's, the server's,
 * and migration 0013's SQL, which spells the same ranges) removes the same ones.
 */
export const invisibleInCodes: readonly (readonly [number, number])[] = [
  [0x00ad, 0x00ad],
  [0x034f, 0x034f],
  [0x061c, 0x061c],
  [0x115f, 0x1160],
  [0x17b4, 0x17b5],
  [0x180b, 0x180f],
  [0x200b, 0x200f],
  [0x202a, 0x202e],
  [0x2060, 0x206f],
  [0x3164, 0x3164],
  [0xfe00, 0xfe0f],
  [0xfeff, 0xfeff],
  [0xffa0, 0xffa0],
  [0xfff0, 0xfff8],
  [0x1bca0, 0x1bca3],
  [0x1d173, 0x1d17a],
  [0xe0000, 0xe0fff],
];

const inClass = (codePoint: number) => `\\u{${codePoint.toString(16)}}`;
const invisible = new RegExp(
  `[${invisibleInCodes.map(([first, last]) => (first === last ? inClass(first) : `${inClass(first)}-${inClass(last)}`)).join('')}]`,
  'gu',
);

/**
 * A typed code as it is stored and compared: invisible characters (`invisibleInCodes`) removed,
 * then NFKC (composed accents, full-width and other compatibility forms as their plain letters
 * and digits, a no-break space as a space), then trimmed. Idempotent. Empty means "none typed".
 */
export function normalizeCode(text: string): string {
  return text.replace(invisible, '').normalize('NFKC').trim();
}
