import { describe, expect, it } from 'vitest';
import ar from './locales/ar.json';
import en from './locales/en.json';
import signedInAr from './locales/signed-in/texts-ar.ts';
import signedInEn from './locales/signed-in/texts-en.ts';

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

/** `{{value}}`, `{value}` (a SKU pattern's tokens), `$t(nested)` and `<tags>`: not words of a language. */
const withoutPlaceholders = (text: string) => text.replace(/{{[^}]*}}|{[^}]*}|\$t\([^)]*\)|<\/?\w+>/g, ' ');

/**
 * Latin words an Arabic text may hold: names of standards and formats, the product's name, the
 * card payments' provider (a brand, written as its payers see it on its page), and the example
 * address of a placeholder. Anything else in Latin letters is English left untranslated.
 */
const latinInArabic = new Set([
  'SKU',
  'CSV',
  'XLSX',
  'UTF',
  'Windows',
  'EAN',
  'UPC',
  'GTIN',
  'PNG',
  'JPEG',
  'GIF',
  'WebP',
  'AVIF',
  'Dukkan',
  'Stripe',
  'https',
  'example.com',
]);

/**
 * Texts that are the same in every language (a name, a number, an address) or whose example is in
 * Latin letters on purpose (a line of values in both languages, a code).
 */
const latinOnPurpose = new Set([
  'app.altName',
  'languages.en',
  'notFound.code',
  'auth.requestAccess.companyWebsitePlaceholder',
  'resources.variationTypes.valuesPlaceholder',
  'resources.variationValues.codeHint',
]);

/** What makes an Arabic text not Arabic: no Arabic letter where English has words, or English words in it. */
function notArabic(english: string, arabic: string): string | null {
  const words = withoutPlaceholders(arabic);
  const latin = (words.match(/[A-Za-z][A-Za-z.-]*[A-Za-z]|[A-Za-z]/g) ?? []).filter(
    (word) => !latinInArabic.has(word),
  );
  if (latin.length > 0) return `English words: ${latin.join(' ')}`;
  if (/[A-Za-z]/.test(withoutPlaceholders(english)) && !/[\u0600-\u06FF]/.test(words))
    return 'no Arabic letter';
  return null;
}

describe('notArabic', () => {
  it('finds an English sentence left in Arabic, and English words inside an Arabic one', () => {
    expect(notArabic('Save', 'Save')).toMatch(/English words/);
    expect(notArabic('Save changes', 'حفظ changes')).toMatch(/changes/);
    expect(notArabic('Saved {{count}}', '{{count}}')).toBe('no Arabic letter');
  });

  it('lets placeholders, standards and formats through', () => {
    expect(notArabic('{{name}} was saved', 'تم حفظ {{name}}')).toBeNull();
    expect(notArabic('SKU pattern: {code}-{n}', 'نمط SKU: {code}-{n}')).toBeNull();
    expect(notArabic('{{action}}: {{name}}', '{{action}}: {{name}}')).toBeNull();
  });
});

describe('locales', () => {
  // One namespace in two files, merged key by key as i18next adds the second (`validation` is in both).
  const english = new Map([...flatten(en), ...flatten(signedInEn)]);
  const arabic = new Map([...flatten(ar), ...flatten(signedInAr)]);

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

  it('the public and the signed-in files share no text (i18next adds the second key by key)', () => {
    // A section may be in both (`validation`: the import's and the card payment's messages are
    // said only once signed in, so that /login does not download them), never one of its texts.
    const signedIn = flatten(signedInEn);
    expect([...flatten(en).keys()].filter((key) => signedIn.has(key))).toEqual([]);
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

  it('every Arabic text is Arabic: no English left in it', () => {
    const found: string[] = [];
    for (const [key, text] of arabic) {
      if (latinOnPurpose.has(key)) continue;
      const base = pluralForm.test(key) ? key.replace(pluralForm, '_other') : key;
      const problem = notArabic(english.get(base) ?? english.get(key) ?? '', text);
      if (problem) found.push(`${key}: ${problem}`);
    }
    expect(found).toEqual([]);
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

  it("says the phone number's lengths in what the rule counts: digits, a leading + as one", async () => {
    const { limits, phoneField, validationCodes: codes } = await import('@dukkan/contract');
    const digits = (count: number) => '٠١٢٣٤٥٦٧٨٩0123456789'.slice(0, count);
    const refusal = (phone: string) => phoneField.safeParse(phone).error?.issues[0]?.message;
    // Separators are not counted; a leading + is.
    expect(refusal(`(${digits(3)}) ${digits(limits.phoneMin - 5)}-0`)).toBe(codes.PHONE_TOO_SHORT);
    expect(refusal(`+${digits(limits.phoneMin - 1)}`)).toBeUndefined();
    expect(refusal(`+${digits(limits.phoneMax)}`)).toBe(codes.PHONE_TOO_LONG);
    expect(english.get('validation.PHONE_TOO_SHORT')).toContain(`at least ${limits.phoneMin} digits`);
    expect(english.get('validation.PHONE_TOO_LONG')).toContain(`at most ${limits.phoneMax} digits`);
    expect(arabic.get('validation.PHONE_TOO_SHORT')).toContain(`${limits.phoneMin} أرقام`);
    expect(arabic.get('validation.PHONE_TOO_LONG')).toContain(`${limits.phoneMax} رقمًا`);
    for (const texts of [english, arabic])
      for (const code of ['PHONE_TOO_SHORT', 'PHONE_TOO_LONG'])
        expect(texts.get(`validation.${code}`)).toContain('+');
  });

  it("has a message for every code of an import's column mapping, in both languages and only once signed in", async () => {
    const { importMappingCodes } = await import('@dukkan/contract');
    const publicTexts = flatten({ ...en });
    for (const code of Object.keys(importMappingCodes)) {
      for (const texts of [english, arabic])
        expect(texts.has(`resourceList.import.mapping.${code}`), code).toBe(true);
      // Said only in the import dialog: the sign-in page does not download it.
      expect(
        [...publicTexts.keys()].some((key) => key.endsWith(code)),
        code,
      ).toBe(false);
    }
  });

  it('has a message for every validation code of the contract', async () => {
    const { validationCodes } = await import('@dukkan/contract');
    for (const code of Object.keys(validationCodes))
      expect(english.has(`validation.${code}`), code).toBe(true);
  });
});
