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

/**
 * The workspace's records of a resource as choices, named in the current language (the first
 * 100 in its default order; a select is no place for more). With `tree`, the records form a tree
 * by `tree.parentField`: see `treeOptions`, which leaves out `tree.leaveOut` and its descendants.
 */
export function useRecordOptions(
  resourceKey: string,
  tree?: { parentField: string; leaveOut?: string | null },
) {
  const { i18n } = useTranslation();
  const definition = requireResource(resourceKey);
  const list = useResourceList(definition, optionListParams(definition));
  const parentField = tree?.parentField;
  const leaveOut = tree?.leaveOut;
  const choices = useMemo(() => {
    const records = (list.data?.data ?? []) as Record<string, unknown>[];
    const named = (record: Record<string, unknown>) => ({
      value: record.id as string,
      label: recordName(definition, record, i18n.language),
    });
    if (!parentField) return records.map(named);
    return treeOptions(
      records.map((record) => ({ ...named(record), parent: (record[parentField] as string | null) ?? null })),
      leaveOut,
    );
  }, [list.data, definition, i18n.language, parentField, leaveOut]);
  return { options: choices, isLoading: list.isLoading, definition };
}
