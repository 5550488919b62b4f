import { type CellValue, type ImportError, type Locale, validationCodes } from '@dukkan/contract';

/*
 * The rows of an import as records: one row per record for most resources, or — where an import
 * expansion reads several rows of one record (a product's row per variant) — the rows of one key
 * merged into one record, pure functions the import runs and its unit tests call.
 */

/** A row's cells of an import expansion's columns, by the expansion's column id. */
export interface ExpansionRow {
  /** The file's row number (the header is 1). */
  row: number;
  cells: Map<string, CellValue>;
}

/** What one row of the file — or the rows of one record, merged — asks. */
export interface ParsedRow {
  /** The file's row number (the header is 1); of a record's rows, the first. */
  row: number;
  key: string | null;
  /** Field → value read from the cells (references still as codes); null: a cleared field. */
  values: Map<string, unknown>;
  /** Localized fields: language → text or null (cleared); absent: kept. */
  localized: Map<string, Map<Locale, string | null>>;
  errors: ImportError[];
  /** The record's rows' cells of the expansion's columns, one entry per row (none without an expansion). */
  expansion: ExpansionRow[];
}

/** A value as canonical JSON: keys sorted, absent and null alike, so equal values compare equal. */
export function canonical(value: unknown): string {
  return JSON.stringify(value ?? null, (_key, inner: unknown) => {
    if (inner && typeof inner === 'object' && !Array.isArray(inner)) {
      return Object.fromEntries(
        Object.entries(inner as Record<string, unknown>)
          .filter(([, entry]) => entry !== undefined && entry !== null)
          .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
      );
    }
    return inner;
  });
}

/** What a row's cells give a field (a localized field's languages as a map), or undefined. */
function givenOf(row: ParsedRow, field: string): unknown {
  if (row.localized.has(field)) return Object.fromEntries(row.localized.get(field)!);
  return row.values.has(field) ? row.values.get(field) : undefined;
}

/**
 * The file's rows as records, for an import reading several rows per record: the rows of one key
 * (anywhere in the file) are one record, and so are consecutive rows without a key whose
 * `keylessBy` field (a product's name) is given and the same. A record's fields are what its rows
 * give, each written on one row or repeated; a row giving another value than an earlier row of
 * its record (a different cell, not an empty one) is `IMPORT_ROW_CONFLICT` at that row and
 * column. `headerOf` names a field's column (a localized field's per language).
 */
export function groupImportRows(
  rows: readonly ParsedRow[],
  keylessBy: string,
  headerOf: (field: string, language?: Locale) => string | undefined,
): ParsedRow[] {
  const records: ParsedRow[] = [];
  const byKey = new Map<string, ParsedRow>();
  let keyless: ParsedRow | undefined;
  for (const row of rows) {
    let record: ParsedRow | undefined;
    if (row.key !== null) {
      record = byKey.get(row.key);
      keyless = undefined;
    } else {
      const named = givenOf(row, keylessBy);
      record =
        keyless && named !== undefined && canonical(named) === canonical(givenOf(keyless, keylessBy))
          ? keyless
          : undefined;
    }
    if (!record) {
      record = {
        row: row.row,
        key: row.key,
        values: new Map(row.values),
        localized: new Map([...row.localized].map(([field, texts]) => [field, new Map(texts)])),
        errors: [...row.errors],
        expansion: [...row.expansion],
      };
      records.push(record);
      if (row.key !== null) byKey.set(row.key, record);
      else keyless = record;
      continue;
    }
    mergeRow(record, row, headerOf);
  }
  return records;
}

/** A later row of a record into it: its new fields added, a different value refused. */
function mergeRow(
  record: ParsedRow,
  row: ParsedRow,
  headerOf: (field: string, language?: Locale) => string | undefined,
) {
  const conflict = (field: string, language?: Locale): ImportError => ({
    row: row.row,
    ...(headerOf(field, language) ? { column: headerOf(field, language)! } : {}),
    code: validationCodes.IMPORT_ROW_CONFLICT,
    params: { row: record.row },
  });
  record.errors.push(...row.errors);
  for (const [field, value] of row.values) {
    if (!record.values.has(field)) record.values.set(field, value);
    else if (canonical(record.values.get(field)) !== canonical(value)) record.errors.push(conflict(field));
  }
  for (const [field, texts] of row.localized) {
    const merged = record.localized.get(field) ?? new Map<Locale, string | null>();
    record.localized.set(field, merged);
    for (const [language, text] of texts) {
      if (!merged.has(language)) merged.set(language, text);
      else if (merged.get(language) !== text) record.errors.push(conflict(field, language));
    }
  }
  record.expansion.push(...row.expansion);
}
