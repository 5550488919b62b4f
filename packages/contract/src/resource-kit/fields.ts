import { z } from 'zod';
import { currencyCodes } from '../domain/countries-and-currencies.ts';
import { maxMoneyMinorUnits } from '../domain/money.ts';
import { normalizeCode } from '../domain/normalize-code.ts';
import { parseNumberInput } from '../domain/normalize-input.ts';
import { lazySchema } from '../lazy-schema.ts';
import { textField } from '../text-field.ts';
import { validationCodes as codes, type ValidationCode } from '../validation-codes.ts';

/*
 * Field rules of the catalogue (spec §5): codes and titles under 60, descriptions under 255.
 *
 * A code is normalized (`normalizeCode`) before its rules, so the 60 characters are counted, and
 * uniqueness is decided, on what is stored. It may be left out or empty: the server then assigns
 * the next code of the resource's sequence (`codePrefix`), on create and on an update that empties it.
 */
export const codeField = lazySchema(() =>
  textField(codes.CODE_IS_REQUIRED).overwrite(normalizeCode).max(60, codes.CODE_TOO_LONG).optional(),
);

export const titleField = lazySchema(() =>
  textField(codes.TITLE_IS_REQUIRED).trim().min(1, codes.TITLE_IS_REQUIRED).max(60, codes.TITLE_TOO_LONG),
);

export const idField = lazySchema(() => z.uuid());
export const timestampField = lazySchema(() => z.string());
/** A record that can be switched off is `active` or `inactive` (design brief §3). */
export const recordStatuses = ['active', 'inactive'] as const;
export type RecordStatus = (typeof recordStatuses)[number];
export const recordStatusField = lazySchema(() => z.enum(recordStatuses, { error: codes.STATUS_IS_INVALID }));

export const locales = ['en', 'ar'] as const;
export type Locale = (typeof locales)[number];

/** The rules of one localized text: its codes, and the length each language's value may have. */
interface LocalizedTextRules {
  /** No language given, or a value left blank. */
  required: ValidationCode;
  tooLong: ValidationCode;
  /** A language given twice. */
  repeated: ValidationCode;
  maxLength: number;
}

const nameRules: LocalizedTextRules = {
  required: codes.NAME_IS_REQUIRED,
  tooLong: codes.NAME_TOO_LONG,
  repeated: codes.NAME_LOCALE_REPEATED,
  maxLength: 60,
};
const titleRules: LocalizedTextRules = {
  required: codes.TITLE_IS_REQUIRED,
  tooLong: codes.TITLE_TOO_LONG,
  repeated: codes.TITLE_LOCALE_REPEATED,
  maxLength: 60,
};
const descriptionRules: LocalizedTextRules = {
  required: codes.DESCRIPTION_IS_REQUIRED,
  tooLong: codes.DESCRIPTION_TOO_LONG,
  repeated: codes.DESCRIPTION_LOCALE_REPEATED,
  maxLength: 254,
};

/**
 * A text in English, in Arabic or in both (an Arabic-only shop names its records in Arabic):
 * `[{ locale, value }]`, at least one entry, each language once, each value 1–`maxLength`
 * characters. Shown in the reader's language, else the other (`pickLocalized`, spec §9).
 */
function localizedTextField(rules: LocalizedTextRules) {
  return lazySchema(() =>
    z
      .array(
        z.strictObject({
          locale: z.enum(locales, { error: rules.required }),
          value: textField(rules.required).trim().min(1, rules.required).max(rules.maxLength, rules.tooLong),
        }),
        { error: rules.required },
      )
      .min(1, rules.required)
      .max(locales.length, rules.repeated)
      .superRefine((texts, context) => {
        if (new Set(texts.map((text) => text.locale)).size !== texts.length) {
          context.addIssue({ code: 'custom', message: rules.repeated });
        }
      }),
  );
}

