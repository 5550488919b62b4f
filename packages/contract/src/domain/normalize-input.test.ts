import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { phoneField } from '../auth/fields.ts';
import { requestAccessInputSchema } from '../auth/schemas.ts';
import { customersResource } from '../resources/customers.ts';
import { exchangeRateInputSchema } from '../resources/exchange-rates.ts';
import { locationInputSchema } from '../resources/locations.ts';
import { taxInputSchema } from '../resources/taxes.ts';
import { validationCodes as codes } from '../validation-codes.ts';
import { normalizePhone, normalizeWebsite, parseNumberInput, toLatinDigits } from './normalize-input.ts';

const arabicIndic = '٠١٢٣٤٥٦٧٨٩';
const extendedArabicIndic = '۰۱۲۳۴۵۶۷۸۹';
const latin = '0123456789';

const digitIndex = fc.integer({ min: 0, max: 9 });
/** A digit as an Egyptian, a Persian or a Latin keyboard types it, with its Latin value. */
const anyDigit = fc
  .tuple(digitIndex, fc.constantFrom(arabicIndic, extendedArabicIndic, latin))
  .map(([index, digits]) => ({ typed: digits[index]!, latin: latin[index]! }));
/**
 * One character of typed text: any code point, or an Arabic or Latin letter, digit or sign (a
 * random code point is seldom one of those). Cheaper than fast-check's grapheme unit, whose table
 * took 2.5 s to build at rest and 5 s, over the test's limit, on a loaded machine.
 */
const typedCharacter = fc.oneof(
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  fc.constantFrom(...'ابتثجحخدذرزسشصضطظعغفقكلمنهويءآأإةى', ...'abcxyzABC XYZ', ...'+-()./،؛'),
);
const separator = fc.constantFrom(' ', '-', '.', '(', ')', '\u00a0', '\u200f', '\u2013', '');

describe('toLatinDigits', () => {
  it('maps every Arabic-Indic and Extended Arabic-Indic digit to its Latin digit', () => {
    for (let index = 0; index < 10; index += 1) {
      expect(toLatinDigits(arabicIndic[index]!)).toBe(String(index));
      expect(toLatinDigits(extendedArabicIndic[index]!)).toBe(String(index));
    }
    expect(toLatinDigits('٠١٠٠٢٣٤٥٦٧٨')).toBe('01002345678');
  });

  it('keeps any text without those digits as it is, and is idempotent', () => {
    fc.assert(
      fc.property(fc.string({ unit: typedCharacter }), (text) => {
        fc.pre(!/[\u0660-\u0669\u06f0-\u06f9]/.test(text));
        expect(toLatinDigits(text)).toBe(text);
      }),
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const once = toLatinDigits(text);
        expect(toLatinDigits(once)).toBe(once);
        expect(once).not.toMatch(/[\u0660-\u0669\u06f0-\u06f9]/);
        expect(once).toHaveLength(text.length);
      }),
    );
  });
});

describe('normalizePhone', () => {
  it.each([
    ['٠١٠٠٢٣٤٥٦٧٨', '01002345678'],
    ['+20 100 123 4567', '+201001234567'],
    ['+20-100-123-4567', '+201001234567'],
    ['(02) 2345.6789', '0223456789'],
    ['+٢٠ ١٠٠ ١٢٣ ٤٥٦٧', '+201001234567'],
    ['\u200e+20\u00a0100\u00a0123\u00a04567\u200e', '+201001234567'],
    ['01002345678', '01002345678'],
  ])('%s → %s', (typed, stored) => {
    expect(normalizePhone(typed)).toBe(stored);
  });

  it('gives the same number for any mix of digit scripts and separators', () => {
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.array(fc.tuple(separator, anyDigit), { minLength: 1, maxLength: 16 }),
        separator,
        (plus, parts, trailing) => {
          const typed = `${plus ? '+' : ''}${parts.map(([gap, digit]) => gap + digit.typed).join('')}${trailing}`;
          const expected = `${plus ? '+' : ''}${parts.map(([, digit]) => digit.latin).join('')}`;
          expect(normalizePhone(typed)).toBe(expected);
        },
      ),
    );
  });

  it('is idempotent and keeps letters, for the rule to refuse them', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const once = normalizePhone(text);
        expect(normalizePhone(once)).toBe(once);
      }),
    );
    expect(normalizePhone('+20 abc 123')).toBe('+20abc123');
  });
});

describe('normalizeWebsite', () => {
  it.each([
    ['shop.example', 'https://shop.example'],
    ['  www.shop.example/menu?q=1 ', 'https://www.shop.example/menu?q=1'],
    ['shop.example:8080', 'https://shop.example:8080'],
    ['متجر.مصر', 'https://متجر.مصر'],
    ['https://shop.example', 'https://shop.example'],
    ['http://shop.example', 'http://shop.example'],
    ['javascript:alert(1)', 'javascript:alert(1)'],
    ['ftp://files.example', 'ftp://files.example'],
    ['not a url', 'not a url'],
    ['shop', 'shop'],
    ['', ''],
  ])('%s → %s', (typed, stored) => {
    expect(normalizeWebsite(typed)).toBe(stored);
  });

  it('is idempotent, and never touches a value with a scheme but to trim it', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const once = normalizeWebsite(text);
        expect(normalizeWebsite(once)).toBe(once);
      }),
    );
    fc.assert(
      fc.property(fc.webUrl(), (url) => {
        expect(normalizeWebsite(url)).toBe(url);
      }),
    );
  });
});

