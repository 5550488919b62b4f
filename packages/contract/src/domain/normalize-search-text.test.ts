import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toLatinDigits } from './normalize-input.ts';
import {
  arabicSearchTextFolds,
  caseFoldedBlocks,
  caseSearchTextFolds,
  normalizeSearchText,
  removedFromSearchText,
  searchTextTranslation,
  searchWords,
} from './normalize-search-text.ts';

const inRanges = (ranges: readonly (readonly [number, number])[], char: string) =>
  ranges.some(([first, last]) => char.charCodeAt(0) >= first && char.charCodeAt(0) <= last);
const allOf = (ranges: readonly (readonly [number, number])[]) =>
  ranges.flatMap(([first, last]) =>
    Array.from({ length: last - first + 1 }, (_, index) => String.fromCharCode(first + index)),
  );
const removed = allOf(removedFromSearchText);

/**
 * What the rules name, written out here rather than read from the table (a character the table
 * lost would otherwise never be typed by the properties): the removed marks and the folded letters.
 */
const marks = `\u0640\u061c\u0670\u200b\u200c\u200d\u200e\u200f${allOf([[0x064b, 0x065f]]).join('')}`;
const ruleCharacters = [...marks, ...'أإآٱىئیةۀؤک٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹', ...'AZÀÉÞĀİŽΑΣΩАЯӾ'];

/**
 * One character of typed text: any code point, or one the fold is about (a random code point is
 * seldom one): folded and removed characters, what they become, Arabic and Latin letters, digits,
 * signs and spaces.
 */
const typedCharacter = fc.oneof(
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  fc.constantFrom(...ruleCharacters),
  fc.constantFrom(...searchTextTranslation.from, ...searchTextTranslation.to),
  fc.constantFrom(...'ابتثجحخدذرزسشصضطظعغفقكلمنهويء', ...'abcxyzABCXYZ019 -_./+', 'ﻻ', 'ẞ', 'Ａ', 'ς'),
);
const typedText = fc.string({ unit: typedCharacter, maxLength: 30 });

/**
 * The fold written the plain way, rule by rule, with the runtime's own lower-casing for the
 * blocks the table covers: what `searchTextTranslation` must amount to.
 */
function referenceFold(text: string): string {
  const withoutMarks = [...text].filter((char) => !marks.includes(char)).join('');
  const arabic = withoutMarks
    .replace(/[أإآٱ]/g, 'ا')
    .replace(/[ىئی]/g, 'ي')
    .replace(/[ةۀ]/g, 'ه')
    .replace(/ؤ/g, 'و')
    .replace(/ک/g, 'ك');
  return [...toLatinDigits(arabic)]
    .map((char) => (inRanges(caseFoldedBlocks, char) ? simpleLowerCase(char) : char))
    .join('');
}

/** Unicode's simple lower-case mapping of a letter of the covered blocks (JavaScript's is the full one). */
const simpleLowerCase = (char: string) => (char === 'İ' ? 'i' : char.toLowerCase());

/** PostgreSQL's `translate(text, from, to)`, character by character. */
function translate(text: string, from: string, to: string): string {
  return [...text]
    .map((char) => {
      const at = from.indexOf(char);
      return at === -1 ? char : (to[at] ?? '');
    })
    .join('');
}