/** A record's name (1–60 characters a language): `localizedTextField`'s rules. */
export const localizedNameField = localizedTextField(nameRules);
/** A tax's title, like a name (1–60 characters a language), with the title's codes. */
export const localizedTitleField = localizedTextField(titleRules);
/** A category's description (1–254 characters a language), with the description's codes. */
export const localizedDescriptionField = localizedTextField(descriptionRules);
export type LocalizedName = z.infer<typeof localizedNameField>;

/** A stored localized text as a record carries it: the languages it has, `[{ locale, value }]`. */
export const localizedTextRecordField = lazySchema(() =>
  z.array(z.object({ locale: z.enum(locales), value: z.string() })),
);
/** A stored localized name (`localizedTextRecordField`). */
export const localizedNameRecordField = localizedTextRecordField;

/**
 * The same rules for a form, which edits one text box per language (`name.en`, `name.ar`): either
 * box may stay empty but not both, and then the `required` code lands under the first box (`en`).
 * The output is the `[{ locale, value }]` list of the filled boxes.
 */
function localizedTextFormField(rules: LocalizedTextRules) {
  return lazySchema(() => {
    const box = textField(rules.required).trim().max(rules.maxLength, rules.tooLong).default('');
    return z
      .object({ en: box, ar: box })
      .superRefine((text, context) => {
        if (!text.en && !text.ar) {
          context.addIssue({ code: 'custom', path: ['en'], message: rules.required });
        }
      })
      .transform(
        (text): LocalizedName =>
          locales.flatMap((locale) => (text[locale] ? [{ locale, value: text[locale] }] : [])),
      );
  });
}

export const localizedNameFormField = localizedTextFormField(nameRules);
export const localizedTitleFormField = localizedTextFormField(titleRules);
export const localizedDescriptionFormField = localizedTextFormField(descriptionRules);

/** A stored localized text (a name, a title, a description) as the form's `{ en, ar }` values. */
export function localizedTextFormValues(text: readonly { locale: string; value: string }[] | undefined) {
  const inLanguage = (locale: Locale) => text?.find((entry) => entry.locale === locale)?.value ?? '';
  return { en: inLanguage('en'), ar: inLanguage('ar') };
}
/** A stored localized name as the form's `{ en, ar }` values (`localizedTextFormValues`). */
export const localizedNameFormValues = localizedTextFormValues;

/**
 * A number that may come as typed text (`'١٢٫٥'`, `'12.5'`): read by `parseNumberInput` (Arabic-Indic
 * digits and separators, '' as no value), then `schema`'s rules, whose messages stay the field's own.
 */
export const typedNumber = <T extends z.ZodType<number>>(schema: T) =>
  z.preprocess((value) => (typeof value === 'string' ? parseNumberInput(value) : value), schema);

/**
 * An amount of money as the API carries it: whole minor units of the workspace's base currency,
 * from 0 to `maxMoneyMinorUnits`. Typed text becomes minor units in the form (`parseMoneyInput`,
 * which knows the currency's digits); the wire never carries a decimal.
 */
export const moneyField = lazySchema(() =>
  z
    .number({ error: codes.MONEY_IS_INVALID })
    .int(codes.MONEY_IS_INVALID)
    .min(0, codes.MONEY_IS_NEGATIVE)
    .max(maxMoneyMinorUnits, codes.MONEY_TOO_LARGE),
);

/** A form's empty choice ('' from a select, or nothing) is `null` for a nullable field. */
export const emptyAsNull = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === '' || value === undefined ? null : value), schema.nullable());

const currentCurrencies: ReadonlySet<string> = new Set(currencyCodes);
/**
 * An ISO 4217 currency code in use today, e.g. `SAR`: one of `currencyCodes`, so a withdrawn code
 * (HRK, ZWL, SLL, ANG) that the runtime's `Intl` still knows is refused as well.
 */
