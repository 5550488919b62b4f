import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { linesOf } from '../resource-kit/form-fields.ts';
import { comparableValueText, namesOfLine } from './value-lines.ts';

describe('namesOfLine', () => {
  it('reads a name in either language, or both on one line in either order', () => {
    expect(namesOfLine('Small')).toEqual([{ locale: 'en', value: 'Small' }]);
    expect(namesOfLine(' صغير ')).toEqual([{ locale: 'ar', value: 'صغير' }]);
    const both = [
      { locale: 'en', value: 'Small' },
      { locale: 'ar', value: 'صغير' },
    ];
    expect(namesOfLine('Small | صغير')).toEqual(both);
    expect(namesOfLine('صغير|Small')).toEqual(both);
    // Digits alone, Latin or Arabic-Indic: the language of their script.
    expect(namesOfLine('42 | ٤٢')).toEqual([
      { locale: 'en', value: '42' },
      { locale: 'ar', value: '٤٢' },
    ]);
  });

  it('ignores empty parts, and refuses a language given twice', () => {
    expect(namesOfLine('| Large |')).toEqual([{ locale: 'en', value: 'Large' }]);
    expect(namesOfLine('|')).toEqual([]);
    expect(namesOfLine('Small | Large')).toBeNull();
    expect(namesOfLine('صغير | كبير')).toBeNull();
  });

  it('gives each language at most once, trimmed, non-empty, without the separator', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constantFrom('Small', ' L ', 'صغير', 'كبير ', '', ' ', '٤٢'), fc.string()), {
          maxLength: 4,
        }),
        (parts) => {
          const names = namesOfLine(parts.join('|'));
          if (names === null) return;
          expect(new Set(names.map((name) => name.locale)).size).toBe(names.length);
          for (const name of names) {
            expect(name.value).toBe(name.value.trim());
            expect(name.value).not.toBe('');
            expect(name.value).not.toContain('|');
          }
        },
      ),
    );
  });
});

describe('linesOf', () => {
  it('numbers the non-blank lines as typed, whatever the line ends', () => {
    expect(linesOf('Small\r\n\n  Medium \rLarge\n')).toEqual([
      { number: 1, text: 'Small' },
      { number: 3, text: 'Medium' },
      { number: 4, text: 'Large' },
    ]);
    expect(linesOf('  \n')).toEqual([]);
  });
});

describe('comparableValueText', () => {
  it('compares trimmed and case-folded; empty is none', () => {
    expect(comparableValueText(' Small ')).toBe(comparableValueText('SMALL'));
    expect(comparableValueText('  ')).toBeNull();
    expect(comparableValueText(null)).toBeNull();
  });
});
