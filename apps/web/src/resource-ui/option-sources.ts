import {
  countryOptions,
  currencyOptions,
  type FormField,
  type FormFieldOption,
  findResource,
  localDate,
  numberFormat,
  pickLocalized,
  type ResourceDefinition,
  timeZoneLabel,
  timeZoneOptions,
} from '@dukkan/contract';
import type { TFunction } from 'i18next';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { languageCodes, resolveLanguage } from '../i18n/languages.ts';
import type { ListParams } from './list-params.ts';
import { useResourceAccess, useResourceList } from './use-resource.ts';

// The ~420 time zones take 100–200 ms to label: once per language and day (their offsets change
// with the clocks), kept for the page's life.
const timeZoneChoices = new Map<string, FormFieldOption[]>();
function cachedTimeZoneOptions(language: string): FormFieldOption[] {
  const key = `${language} ${localDate(new Date(), 'UTC')}`;
  let options = timeZoneChoices.get(key);
  if (!options) {
    options = timeZoneOptions(language);
    timeZoneChoices.set(key, options);
  }
  return options;
}

/** The values of a field's current value (one, or a list). */
const storedValues = (current: unknown): string[] =>
  (Array.isArray(current) ? current : [current]).filter(
    (value): value is string => typeof value === 'string' && value !== '',
  );

/**
 * A select's fixed or computed choices (countries, currencies, time zones) in `language`, with
 * `stored` values the list lacks offered too (a withdrawn currency of an older record), so a form
 * shows them and does not lose them.
 */
export function computedOptions(
  field: FormField,
  language: string,
  stored: readonly string[] = [],
): readonly FormFieldOption[] {
  switch (field.optionSource?.kind) {
    case 'countries':
      return countryOptions(language, stored);
    case 'currencies':
      return currencyOptions(language, stored);
    case 'timeZones': {
      const options = cachedTimeZoneOptions(language);
      const missing = stored.filter((value) => !options.some((option) => option.value === value));
      return missing.length === 0
        ? options
        : [...options, ...missing.map((value) => ({ value, label: timeZoneLabel(value, language) }))];
    }
    default:
      return field.options ?? [];
  }
}

/**
 * How a computed choice is named in `language` (its label, an i18n key or ready text), without
 * making the whole list where one name is enough (a time zone); the value itself when unknown.
 */
export function computedOptionLabel(field: FormField, value: string, language: string): string {
  if (field.optionSource?.kind === 'timeZones') return timeZoneLabel(value, language);
  return computedOptions(field, language, [value]).find((option) => option.value === value)?.label ?? value;
}

/**
 * A select's fixed or computed choices (countries, currencies, time zones); record choices come
 * from `useRecordOptions`. The field's current value stays offered when the list no longer has
 * it (see `computedOptions`).
 */
export function useComputedOptions(field: FormField, current?: unknown): readonly FormFieldOption[] {
  const { i18n } = useTranslation();
  const stored = storedValues(current);
  const storedKey = stored.join();
  // biome-ignore lint/correctness/useExhaustiveDependencies: `storedKey` stands for `stored`, a new array each render.
  return useMemo(() => computedOptions(field, i18n.language, stored), [field, i18n.language, storedKey]);
}

/**
 * What a country or currency is also found by when choices are searched: its name in the other
 * languages of the product ("Egyptian Pound" from the Arabic UI, "جنيه" from the English), by value.
 */
export function useOptionSearchTexts(field: FormField): ReadonlyMap<string, string> | undefined {
  const { i18n } = useTranslation();
  const source = field.optionSource?.kind;
  return useMemo(() => {
    const options =
      source === 'countries' ? countryOptions : source === 'currencies' ? currencyOptions : null;
    if (!options) return undefined;
    const texts = new Map<string, string>();
    const current = resolveLanguage(i18n.language).code;
    for (const language of languageCodes.filter((code) => code !== current))
      for (const option of options(language))
        texts.set(option.value, `${texts.get(option.value) ?? ''} ${option.label}`.trim());
    return texts;
  }, [source, i18n.language]);
}

/**
 * How a record is named: its primary column (a localized name in the current language, a number
 * as its cell writes it: invoice 1), else its code.
 */
