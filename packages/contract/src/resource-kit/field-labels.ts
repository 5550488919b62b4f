import ar from '../texts/field-labels.ar.json' with { type: 'json' };
import en from '../texts/field-labels.en.json' with { type: 'json' };

/*
 * The names of the resources' fields in each language, one source for everything that names a
 * field: the web's list headers, form labels and audit entries (`resources.<key>.fields.<field>`,
 * merged into its signed-in texts) and the server's spreadsheet headers, which an import matches
 * by name in either language. `common` names the fields many resources share (code, name, status).
 * Kept out of the contract's index: the web loads one language's file with its signed-in texts.
 */

export type FieldLabelLanguage = 'en' | 'ar';

/** The field labels of one language: by resource key (and `common`), by field. */
export type FieldLabels = Record<string, Record<string, string>>;

export const fieldLabels: Record<FieldLabelLanguage, FieldLabels> = { en, ar };

/** The file holding a language's field labels (for messages that say where to add one). */
export const fieldLabelsFile = (language: FieldLabelLanguage) =>
  `packages/contract/src/texts/field-labels.${language}.json`;

const languageNames: Record<FieldLabelLanguage, Record<FieldLabelLanguage, string>> = {
  en: { en: 'English', ar: 'Arabic' },
  ar: { en: 'بالإنجليزية', ar: 'بالعربية' },
};

/** A field's label in a resource's labels or the common ones, or undefined. */
export function fieldLabelText(
  language: FieldLabelLanguage,
  resourceKey: string,
  field: string,
): string | undefined {
  const labels = fieldLabels[language];
  return labels[resourceKey]?.[field] ?? labels.common?.[field];
}

/** A field's header: its label in the resource's labels or the common ones, else the field's name. */
export function fieldHeader(language: FieldLabelLanguage, resourceKey: string, field: string): string {
  return fieldLabelText(language, resourceKey, field) ?? field;
}

/** The header of one language's column of a localized field: "Name (English)", "الاسم (بالعربية)". */
export function localizedHeader(
  language: FieldLabelLanguage,
  resourceKey: string,
  field: string,
  of: FieldLabelLanguage,
): string {
  const suffix = of === 'en' ? 'En' : 'Ar';
  return (
    fieldLabelText(language, resourceKey, `${field}${suffix}`) ??
    `${fieldHeader(language, resourceKey, field)} (${languageNames[language][of]})`
  );
}
