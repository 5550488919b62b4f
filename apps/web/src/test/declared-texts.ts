import { type FormEntry, isFormFieldGroup, type ResourceDefinition } from '@dukkan/contract';
import { fieldLabelsFile } from '@dukkan/contract/field-labels';
import type { z } from 'zod';

/** Where the signed-in app's texts are, one file per language (the fields' names: `fieldLabelsFile`). */
export const textsFile = (language: 'en' | 'ar') => `apps/web/src/i18n/locales/signed-in/${language}.json`;

/** Where a missing text goes: a field's name in the contract's labels, anything else in the web's texts. */
export const whereToAdd = (language: 'en' | 'ar') =>
  `${textsFile(language)} (a resources.<key>.fields.<field> as <key>.<field> in ${fieldLabelsFile(language)})`;

type Tree = { [key: string]: string | Tree };
export function keysOf(tree: Tree, prefix = ''): Set<string> {
  const keys = new Set<string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') keys.add(path);
    else for (const child of keysOf(value, path)) keys.add(child);
  }
  return keys;
}

/** The values of an enum field of the record schema (a column's values are shown translated). */
function enumValues(definition: ResourceDefinition, field: string): string[] {
  const schema = definition.schemas.record.shape[field] as z.ZodType & { options?: unknown[] };
  return Array.isArray(schema?.options) ? (schema.options as string[]) : [];
}

/** Every text a form's entries name: labels, hints, placeholders and fixed options' labels. */
function formTexts(entries: readonly FormEntry[]): string[] {
  return entries.flatMap((entry) =>
    isFormFieldGroup(entry)
      ? [entry.label, ...formTexts(entry.fields)].filter((text): text is string => !!text)
      : [
          entry.label,
          entry.tooltipMessage,
          entry.hint,
          entry.placeholder,
          entry.noOptionsMessage,
          ...(entry.options ?? []).map((option) => option.label),
        ].filter((text): text is string => !!text),
  );
}

/**
 * Every text a resource's declaration implies, by key: its menu title and entity name, and for a
 * resource on the generic screen its one-record name, empty list, column headers (its own or the
 * common one), enum values and form texts.
 */
function impliedTexts(definition: ResourceDefinition): (string | string[])[] {
  const own = (suffix: string) => `resources.${definition.key}.${suffix}`;
  const texts: (string | string[])[] = [`nav.${definition.key}`, own('entity')];
  if (!definition.columns && !definition.form) return texts;
  texts.push(own('one'), own('empty'));
  for (const column of definition.columns ?? []) {
    texts.push([own(`fields.${column.field}`), `resources.common.fields.${column.field}`]);
    if (column.kind === 'enum')
      for (const value of enumValues(definition, column.field))
        texts.push(own(`values.${column.field}.${value}`));
  }
  for (const filter of definition.filters) {
    texts.push([own(`fields.${filter.field}`), `resources.common.fields.${filter.field}`]);
    for (const value of filter.values ?? []) texts.push(own(`values.${filter.field}.${value}`));
  }
  texts.push(...formTexts(definition.form?.fields ?? []));
  return texts;
}

/** The texts a declaration implies that `keys` lacks, each as `a or b` where either will do. */
export function missingTexts(definition: ResourceDefinition, keys: ReadonlySet<string>): string[] {
  return impliedTexts(definition)
    .filter((text) => (Array.isArray(text) ? !text.some((key) => keys.has(key)) : !keys.has(text)))
    .map((text) => [text].flat().join(' or '));
}