export function recordName(
  definition: ResourceDefinition,
  record: Record<string, unknown>,
  language: string,
): string {
  const primary = definition.columns?.find((column) => column.primary);
  const value = primary ? record[primary.field] : undefined;
  if (primary?.kind === 'localizedText') return pickLocalized(value as never, language);
  if (primary?.kind === 'number' && typeof value === 'number')
    return numberFormat(language, { maximumFractionDigits: 6 }).format(value);
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

/** A record of a tree as a choice: its id, its name, and its parent's id (null at the top). */
export interface TreeNode {
  value: string;
  label: string;
  parent: string | null;
}

/** What a tree level is indented by in a choice's label (no-break spaces: a select keeps them). */
const treeIndent = '\u00a0\u00a0\u00a0';

/**
 * A tree's records as choices: each under its parent, in the given order among siblings, its
 * label indented by its depth; `leaveOut` and its descendants are left out. A record whose
 * parent is not among the records starts a branch of its own, and records of a loop already
 * stored still appear, once each.
 */
export function treeOptions(nodes: readonly TreeNode[], leaveOut?: string | null): FormFieldOption[] {
  const known = new Set(nodes.map((node) => node.value));
  const children = new Map<string | null, TreeNode[]>();
  for (const node of nodes) {
    const parent = node.parent !== null && known.has(node.parent) ? node.parent : null;
    children.set(parent, [...(children.get(parent) ?? []), node]);
  }
  const skipped = new Set<string>();
  const pending = leaveOut ? [leaveOut] : [];
  for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
    if (skipped.has(id)) continue;
    skipped.add(id);
    for (const child of children.get(id) ?? []) pending.push(child.value);
  }
  const options: FormFieldOption[] = [];
  const visit = (node: TreeNode, depth: number) => {
    if (skipped.has(node.value)) return;
    skipped.add(node.value);
    options.push({ value: node.value, label: treeIndent.repeat(depth) + node.label });
    for (const child of children.get(node.value) ?? []) visit(child, depth + 1);
  };
  for (const node of children.get(null) ?? []) visit(node, 0);
  // Records of a stored loop are reachable from no top-level record.
  for (const node of nodes) visit(node, 0);
  return options;
}

/** A record's name as a choice: marked when the record is disabled ("Cairo (disabled)"). */
export function choiceLabel(
  definition: ResourceDefinition,
  record: Record<string, unknown>,
  language: string,
  t: TFunction,
): string {
  const name = recordName(definition, record, language);
  return record.status === 'inactive' ? t('form.disabledChoice', { name }) : name;
}

/**
 * The workspace's records of a resource as choices, named in the current language (the first
 * 100 in its default order; a select is no place for more), disabled ones marked. With `tree`,
 * the records form a tree by `tree.parentField`: see `treeOptions`, which leaves out
 * `tree.leaveOut` and its descendants. With `choice`, the choices of a form's field: disabled
 * records are left out but for the field's `current` value, which the form must not lose.
 */
export function useRecordOptions(
  resourceKey: string,
  tree?: { parentField: string; leaveOut?: string | null },
  choice?: { current: unknown },
) {
  const { t, i18n } = useTranslation();
  const definition = requireResource(resourceKey);
  const list = useResourceList(definition, optionListParams(definition));
  // Without the view permission the list is never asked for: no choices, and not for want of records.
  const mayView = useResourceAccess(definition).allows('list');
  const parentField = tree?.parentField;
  const leaveOut = tree?.leaveOut;
  const forChoice = choice !== undefined;
  const current = choice?.current;
  const choices = useMemo(() => {
    const records = ((list.data?.data ?? []) as Record<string, unknown>[]).filter(
      (record) => !forChoice || record.status !== 'inactive' || record.id === current,
    );
    const named = (record: Record<string, unknown>) => ({
      value: record.id as string,
      label: choiceLabel(definition, record, i18n.language, t),
    });
    if (!parentField) return records.map(named);
    return treeOptions(
      records.map((record) => ({ ...named(record), parent: (record[parentField] as string | null) ?? null })),
      leaveOut,
    );
  }, [list.data, definition, i18n.language, t, parentField, leaveOut, forChoice, current]);
  return {
    options: choices,
    isLoading: list.isLoading,
    definition,
    /** Said where the choices would be when the member may not view the resource's records. */
    refusal: mayView ? null : mayNotViewText(t, definition, i18n.language),
  };
}

/** "You may not view brands": what a picker of records says to a member without their view permission. */
export function mayNotViewText(t: TFunction, definition: ResourceDefinition, language: string): string {
  // The menu's name of the records, as a word inside a sentence ("Brands" → "brands").
  const resource = t(`nav.${definition.key}` as never, { defaultValue: definition.key }) as string;
  return t('form.mayNotView', { resource: resource.toLocaleLowerCase(language) });
}