export const currencyField = lazySchema(() =>
  z
    .string({ error: codes.CURRENCY_IS_INVALID })
    .regex(/^[A-Z]{3}$/, codes.CURRENCY_IS_INVALID)
    .refine((code) => currentCurrencies.has(code), codes.CURRENCY_IS_INVALID),
);

// Made at the first check: loading the runtime's region names takes ~15 ms.
let regionNames: Intl.DisplayNames | undefined;
function isCountryCode(code: string): boolean {
  regionNames ??= new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
  return regionNames.of(code) !== undefined;
}
/** An ISO 3166-1 alpha-2 country code, e.g. `SA`. */
export const countryField = lazySchema(() =>
  z
    .string({ error: codes.COUNTRY_IS_INVALID })
    // Aborts: `Intl.DisplayNames` throws on anything but a well-formed code.
    .regex(/^[A-Z]{2}$/, { message: codes.COUNTRY_IS_INVALID, abort: true })
    .refine(isCountryCode, codes.COUNTRY_IS_INVALID),
);

/** The latest time zone on Earth (the Line Islands, Kiribati): UTC+14. */
const latestUtcOffsetMs = 14 * 60 * 60 * 1000;

/**
 * Today's date (`YYYY-MM-DD`) where it is latest on Earth, UTC+14: nobody's today is after it, so
 * a date up to it is in nobody's future, whatever the time zone of who typed it.
 */
export function latestToday(now: Date = new Date()): string {
  return new Date(now.getTime() + latestUtcOffsetMs).toISOString().slice(0, 10);
}

/**
 * A calendar date, `YYYY-MM-DD`, not after today (`latestToday`): a date field of a form (a
 * brand's creation, a location's opening) offers no later day, and the API refuses one as well.
 */
export const dateField = lazySchema(() =>
  z.iso.date({ error: codes.DATE_IS_INVALID }).refine((day) => day <= latestToday(), codes.DATE_IN_FUTURE),
);

/** Where uploaded files are served; an uploaded image's URL starts with it. */
export const filesPathPrefix = '/files/';

/** The extensions the upload route names a stored image with (told from its content). */
export const storedImageExtensions = ['png', 'jpg', 'gif', 'webp', 'avif'] as const;

const uuidPattern = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
/**
 * The one shape of a stored file's URL, as the upload route returns it:
 * `/files/<workspace id>/<random id>.<extension>`, on the app's own origin (where the local store
 * is served). Nothing else matches: no other origin or scheme, no query, no `.`/`..` segment, no
 * percent-encoding, no backslash.
 */
const storedFileUrlPattern = new RegExp(
  `^${filesPathPrefix}(${uuidPattern})/(${uuidPattern}\\.(?:${storedImageExtensions.join('|')}))$`,
);

/** The workspace and file name of a URL the upload route returned, or null for any other string. */
export function parseStoredFileUrl(url: string): { workspaceId: string; name: string } | null {
  const match = storedFileUrlPattern.exec(url);
  return match ? { workspaceId: match[1]!, name: match[2]! } : null;
}

/**
 * An image: only the URL of a file Dukkan stored. A URL elsewhere, or one that resolves somewhere
 * else on this origin (`/files/../api/auth/logout`), would be fetched by every colleague's browser
 * that shows it.
 */
export const imageUrlField = lazySchema(() =>
  z
    .string({ error: codes.URL_IS_INVALID })
    .refine((url) => parseStoredFileUrl(url) !== null, codes.URL_IS_INVALID),
);

/** An image field of a form holds a list of URLs (spec §3 imageUpload); a single image is its first. */
export const singleImageFormField = lazySchema(() =>
  z
    .array(imageUrlField)
    .max(1, codes.ONE_IMAGE_ONLY)
    .default([])
    .transform((urls) => urls[0] ?? null),
);

/** A reference to another record of the workspace (the server checks it is the workspace's). */
export const referenceField = lazySchema(() => z.uuid({ error: codes.REFERENCE_NOT_FOUND }));
