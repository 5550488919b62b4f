import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { barcodeIssue, barcodeLengths, gs1CheckDigit, normalizeBarcode, withCheckDigit } from './barcode.ts';

describe('barcodeIssue', () => {
  it('accepts no barcode', () => {
    expect(barcodeIssue('')).toBeNull();
  });

  it.each([
    ['EAN-8', '96385074'],
    ['EAN-8', '73513537'],
    ['UPC-A', '036000291452'],
    ['EAN-13', '4006381333931'],
    ['EAN-13', '5901234123457'],
    ['GTIN-14', '10614141000415'],
    ['GTIN-14', '00012345600012'],
  ])('accepts the %s %s', (_kind, barcode) => {
    expect(barcodeIssue(barcode)).toBeNull();
  });

  it('refuses a wrong check digit', () => {
    expect(barcodeIssue('4006381333932')).toBe('BARCODE_IS_INVALID');
    expect(barcodeIssue('036000291451')).toBe('BARCODE_IS_INVALID');
    expect(barcodeIssue('96385070')).toBe('BARCODE_IS_INVALID');
    expect(barcodeIssue('10614141000416')).toBe('BARCODE_IS_INVALID');
  });

  it('refuses other lengths, even with a right check digit', () => {
    for (const body of ['1', '123456', '12345678', '1234567890', '123456789012345'])
      expect(barcodeIssue(withCheckDigit(body)), body).toBe('BARCODE_IS_INVALID');
  });

  it('refuses anything but ASCII digits, spaces and Arabic-Indic digits included', () => {
    for (const value of [
      ' 4006381333931',
      '4006381333931 ',
      '400638 1333931',
      '4006381-333931',
      '40063813339a1',
      '+400638133393',
      '٤٠٠٦٣٨١٣٣٣٩٣١',
      ' ',
      '４００６３８１３３３９３１',
    ])
      expect(barcodeIssue(value), value).toBe('BARCODE_IS_INVALID');
  });
});

describe('gs1CheckDigit / withCheckDigit', () => {
  it('weighs digits 3, 1, 3… from the right', () => {
    expect(gs1CheckDigit('400638133393')).toBe(1);
    expect(gs1CheckDigit('9638507')).toBe(4);
    expect(gs1CheckDigit('0000000')).toBe(0);
    expect(withCheckDigit('03600029145')).toBe('036000291452');
  });

  it('throws on a body that is not digits', () => {
    expect(() => withCheckDigit('12a')).toThrow(RangeError);
    expect(() => withCheckDigit('')).toThrow(RangeError);
  });
});

describe('normalizeBarcode', () => {
  it('trims and turns Arabic-Indic and Eastern Arabic-Indic digits into ASCII', () => {
    expect(normalizeBarcode('  ٤٠٠٦٣٨١٣٣٣٩٣١ ')).toBe('4006381333931');
    expect(normalizeBarcode('۹۶۳۸۵۰۷۴')).toBe('96385074');
    expect(normalizeBarcode('0123456789')).toBe('0123456789');
    expect(barcodeIssue(normalizeBarcode('٤٠٠٦٣٨١٣٣٣٩٣١'))).toBeNull();
  });
});

/** A body for one of the accepted lengths: one digit short of it. */
const bodyArbitrary = fc
  .constantFrom(...barcodeLengths)
  .chain((length) =>
    fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: length - 1, maxLength: length - 1 }),
  );

describe('barcode properties', () => {
  it('every body with its check digit is accepted', () => {
    fc.assert(
      fc.property(bodyArbitrary, (body) => {
        expect(barcodeIssue(withCheckDigit(body))).toBeNull();
      }),
    );
  });

  it('changing any single digit of a valid barcode makes it refused', () => {
    fc.assert(
      fc.property(bodyArbitrary, fc.nat(), fc.integer({ min: 1, max: 9 }), (body, at, shift) => {
        const barcode = withCheckDigit(body);
        const position = at % barcode.length;
        const digit = (Number(barcode[position]) + shift) % 10;
        const changed = `${barcode.slice(0, position)}${digit}${barcode.slice(position + 1)}`;
        expect(changed).not.toBe(barcode);
        expect(barcodeIssue(changed)).toBe('BARCODE_IS_INVALID');
      }),
    );
  });

  it('refuses every string of digits of another length', () => {
    const digits = fc.string({ unit: fc.constantFrom(...'0123456789'), maxLength: 30 });
    fc.assert(
      fc.property(
        digits.filter((value) => value !== '' && !barcodeLengths.includes(value.length)),
        (value) => {
          expect(barcodeIssue(value)).toBe('BARCODE_IS_INVALID');
        },
      ),
    );
  });

  it('exactly one check digit of the ten makes a body valid', () => {
    fc.assert(
      fc.property(bodyArbitrary, (body) => {
        const accepted = [...'0123456789'].filter((check) => barcodeIssue(`${body}${check}`) === null);
        expect(accepted).toEqual([String(gs1CheckDigit(body))]);
      }),
    );
  });
});
