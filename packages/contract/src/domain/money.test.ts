import { describe, expect, it } from 'vitest';
import { formatMoney, minorUnitDigits } from './money.ts';

/** Intl separates the currency with a no-break space; the tests read it as a plain one. */
const plain = (text: string) => text.replace(/\u00a0/g, ' ');

describe('formatMoney', () => {
  it("formats minor units with the currency's own fraction digits", () => {
    expect(minorUnitDigits('EGP')).toBe(2);
    expect(minorUnitDigits('KWD')).toBe(3);
    expect(minorUnitDigits('JPY')).toBe(0);
    expect(plain(formatMoney(213_750, 'EGP', 'en'))).toBe('EGP 2,137.50');
    expect(plain(formatMoney(5, 'EGP', 'en'))).toBe('EGP 0.05');
    expect(plain(formatMoney(1_234_567, 'KWD', 'en'))).toBe('KWD 1,234.567');
    expect(plain(formatMoney(1500, 'JPY', 'en'))).toBe('¥1,500');
    expect(plain(formatMoney(-250, 'USD', 'en'))).toBe('-$2.50');
  });

  it('is exact for amounts a division by 100 would round', () => {
    expect(plain(formatMoney(900_719_925_474_099, 'USD', 'en'))).toBe('$9,007,199,254,740.99');
  });

  it('uses Arabic-Egypt digits and separators in Arabic', () => {
    expect(formatMoney(213_750, 'EGP', 'ar')).toContain('٢٬١٣٧٫٥٠');
  });
});