describe('parseNumberInput', () => {
  it.each([
    ['١٢٫٥', 12.5],
    ['١٢٬٥٠٠٫٧٥', 12500.75],
    ['۱۵', 15],
    [' 12.5 ', 12.5],
    ['0.00000001', 0.000_000_01],
    ['.5', 0.5],
  ])('%s → %s', (typed, value) => {
    expect(parseNumberInput(typed)).toBe(value);
  });

  it('reads nothing as no value, and what is not a decimal as NaN', () => {
    expect(parseNumberInput('')).toBeUndefined();
    expect(parseNumberInput('   ')).toBeUndefined();
    for (const typed of ['abc', '0x10', '1e3', 'Infinity', '1.2.3', '١٢س']) {
      expect(parseNumberInput(typed), typed).toBeNaN();
    }
  });

  it('reads any decimal the same in Latin or Arabic-Indic digits', () => {
    fc.assert(
      fc.property(fc.nat({ max: 10 ** 9 }), fc.nat({ max: 9999 }), (whole, fraction) => {
        const text = `${whole}.${fraction}`;
        const arabic = [...text].map((char) => (char === '.' ? '٫' : arabicIndic[Number(char)])).join('');
        expect(parseNumberInput(arabic)).toBe(Number(text));
        expect(parseNumberInput(text)).toBe(Number(text));
      }),
    );
  });
});

/** The first message per path. */
function messages(result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) {
  return Object.fromEntries(
    (result.error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]),
  );
}

describe('the field schemas normalize before their rules, on both sides', () => {
  it('a phone field stores the normalized number; the 10–15 rule applies to it', () => {
    expect(phoneField.parse('+20 100 123 4567')).toBe('+201001234567');
    expect(phoneField.parse('٠١٠٠٢٣٤٥٦٧٨')).toBe('01002345678');
    expect(messages(phoneField.safeParse('+20 1oo 123 4567'))).toEqual({ '': codes.PHONE_IS_INVALID });
    expect(messages(phoneField.safeParse('٠١٢ ٣٤ ٥٦٧'))).toEqual({ '': codes.PHONE_TOO_SHORT });
  });

  it('a request for access with Arabic-Indic digits and a bare website', () => {
    const request = requestAccessInputSchema.parse({
      name: 'Sara',
      email: 'sara@shop.example',
      phone: '٠١٠٠٢٣٤٥٦٧٨',
      companyName: 'Sara Foods',
      companyWebsite: 'shop.example',
      businessCategory: 'food',
      howDidYouHearAboutUs: 'google',
    });
    expect(request).toMatchObject({ phone: '01002345678', companyWebsite: 'https://shop.example' });
  });

  it('the phones of a customer (API and form) and of a location', () => {
    const customer = { code: 'C1', name: 'Omar' };
    expect(
      customersResource.schemas.create.parse({ ...customer, phones: ['+20 100 123 4567', '+201001234567'] })
        .phones,
    ).toEqual(['+201001234567']);
    expect(
      customersResource.form!.schema.parse({
        ...customer,
        phones: [{ label: '', number: '٠١٠٠٢٣٤٥٦٧٨' }],
        brandId: '',
      }),
    ).toMatchObject({ phones: ['01002345678'] });
    const location = locationInputSchema.safeParse({
      code: 'L1',
      name: [{ locale: 'en', value: 'Main' }],
      brandId: '5a0c4b1e-1111-4a57-9a0e-6f1d1b9c2a01',
      phones: [{ label: 'Reception', number: '+20 (2) 2345-6789' }],
    });
    expect(location.data?.phones).toEqual([{ label: 'Reception', number: '+20223456789' }]);
  });

  it('number fields read typed Arabic-Indic numbers and keep their own messages', () => {
    expect(taxInputSchema.shape.rate.parse('١٤')).toBe(14);
    expect(exchangeRateInputSchema.shape.rate.parse('٣٠٫٥')).toBe(30.5);
    expect(exchangeRateInputSchema.shape.rate.parse(30.5)).toBe(30.5);
    expect(messages(taxInputSchema.shape.rate.safeParse('١٠١'))).toEqual({ '': codes.TAX_RATE_OUT_OF_RANGE });
    expect(messages(taxInputSchema.shape.rate.safeParse('abc'))).toEqual({ '': codes.TAX_RATE_OUT_OF_RANGE });
    expect(messages(exchangeRateInputSchema.shape.rate.safeParse(''))).toEqual({
      '': codes.RATE_MUST_BE_POSITIVE,
    });
  });
});