describe('normalizeSearchText', () => {
  it.each([
    ['أحمد', 'احمد'],
    ['إبراهيم', 'ابراهيم'],
    ['آيس لاتيه', 'ايس لاتيه'],
    ['ٱلله', 'الله'],
    ['مصطفى', 'مصطفي'],
    ['فاطمة', 'فاطمه'],
    ['مؤمن', 'مومن'],
    ['عائشة', 'عايشه'],
    ['کیک', 'كيك'],
    ['بسبوسۀ', 'بسبوسه'],
    ['مُحَمَّد', 'محمد'],
    ['سَحْلَبٌ', 'سحلب'],
    ['هٰذا', 'هذا'],
    // Hamza and madda as combining marks (U+0654, U+0653): أ and آ decomposed.
    ['\u0627\u0654حمد', 'احمد'],
    ['\u0627\u0653يس', 'ايس'],
    ['قهـوة', 'قهوه'],
    ['أحـــمـد', 'احمد'],
    ['٠١٠٠١٢٣٤٥٦٧', '01001234567'],
    ['۰۱۲۳۴۵۶۷۸۹', '0123456789'],
    ['CAFÉ Nile', 'café nile'],
    ['İSTANBUL', 'istanbul'],
    ['ΣΟΦΙΑ', 'σοφια'],
    ['МОСКВА', 'москва'],
    ['می\u200cخواهم', 'ميخواهم'],
    ['\u200fCOF-TRK-S\u200f', 'cof-trk-s'],
  ])('%s → %s', (typed, compared) => {
    expect(normalizeSearchText(typed)).toBe(compared);
  });

  it('makes the spellings a phone keyboard gives one text', () => {
    const spellings = [
      ['أحـمـد', 'احمد', 'أَحْمَد'],
      ['شاى بالنعناع', 'شاي بالنعناع', 'شای بالنعناع'],
      ['كنافة', 'کنافه', 'كُنَافَة', 'كـنـافـة'],
      ['بيبسي ٣٣٠', 'بيبسي ۳۳۰', 'بيبسي 330'],
    ];
    for (const [first, ...others] of spellings) {
      for (const other of others)
        expect(normalizeSearchText(other!), other).toBe(normalizeSearchText(first!));
    }
  });

  it('leaves letters outside the table as they are, and the hamza on the line', () => {
    expect(normalizeSearchText('Ａ ẞ ǅ')).toBe('Ａ ẞ ǅ');
    expect(normalizeSearchText('هناء سماء')).toBe('هناء سماء');
    expect(normalizeSearchText('ﻻ')).toBe('ﻻ');
  });

  it('is idempotent, removes every character it folds, and never lengthens a text', () => {
    fc.assert(
      fc.property(typedText, (text) => {
        const once = normalizeSearchText(text);
        expect(normalizeSearchText(once)).toBe(once);
        for (const char of once) expect(searchTextTranslation.from).not.toContain(char);
        const removedCount = [...text].filter((char) => removed.includes(char)).length;
        expect(once).toHaveLength(text.length - removedCount);
      }),
    );
  });

  it('keeps ASCII other than capitals as it is', () => {
    const ascii = fc.string({
      unit: fc.integer({ min: 0, max: 0x7f }).map((code) => String.fromCharCode(code)),
    });
    fc.assert(
      fc.property(ascii, (text) => {
        expect(normalizeSearchText(text)).toBe(text.replace(/[A-Z]/g, (char) => char.toLowerCase()));
      }),
    );
    expect(normalizeSearchText('abc-xyz 0123456789 +_%')).toBe('abc-xyz 0123456789 +_%');
  });

  it('is the plain rule-by-rule fold, and PostgreSQL translate() with the exported table', () => {
    fc.assert(
      fc.property(typedText, (text) => {
        const normalized = normalizeSearchText(text);
        expect(normalized).toBe(referenceFold(text));
        expect(normalized).toBe(translate(text, searchTextTranslation.from, searchTextTranslation.to));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('searchTextTranslation, the table the SQL mirror is made from', () => {
  it('lists each character once, one UTF-16 unit each, none of them a result', () => {
    const { from, to } = searchTextTranslation;
    expect(new Set(from).size).toBe(from.length);
    expect(to.length).toBeLessThan(from.length);
    for (const char of from + to) {
      expect(char.length).toBe(1);
      expect(char.charCodeAt(0) < 0xd800 || char.charCodeAt(0) > 0xdfff, char).toBe(true);
    }
    // A result is never folded again: one pass is the whole fold, as one translate() call is.
    for (const char of to) expect(from).not.toContain(char);
    // Nothing a SQL string literal would have to escape.
    expect(from + to).not.toMatch(/['\\]/);
    expect(from.slice(to.length)).toBe(removed.join(''));
  });

  it('pairs each group character for character', () => {
    for (const fold of [...arabicSearchTextFolds, ...caseSearchTextFolds]) {
      expect(fold.to, fold.from).toHaveLength(fold.from.length);
    }
  });

  it('lower-cases every upper-case letter of the covered blocks that has one lower-case letter', () => {
    const caseFolds = caseSearchTextFolds.flatMap((fold) =>
      [...fold.from].map((char, index) => [char, fold.to[index]!] as const),
    );
    for (const [upper, lower] of caseFolds) {
      expect(inRanges(caseFoldedBlocks, upper), upper).toBe(true);
      expect(simpleLowerCase(upper), upper).toBe(lower);
    }
    const expected = allOf(caseFoldedBlocks).filter((char) => {
      const lower = simpleLowerCase(char);
      return lower !== char && lower.length === 1;
    });
    expect(caseFolds.map(([upper]) => upper)).toEqual(expected);
  });
});

describe('searchWords', () => {
  it.each([
    ['أحمد  مصطفى', ['احمد', 'مصطفي']],
    ['القهوة', ['قهوه']],
    ['المخبز الذهبي', ['مخبز', 'ذهبي']],
    ['والحلويات بالشوكولاتة للبيع', ['حلويات', 'شوكولاته', 'بيع']],
    // Fewer than two letters left: the word stays whole.
    ['الف', ['الف']],
    ['Café LATTE', ['café', 'latte']],
    ['  \u064e\u0640 ', []],
  ])('%s → %j', (typed, words) => {
    expect(searchWords(typed)).toEqual(words);
  });

  it('gives folded words without spaces, each found in the folded text it came from', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), (typed) => {
        const folded = normalizeSearchText(typed);
        for (const word of searchWords(typed)) {
          expect(word).not.toMatch(/\s/u);
          expect(word.length).toBeGreaterThan(0);
          expect(normalizeSearchText(word)).toBe(word);
          expect(folded).toContain(word);
        }
      }),
    );
  });
});
