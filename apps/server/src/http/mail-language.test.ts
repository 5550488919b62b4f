import { describe, expect, it } from 'vitest';
import { recipientLanguage } from './mail-language.ts';

describe('recipientLanguage: saved, else the causer’s, else en', () => {
  it.each([
    { recipient: 'ar', causer: 'en', mailed: 'ar' },
    { recipient: 'en', causer: 'ar', mailed: 'en' },
    { recipient: null, causer: 'ar', mailed: 'ar' },
    { recipient: undefined, causer: 'en', mailed: 'en' },
    { recipient: 'ar', causer: null, mailed: 'ar' },
    { recipient: null, causer: null, mailed: 'en' },
    { recipient: undefined, causer: undefined, mailed: 'en' },
  ] as const)('recipient $recipient, causer $causer → $mailed', ({ recipient, causer, mailed }) => {
    expect(recipientLanguage({ recipient, causer })).toBe(mailed);
  });
});
