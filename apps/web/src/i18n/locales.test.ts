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

/** i18next's plural suffixes: `daysLeft_one`, `daysLeft_few`… (Intl's categories). */
const pluralForm = /_(zero|one|two|few|many|other)$/;

/**
 * The keys of a language with each plural group as its one base key, and the plural forms it
 * gives each group. Arabic has six forms where English has two, so only the bases can match.
 */
function pluralGroups(keys: Iterable<string>) {
  const bases = new Set<string>();
  const forms = new Map<string, string[]>();
  for (const key of keys) {
    const form = pluralForm.exec(key)?.[1];
    const base = form ? key.slice(0, -form.length - 1) : key;
    bases.add(base);
    if (form) forms.set(base, [...(forms.get(base) ?? []), form].sort());
  }
  return { bases: [...bases].sort(), forms };
}

/** The plural forms a language needs (`Intl.PluralRules`): en one/other, ar all six. */
const formsOf = (language: string) =>
  [...new Intl.PluralRules(language).resolvedOptions().pluralCategories].sort();

describe('locales', () => {
  const english = flatten({ ...en, ...signedInEn });
  const arabic = flatten({ ...ar, ...signedInAr });

  it('ar.json has exactly the keys of en.json, in both files (a plural group counting as one key)', () => {
    expect(pluralGroups(flatten(ar).keys()).bases).toEqual(pluralGroups(flatten(en).keys()).bases);
    expect(pluralGroups(flatten(signedInAr).keys()).bases).toEqual(
      pluralGroups(flatten(signedInEn).keys()).bases,
    );
  });

  it("gives every plural group exactly the forms of each language's plural rules", () => {
    for (const [language, texts] of [
      ['en', english],
      ['ar', arabic],
    ] as const) {
      for (const [base, forms] of pluralGroups(texts.keys()).forms)
        expect(forms, `${language}: ${base}`).toEqual(formsOf(language));
    }
  });

  it('the public and the signed-in files share no top-level section (one would hide the other)', () => {
    const shared = Object.keys(en).filter((section) => section in signedInEn);
    expect(shared).toEqual([]);
  });

  it('every text is filled in, with the same placeholders in both languages', () => {
    for (const [key, text] of english) {
      if (pluralForm.test(key)) continue;
      const translated = arabic.get(key) ?? '';
      expect(text.trim(), key).not.toBe('');
      expect(translated.trim(), key).not.toBe('');
      expect(interpolations(translated), key).toEqual(interpolations(text));
    }
  });

  it("fills in every plural form, using only the placeholders of English's general form", () => {
    for (const [base] of pluralGroups(english.keys()).forms) {
      const allowed = new Set(interpolations(english.get(`${base}_other`) ?? ''));
      for (const texts of [english, arabic])
        for (const [key, text] of texts) {
          if (!key.startsWith(`${base}_`) || !pluralForm.test(key)) continue;
          expect(text.trim(), key).not.toBe('');
          // A form may leave the number out ('بقي يومان': two days left) but say nothing else.
          expect(
            interpolations(text).filter((name) => !allowed.has(name)),
            key,
          ).toEqual([]);
        }
    }
  });

  it('has a message for every reason the subscription lifecycle refuses an event, in both languages', async () => {
    const { subscriptionRefusals } = await import('@dukkan/contract');
    for (const reason of subscriptionRefusals)
      for (const texts of [english, arabic])
        expect(texts.has(`subscriptions.refusals.${reason}`), reason).toBe(true);
  });

  it('has a message for every validation code of the contract', async () => {
    const { validationCodes } = await import('@dukkan/contract');
    for (const code of Object.keys(validationCodes))
      expect(english.has(`validation.${code}`), code).toBe(true);
  });
});
