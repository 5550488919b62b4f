import { describe, expect, it } from 'vitest';
import ar from './locales/ar.json';
import en from './locales/en.json';
import signedInAr from './locales/signed-in/ar.json';
import signedInEn from './locales/signed-in/en.json';

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const entries = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') entries.set(path, value);
    else for (const [child, text] of flatten(value, path)) entries.set(child, text);
  }
  return entries;
}

/** `{{values}}` and `<tags>` (for <Trans>) a translation must keep. */
const interpolations = (text: string) =>
  [...text.matchAll(/{{\s*(\w+)\s*}}|<\/?(\w+)>/g)].map((match) => match[0].replace(/\s/g, '')).sort();

describe('locales', () => {
  const english = flatten({ ...en, ...signedInEn });
  const arabic = flatten({ ...ar, ...signedInAr });

  it('ar.json has exactly the keys of en.json, in both files', () => {
    expect([...flatten(ar).keys()].sort()).toEqual([...flatten(en).keys()].sort());
    expect([...flatten(signedInAr).keys()].sort()).toEqual([...flatten(signedInEn).keys()].sort());
  });

  it('the public and the signed-in files share no top-level section (one would hide the other)', () => {
    const shared = Object.keys(en).filter((section) => section in signedInEn);
    expect(shared).toEqual([]);
  });

  it('every text is filled in, with the same placeholders in both languages', () => {
    for (const [key, text] of english) {
      const translated = arabic.get(key) ?? '';
      expect(text.trim(), key).not.toBe('');
      expect(translated.trim(), key).not.toBe('');
      expect(interpolations(translated), key).toEqual(interpolations(text));
    }
  });

  it('has a message for every validation code of the contract', async () => {
    const { validationCodes } = await import('@dukkan/contract');
    for (const code of Object.keys(validationCodes))
      expect(english.has(`validation.${code}`), code).toBe(true);
  });
});
