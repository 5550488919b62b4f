import { afterEach, describe, expect, it, vi } from 'vitest';
import { languageCookie, languageDetector } from './i18n.ts';
import { defaultLanguage, firstSupportedLanguage } from './languages.ts';

describe('the first supported language of a list', () => {
  it.each([
    [['fr', 'ar'], 'ar'],
    [['fr-CA', 'en-GB'], 'en'],
    [['de'], defaultLanguage],
    [['ar-EG', 'en'], 'ar'],
    [['', undefined, null, 'AR'], 'ar'],
    [[], defaultLanguage],
  ])('%j → %s', (candidates, expected) => {
    expect(firstSupportedLanguage(candidates)).toBe(expected);
  });
});

describe('the language detector (spec §9)', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    window.localStorage.clear();
    window.sessionStorage.clear();
    document.documentElement.removeAttribute('lang');
  });

  /** Detects with nothing chosen before (no query, cookie or storage) and this browser's list. */
  function detectFor(browser: string[]) {
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(browser);
    vi.spyOn(navigator, 'language', 'get').mockReturnValue(browser[0] ?? '');
    document.documentElement.removeAttribute('lang');
    return languageDetector.detect();
  }

  it('takes the first language of the browser that the product has, not only the first', () => {
    expect(detectFor(['fr', 'ar'])).toBe('ar');
    expect(detectFor(['fr-CA', 'en-GB'])).toBe('en');
    expect(detectFor(['de'])).toBe(defaultLanguage);
    expect(detectFor(['ar-EG', 'en-US'])).toBe('ar');
  });

  it('a language chosen before (local storage) still comes before the browser', () => {
    window.localStorage.setItem('i18nextLng', 'en');
    expect(detectFor(['ar'])).toBe('en');
  });

  it('keeps the chosen language in local storage and in the cookie the server reads', () => {
    languageDetector.cacheUserLanguage?.('ar');
    expect(window.localStorage.getItem('i18nextLng')).toBe('ar');
    expect(document.cookie).toMatch(new RegExp(`(?:^|;\\s*)${languageCookie}=ar(?:;|$)`));
    // Not the cookie the detector reads first: local storage still decides the next start.
    expect(document.cookie).not.toMatch(/(?:^|;\s*)i18next=/);
    window.localStorage.setItem('i18nextLng', 'en');
    expect(detectFor(['ar'])).toBe('en');
    // biome-ignore lint/suspicious/noDocumentCookie: the test forgets the cookie it made
    document.cookie = `${languageCookie}=; path=/; max-age=0`;
  });
});
