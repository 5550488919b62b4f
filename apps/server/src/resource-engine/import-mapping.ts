import {
  type ImportMapping,
  type ImportTarget,
  importMappingCodes,
  importMappingField,
  importMappingSchema,
} from '@dukkan/contract';
import { validationError } from '../errors.ts';

/*
 * The column mapping of an import (decision 0046): which column of the list each header of the
 * file fills. Without a mapping, a header is matched by its name (the export's, in English or
 * Arabic); a mapping names the column of a header itself, or null for a column not imported, and
 * a header it does not name is still matched by name. Pure functions over the file's headers and
 * the list's columns (`ImportTarget`), which the preview, the request and the run share.
 */

/** The key of an import expansion's column (a product's variation type, SKU, price…). */
export const expansionTargetKey = (id: string) => `expansion.${id}`;

/** The expansion's column id of a key, or undefined for a field's key. */
export const expansionIdOf = (key: string): string | undefined =>
  key.startsWith('expansion.') ? key.slice('expansion.'.length) : undefined;

/** The key of a field's column, or of one language of a localized text's. */
export const fieldTargetKey = (field: string, language?: string) =>
  language ? `${field}.${language}` : field;

/**
 * The column a header fills: the mapping's choice where it names the header (a key, or null:
 * not imported), else the match by name (a key, null for a column read and not written, or
 * undefined for a header no column has).
 */
export function mappedColumn(
  header: string,
  mapping: ImportMapping | undefined,
  match: (header: string) => string | null | undefined,
): string | null | undefined {
  if (mapping && Object.hasOwn(mapping, header)) return mapping[header] ?? null;
  return match(header);
}

/**
 * The mapping an import proposes for a file: each non-empty header → the column the workspace
 * last chose for it (`remembered`, its choices for columns the list still has), else the column
 * its name matches, or null. A remembered choice comes first; a second header of one column is
 * proposed as not imported, and the member picks which one.
 */
export function proposedMapping(
  headers: readonly string[],
  match: (header: string) => string | null | undefined,
  remembered: ImportMapping = {},
): ImportMapping {
  const mapping: ImportMapping = {};
  const taken = new Set<string>();
  const propose = (header: string, key: string | null) => {
    mapping[header] = key !== null && !taken.has(key) ? key : null;
    if (key !== null) taken.add(key);
  };
  for (const header of headers)
    if (header !== '' && !Object.hasOwn(mapping, header) && Object.hasOwn(remembered, header))
      propose(header, remembered[header] ?? null);
  for (const header of headers)
    if (header !== '' && !Object.hasOwn(mapping, header)) propose(header, match(header) ?? null);
  return mapping;
}

/**
 * The column each of a file's headers filled in an import with `mapping` (a header it does not
 * name matched by name; null: not imported): what a workspace remembers for the list.
 */
export function appliedMapping(
  headers: readonly string[],
  mapping: ImportMapping,
  match: (header: string) => string | null | undefined,
): ImportMapping {
  const applied: ImportMapping = {};
  for (const header of headers)
    if (header !== '' && !Object.hasOwn(applied, header))
      applied[header] = mappedColumn(header, mapping, match) ?? null;
  return applied;
}

/** The remembered choices that still name a column of the list (or "not imported"). */
export function rememberedChoices(
  remembered: ImportMapping,
  targets: readonly ImportTarget[],
): ImportMapping {
  const keys = new Set(targets.map((target) => target.key));
  return Object.fromEntries(Object.entries(remembered).filter(([, key]) => key === null || keys.has(key)));
}

/** A field every file must fill when no header fills the key column (its rows all create records). */
export interface RequiredField {
  /** Its column's name in the reader's language. */
  label: string;
  /** The keys of its columns (a localized text's languages): any one of them fills it. */
  keys: readonly string[];
}

export interface MappingRules {
  targets: readonly ImportTarget[];
  match(header: string): string | null | undefined;
  /** The key of the column that finds records (the code): with it, rows may update. */
  keyTarget: string;
  required: readonly RequiredField[];
}

type Issue = { path: string; message: string; params?: Record<string, string | number> };

/**
 * What refuses a mapping for a file's headers: a header mapped to a column the list does not
 * have, one column filled from two headers, or — when no header fills the key column, so that
 * every row creates a record — a field a create needs filled from none. Empty: the mapping holds.
 */
export function mappingIssues(
  headers: readonly string[],
  mapping: ImportMapping,
  rules: MappingRules,
): Issue[] {
  const issues: Issue[] = [];
  const labelOf = new Map(rules.targets.map((target) => [target.key, target.label]));
  const filledBy = new Map<string, string>();
  const seen = new Set<string>();
  for (const header of headers) {
    if (header === '' || seen.has(header)) continue;
    seen.add(header);
    const key = mappedColumn(header, mapping, rules.match);
    if (key === null || key === undefined) continue;
    if (!labelOf.has(key)) {
      issues.push({
        path: importMappingField,
        message: importMappingCodes.IMPORT_MAPPING_UNKNOWN_COLUMN,
        params: { header },
      });
      continue;
    }
    if (filledBy.has(key)) {
      issues.push({
        path: importMappingField,
        message: importMappingCodes.IMPORT_MAPPING_COLUMN_TWICE,
        params: { column: labelOf.get(key)! },
      });
      continue;
    }
    filledBy.set(key, header);
  }
  if (!filledBy.has(rules.keyTarget))
    for (const field of rules.required)
      if (!field.keys.some((key) => filledBy.has(key)))
        issues.push({
          path: importMappingField,
          message: importMappingCodes.IMPORT_MAPPING_COLUMN_REQUIRED,
          params: { column: field.label },
        });
  return issues;
}

/** A `mapping` field's text as a mapping, or a validation error (IMPORT_MAPPING_INVALID). */
export function parseMappingField(text: string): ImportMapping {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  const parsed = importMappingSchema.safeParse(value);
  if (!parsed.success)
    throw validationError(
      [{ path: importMappingField, message: importMappingCodes.IMPORT_MAPPING_INVALID }],
      'The column mapping is invalid',
    );
  return parsed.data;
}
