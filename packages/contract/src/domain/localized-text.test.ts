import { describe, expect, it } from 'vitest';
import { joinList, pickLocalized } from './localized-text.ts';

const name = [
  { locale: 'en', value: 'Coffee' },
  { locale: 'ar', value: 'قهوة' },
];

describe('pickLocalized (spec §9)', () => {
  it('picks the entry whose locale the current language contains', () => {
    expect(pickLocalized(name, 'en')).toBe('Coffee');
    expect(pickLocalized(name, 'ar')).toBe('قهوة');
    expect(pickLocalized(name, 'en-US')).toBe('Coffee');
    expect(pickLocalized(name, 'ar-EG')).toBe('قهوة');
  });

  it('the default language is en', () => {
    expect(
      pickLocalized([
        { locale: 'ar', value: 'قهوة' },
        { locale: 'en', value: 'Coffee' },
      ]),
    ).toBe('Coffee');
  });

  it('falls back to the first entry when no locale matches', () => {
    expect(pickLocalized(name, 'fr')).toBe('Coffee');
    expect(pickLocalized([{ locale: 'ar', value: 'قهوة' }], 'en')).toBe('قهوة');
  });

  it("gives '-' for nothing to show", () => {
    expect(pickLocalized([], 'en')).toBe('-');
    expect(pickLocalized(null)).toBe('-');
    expect(pickLocalized(undefined, 'ar')).toBe('-');
    expect(pickLocalized([{ locale: 'en', value: '' }], 'en')).toBe('-');
  });

  it('an entry with an empty locale never matches', () => {
    expect(
      pickLocalized(
        [
          { locale: '', value: 'first' },
          { locale: 'ar', value: 'عربي' },
        ],
        'ar',
      ),
    ).toBe('عربي');
  });
});

describe('joinList', () => {
  it('separates Arabic texts with the Arabic comma and others with a comma', () => {
    expect(joinList(['صغير', 'أحمر'], 'ar')).toBe('صغير، أحمر');
    expect(joinList(['صغير', 'أحمر'], 'ar-EG')).toBe('صغير، أحمر');
    expect(joinList(['Small', 'Red'], 'en')).toBe('Small, Red');
    expect(joinList(['Small'], 'ar')).toBe('Small');
  });
});
