import {
  type FormField,
  type FormFieldOption,
  findResource,
  formattingLocale,
  pickLocalized,
  type ResourceDefinition,
} from '@dukkan/contract';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { ListParams } from './list-params.ts';
import { useResourceList } from './use-resource.ts';

const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const regionCodes = (): string[] => {
  const names = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
  const codes: string[] = [];
  for (const first of letters)
    for (const second of letters) {
      const code = first + second;
      // Only assigned country codes have a name; 'ZZ' (unknown region) and 'EU'/'UN' are not countries.
      if (names.of(code) !== undefined && !['ZZ', 'EU', 'EZ', 'UN', 'QO'].includes(code)) codes.push(code);
    }
  return codes;
};
let countryCodes: string[] | undefined;

const sortByLabel = (options: FormFieldOption[], locale: string) =>
  options.sort((a, b) => a.label.localeCompare(b.label, locale));

/** Every country, named in the given language and sorted by that name. */
export function countryOptions(language: string): FormFieldOption[] {
  countryCodes ??= regionCodes();
  const locale = formattingLocale(language);
  const names = new Intl.DisplayNames([locale], { type: 'region' });
  return sortByLabel(
    countryCodes.map((code) => ({ value: code, label: names.of(code) ?? code })),
    locale,
  );
}

/** Every ISO 4217 currency as 'SAR · Saudi Riyal' in the given language, sorted by code. */
export function currencyOptions(language: string): FormFieldOption[] {
  const names = new Intl.DisplayNames([formattingLocale(language)], { type: 'currency' });
  return Intl.supportedValuesOf('currency').map((code) => ({
    value: code,
    label: `${code} · ${names.of(code) ?? code}`,
  }));
}

/** A select's fixed or computed choices (countries, currencies); record choices come from `useRecordOptions`. */
export function useComputedOptions(field: FormField): readonly FormFieldOption[] {
  const { i18n } = useTranslation();
  const source = field.optionSource?.kind;
  return useMemo(() => {
    if (source === 'countries') return countryOptions(i18n.language);
    if (source === 'currencies') return currencyOptions(i18n.language);
    return field.options ?? [];
  }, [source, field.options, i18n.language]);
}

/** How a record is named: its primary column (a localized name in the current language), else its code. */
export function recordName(
  definition: ResourceDefinition,
  record: Record<string, unknown>,
  language: string,
): string {
  const primary = definition.columns?.find((column) => column.primary);
  const value = primary ? record[primary.field] : undefined;
  if (primary?.kind === 'localizedText') return pickLocalized(value as never, language);
  if (typeof value === 'string' && value) return value;
  return String(record.code ?? record.id ?? '');
}

/** The registered resource of a reference; a declaration naming an unknown one is a programming error. */
export function requireResource(key: string): ResourceDefinition {
  const definition = findResource(key);
  if (!definition) throw new Error(`Unknown resource: ${key}`);
  return definition;
}

/** The first page of a resource's records that a choice or a name is looked up in. */
export const optionListParams = (definition: ResourceDefinition): ListParams => ({
  page: 1,
  pageSize: 100,
  search: '',
  sort: definition.defaultSort,
  filters: {},
});

/**
 * The workspace's records of another resource as choices, named in the current language (the
 * first 100 in its default order; a select is no place for more).
 */
export function useRecordOptions(resourceKey: string) {
  const { i18n } = useTranslation();
  const definition = requireResource(resourceKey);
  const list = useResourceList(definition, optionListParams(definition));
  const choices = useMemo(
    () =>
      (list.data?.data ?? []).map((record) => ({
        value: record.id,
        label: recordName(definition, record as Record<string, unknown>, i18n.language),
      })),
    [list.data, definition, i18n.language],
  );
  return { options: choices, isLoading: list.isLoading, definition };
}
