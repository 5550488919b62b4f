import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type WorkingDay, weekdays } from '../resources/locations.ts';
import {
  type CellValue,
  csvLine,
  formatCell,
  parseCell,
  protectText,
  unprotectText,
} from './spreadsheet-cells.ts';

/** A cell as a CSV or XLSX file gives it back: XLSX keeps numbers, a CSV turns them into text. */
const asCsv = (cell: CellValue): CellValue => (typeof cell === 'number' ? String(cell) : cell);

const workingDay: fc.Arbitrary<WorkingDay> = fc.oneof(
  fc.record({ day: fc.constantFrom(...weekdays), closed: fc.constant(true as const) }),
  fc
    .record({
      day: fc.constantFrom(...weekdays),
      opensAt: fc.integer({ min: 0, max: 86_400 }),
      closesAt: fc.integer({ min: 0, max: 86_400 }),
    })
    .filter((day) => day.opensAt !== day.closesAt),
);

describe('spreadsheet cells', () => {
  it('quotes a text a spreadsheet would run as a formula, and reads it back', () => {
    for (const text of ['=1+1', '+201001234567', '-5', '@SUM(A1)', '\tx', '\rx', "'quoted"]) {
      const cell = formatCell('text', text);
      expect(cell).toBe(`'${text}`);
      expect(parseCell('text', cell)).toBe(text);
    }
    expect(formatCell('text', 'plain')).toBe('plain');
    expect(formatCell('list', ['+201001234567', '+201112223334'])).toBe("'+201001234567, +201112223334");
  });

  it('reads back every text it writes, quoted or not', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), (text) => {
        expect(unprotectText(protectText(text))).toBe(text);
        expect(parseCell('text', formatCell('text', text))).toBe(text);
        expect(['=', '+', '-', '@', '\t', '\r']).not.toContain(String(formatCell('text', text))[0]);
      }),
    );
  });

  it('reads back every list (phones, tag codes), commas and backslashes inside items included', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.string(), fc.stringMatching(/^\+[0-9]{8,14}$/)), { minLength: 1 }),
        (items) => {
          fc.pre(!(items.length === 1 && items[0] === ''));
          expect(parseCell('list', asCsv(formatCell('list', items)))).toEqual(items);
        },
      ),
    );
    expect(parseCell('list', null)).toEqual([]);
  });

  it("reads back every location's labelled phones, colons and commas in labels included", () => {
    // As stored: a label trimmed and not empty (the form's rule), a number of digits and a plus.
    const label = fc
      .string({ minLength: 1, maxLength: 60 })
      .map((text) => text.trim())
      .filter((text) => text !== '');
    const phone = fc.record({ label, number: fc.stringMatching(/^\+?[0-9]{6,15}$/) });
    fc.assert(
      fc.property(fc.array(phone, { minLength: 1, maxLength: 10 }), (phones) => {
        expect(parseCell('labelledPhones', asCsv(formatCell('labelledPhones', phones)))).toEqual(phones);
      }),
    );
    expect(
      formatCell('labelledPhones', [
        { label: 'Front desk', number: '+20223456789' },
        { label: 'Hours: 9-5, daily', number: '0223456780' },
      ]),
    ).toBe('Front desk: +20223456789, Hours: 9-5\\, daily: 0223456780');
    // An item without a label reads as one with an empty label, which the label's rule refuses.
    expect(parseCell('labelledPhones', '+20223456789')).toEqual([{ label: '', number: '+20223456789' }]);
    expect(parseCell('labelledPhones', null)).toEqual([]);
  });

  it('reads back every working week', () => {
    expect(
      formatCell('workingHours', [
        { day: 'monday', opensAt: 9 * 3600, closesAt: 17 * 3600 },
        { day: 'friday', closed: true },
        { day: 'saturday', opensAt: 20 * 3600, closesAt: 86_400 },
      ]),
    ).toBe('monday 09:00-17:00; friday closed; saturday 20:00-24:00');
    fc.assert(
      fc.property(fc.array(workingDay, { minLength: 1, maxLength: 7 }), (days) => {
        expect(parseCell('workingHours', formatCell('workingHours', days))).toEqual(days);
      }),
    );
  });

  it('reads back money in each currency’s digits, from a number or a text cell', () => {
    expect(formatCell('money', 12_345, { currency: 'EGP' })).toBe(123.45);
    expect(formatCell('money', 12_345, { currency: 'KWD' })).toBe(12.345);
    expect(formatCell('money', 12_345, { currency: 'JPY' })).toBe(12_345);
    fc.assert(
      fc.property(
        fc.integer({ min: -999_999_999_999_999, max: 999_999_999_999_999 }),
        fc.constantFrom('EGP', 'KWD', 'JPY', 'USD'),
        (minor, currency) => {
          const cell = formatCell('money', minor, { currency });
          expect(parseCell('money', cell, { currency })).toBe(minor);
          expect(parseCell('money', asCsv(cell), { currency })).toBe(minor);
        },
      ),
    );
  });

  it('reads back numbers, booleans and dates', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (number) => {
        const read = parseCell('number', asCsv(formatCell('number', number)));
        expect(Object.is(read, number) || (read === 0 && number === 0)).toBe(true);
      }),
    );
    for (const value of [true, false]) expect(parseCell('boolean', formatCell('boolean', value))).toBe(value);
    expect(parseCell('date', formatCell('date', '2026-03-01'))).toBe('2026-03-01');
    expect(parseCell('text', formatCell('text', null))).toBeNull();
  });

  it('writes RFC 4180 lines', () => {
    expect(csvLine(['a', 'b,c', 'say "hi"', 'two\nlines', 1.5, null])).toBe(
      'a,"b,c","say ""hi""","two\nlines",1.5,\r\n',
    );
  });
});
