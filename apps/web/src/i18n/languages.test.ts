import { describe, expect, it } from 'vitest';
import { applyDocumentLanguage, resolveLanguage } from './languages.ts';

describe('languages', () => {
  it('maps regional and unknown codes onto a supported language', () => {
    expect(resolveLanguage('ar-EG').code).toBe('ar');
    expect(resolveLanguage('fr').code).toBe('en');
    expect(resolveLanguage(undefined).code).toBe('en');
  });

  it('sets <html lang dir> from languages.ts', () => {
    const root = document.createElement('html');
    applyDocumentLanguage('ar', root);
    expect([root.lang, root.dir]).toEqual(['ar', 'rtl']);
    applyDocumentLanguage('en', root);
    expect([root.lang, root.dir]).toEqual(['en', 'ltr']);
  });
});
