import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeField } from '../resource-kit/fields.ts';
import { normalizeCode } from './normalize-code.ts';
import { deriveValueCodes, maxCodeLength, valueCodeCandidate } from './value-codes.ts';

/** A character of a code: plain, Arabic, accented apart or together, full-width, astral, invisible. */
const codeCharacter = fc.oneof(
  fc.constantFrom(...'ABCSIZEabc019-_/. '),
  fc.constantFrom(...'ابتثمقاس٠١٢', 'É', 'E\u0301', 'Ａ', '１', '－', '😀', '𝒜', '\u200b', '\u200f', 'ﷺ'),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
);
/** A type's code as stored: normalized, not empty, at most 60 characters (what `codeField` lets through). */
const typeCode = fc
  .array(codeCharacter, { minLength: 1, maxLength: 70 })
  .map((characters) => normalizeCode(characters.join('')))
  .filter((code) => code !== '' && code.length <= maxCodeLength && !code.includes('\u0000'));

/** Codes already taken: some of the type's own candidates, in any stored or typed form, and others. */
const takenFor = (code: string) =>
  fc.array(
    fc.oneof(
      fc.integer({ min: 1, max: 120 }).map((number) => valueCodeCandidate(code, number)),
      fc
        .integer({ min: 1, max: 120 })
        .map((number) => `\u200b${valueCodeCandidate(code, number).normalize('NFD')} `),
      fc.string({ maxLength: 12 }),
    ),
    { maxLength: 40 },
  );

describe('deriveValueCodes', () => {
  it('numbers a type’s values from 01, skipping the codes taken', () => {
    expect(deriveValueCodes('SIZE', [], 3)).toEqual(['SIZE-01', 'SIZE-02', 'SIZE-03']);
    expect(deriveValueCodes('SIZE', ['SIZE-01', 'SIZE-03', 'COLOUR-02'], 2)).toEqual(['SIZE-02', 'SIZE-04']);
    expect(deriveValueCodes('VAR-0001', ['VAR-0001-01'])).toEqual(['VAR-0001-02']);
    expect(deriveValueCodes('مقاس', [])).toEqual(['مقاس-01']);
  });

  it('compares taken codes as stored: a full-width or invisible twin is taken too', () => {
    expect(deriveValueCodes('SIZE', ['ＳＩＺＥ-01', '\u200bSIZE-02\u200f'])).toEqual(['SIZE-03']);
  });

  it('goes past 99 with more digits, and cuts a long type code to fit 60 characters', () => {
    const taken = Array.from({ length: 99 }, (_, index) => valueCodeCandidate('SIZE', index + 1));
    expect(deriveValueCodes('SIZE', taken)).toEqual(['SIZE-100']);
    const long = 'T'.repeat(60);
    expect(valueCodeCandidate(long, 1)).toBe(`${'T'.repeat(57)}-01`);
    expect(valueCodeCandidate(long, 100)).toBe(`${'T'.repeat(56)}-100`);
    // An astral character is kept or cut whole.
    expect(valueCodeCandidate(`${'T'.repeat(56)}😀`, 1)).toBe(`${'T'.repeat(56)}-01`);
  });

  it('gives the first free candidates, each new, stored as it is, at most 60 characters, valid codes', () => {
    fc.assert(
      fc.property(
        typeCode.chain((code) => fc.tuple(fc.constant(code), takenFor(code), fc.integer({ min: 1, max: 6 }))),
        ([code, taken, count]) => {
          const derived = deriveValueCodes(code, taken, count);
          const used = new Set(taken.map(normalizeCode));
          expect(derived).toHaveLength(count);
          expect(new Set(derived).size).toBe(count);
          for (const value of derived) {
            expect(used.has(value)).toBe(false);
            expect(normalizeCode(value)).toBe(value);
            expect(value.length).toBeLessThanOrEqual(maxCodeLength);
            expect(codeField.parse(value)).toBe(value);
          }
          // First free: every candidate before the last one given is taken or given.
          const last = derived.at(-1)!;
          for (let number = 1; valueCodeCandidate(code, number) !== last; number++) {
            const candidate = valueCodeCandidate(code, number);
            expect(used.has(candidate) || derived.includes(candidate)).toBe(true);
          }
          // A type code that leaves room for a hyphen and three digits (numbers here stay under
          // 1,000) is kept whole.
          if (code.length + 4 <= maxCodeLength)
            for (const value of derived) expect(value.startsWith(`${code}-`)).toBe(true);
        },
      ),
    );
  });

  it('derives the same codes whatever order the taken codes come in', () => {
    fc.assert(
      fc.property(
        typeCode.chain((code) => fc.tuple(fc.constant(code), takenFor(code))),
        ([code, taken]) => {
          expect(deriveValueCodes(code, [...taken].reverse(), 3)).toEqual(deriveValueCodes(code, taken, 3));
        },
      ),
    );
  });
});
