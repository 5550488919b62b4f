import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeField } from '../resource-kit/fields.ts';
import { barcodeField, skuField } from '../resources/products.ts';
import { validationCodes as codes } from '../validation-codes.ts';
import { invisibleInCodes, normalizeCode } from './normalize-code.ts';

const isInvisible = (codePoint: number) =>
  invisibleInCodes.some(([first, last]) => codePoint >= first && codePoint <= last);
const invisibles = invisibleInCodes.flatMap(([first, last]) => [
  String.fromCodePoint(first),
  String.fromCodePoint(last),
]);

/**
 * One character of a typed code: any code point, or what the rule is about (a letter with its
 * accent apart or together, full-width letters, invisible characters, spaces of every kind),
 * Arabic letters and digits, and Hangul jamo that compose (a random code point is seldom one).
 */
const codeCharacter = fc.oneof(
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  fc.constantFrom(...'ABCabcZW019-_/.', ...'ÉéÅ', '\u0301', '\u030a', '\u0327'),
  fc.constantFrom(...'ＡＢＣａｂｃ０１９－', '\u3000', '\u00a0', '\u2007', '\u202f', ' ', '\t', '\n'),
  fc.constantFrom(...invisibles),
  fc.constantFrom(...'ابتثكلمنهوي٠١٢٣۴۵', '\u1100', '\u1161', '\u11a8', '가', 'ﷺ', '㍿', 'ﬁ'),
);
const typedCode = fc.array(codeCharacter, { maxLength: 24 }).map((characters) => characters.join(''));

/** `text` with an invisible character put in at every chosen place. */
const withInvisibles = fc
  .tuple(typedCode, fc.array(fc.tuple(fc.nat(), fc.constantFrom(...invisibles)), { maxLength: 6 }))
  .map(([text, insertions]) => {
    const characters = [...text];
    for (const [at, character] of insertions) characters.splice(at % (characters.length + 1), 0, character);
    return { text, withInvisible: characters.join('') };
  });

/** ASCII as a full-width input method types it (U+FF01–U+FF5E; a space as the ideographic space). */
const fullWidth = (ascii: string) =>
  [...ascii]
    .map((character) =>
      character === ' ' ? '\u3000' : String.fromCodePoint(character.codePointAt(0)! - 0x21 + 0xff01),
    )
    .join('');

describe('normalizeCode', () => {
  it('makes the forms a merchant cannot tell apart one code', () => {
    expect(normalizeCode('CAF\u00c9')).toBe(normalizeCode('CAFE\u0301'));
    expect(normalizeCode('CAFE\u0301')).toBe('CAF\u00c9');
    expect(normalizeCode('\uff21\uff22\uff23')).toBe('ABC');
    expect(normalizeCode('Z\u200bW')).toBe('ZW');
    expect(normalizeCode('\u2066BR-01\u2069\u200f')).toBe('BR-01');
    expect(normalizeCode('\ufeff  BR\u00a0 01\u3000')).toBe('BR  01');
    expect(normalizeCode('\u200b')).toBe('');
  });

  it('keeps case, inner spaces and Arabic as typed', () => {
    expect(normalizeCode('abc')).not.toBe(normalizeCode('ABC'));
    expect(normalizeCode('Br-01')).toBe('Br-01');
    expect(normalizeCode('حلويات ٠١')).toBe('حلويات ٠١');
  });

  it('is idempotent and its result is NFKC, trimmed, with nothing invisible left', () => {
    fc.assert(
      fc.property(typedCode, (typed) => {
        const code = normalizeCode(typed);
        expect(normalizeCode(code)).toBe(code);
        expect(code.normalize('NFKC')).toBe(code);
        expect(code.trim()).toBe(code);
        expect([...code].filter((character) => isInvisible(character.codePointAt(0)!))).toEqual([]);
      }),
    );
  });

  it('gives every Unicode normal form of a code the same code', () => {
    fc.assert(
      fc.property(typedCode, fc.constantFrom('NFC', 'NFD', 'NFKC', 'NFKD'), (typed, form) => {
        expect(normalizeCode(typed.normalize(form))).toBe(normalizeCode(typed));
      }),
    );
  });

  it('ignores invisible characters wherever they are put', () => {
    fc.assert(
      fc.property(withInvisibles, ({ text, withInvisible }) => {
        expect(normalizeCode(withInvisible)).toBe(normalizeCode(text));
      }),
    );
  });

  it('reads full-width ASCII as ASCII', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary-ascii', maxLength: 20 }), (text) => {
        const printable = text.replace(/[^\x20-\x7e]/g, '');
        expect(normalizeCode(fullWidth(printable))).toBe(normalizeCode(printable));
      }),
    );
  });

  it('lists exactly the Default_Ignorable_Code_Point characters of the runtime', () => {
    const ignorable = /^\p{Default_Ignorable_Code_Point}$/u;
    for (let codePoint = 0; codePoint <= 0x10ffff; codePoint += 1) {
      if (codePoint >= 0xd800 && codePoint <= 0xdfff) continue;
      if (ignorable.test(String.fromCodePoint(codePoint)) !== isInvisible(codePoint))
        expect.fail(`U+${codePoint.toString(16)}`);
    }
  });
});

describe('the code field', () => {
  it('stores the normalized code; empty after normalizing is no code', () => {
    expect(codeField.parse(' \uff22\uff32-0001\u200b ')).toBe('BR-0001');
    expect(codeField.parse('\u200b\u200f ')).toBe('');
    expect(codeField.parse('')).toBe('');
    expect(codeField.parse(undefined)).toBeUndefined();
  });

  it('counts the 60 characters after normalizing', () => {
    expect(codeField.safeParse(`${'x'.repeat(60)}\u200b\u200b`).success).toBe(true);
    expect(codeField.safeParse('x'.repeat(61)).error?.issues[0]?.message).toBe(codes.CODE_TOO_LONG);
  });

  it('normalizes a SKU and a barcode alike', () => {
    fc.assert(
      fc.property(withInvisibles, ({ text, withInvisible }) => {
        fc.pre(normalizeCode(text).length <= 60 && !text.includes('\u0000'));
        expect(skuField.parse(withInvisible)).toBe(normalizeCode(text) || null);
      }),
    );
    expect(skuField.parse('\uff33\uff2b\uff35-1\u200b')).toBe('SKU-1');
    expect(barcodeField.parse(' \u200e\uff14\uff10\uff10\uff16381333931 ')).toBe('4006381333931');
    expect(barcodeField.parse('٤٠٠٦٣٨١٣٣٣٩٣١\u200f')).toBe('4006381333931');
  });
});
