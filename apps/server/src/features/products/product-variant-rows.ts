import {
  barcodeField,
  CellFormatError,
  type CellValue,
  type ImportError,
  isClearMarker,
  parseCell,
  skuField,
  validationCodes,
} from '@dukkan/contract';
import type { ExpansionInput, ImportLocation } from '../../resource-engine/import-expansion.ts';
import type { ExpansionRow } from '../../resource-engine/import-rows.ts';

/*
 * A product's rows of an import read back into its save (the export's row per variant,
 * `product-export.ts`): pure functions over the workspace's types and values and the product as
 * stored, which `product-import.ts` reads from the database.
 */

/** The cells a variant row may give: undefined is kept, null (the clearing marker) cleared. */
export interface VariantCells {
  sku?: string | null;
  barcode?: string | null;
  price?: number | null;
  cost?: number | null;
}

export const variantCellFields = ['sku', 'barcode', 'price', 'cost'] as const;
export type VariantCellField = (typeof variantCellFields)[number];

/** One row of a product: the values it names (type id → value id, in the file's column order) and its cells. */
export interface VariantRow extends VariantCells {
  row: number;
  values: Map<string, string>;
}

/** What the rows are read with: the workspace's types and values, by name in either language. */
export interface VariantLookup {
  /** The value of a type a cell names (either language, any case), or undefined. */
  valueOf(typeId: string, name: string): string | undefined;
  /** The file's header of an expansion column (`type:<id>`, `sku`…), or its name in the reader's language. */
  headerOf(columnId: string): string;
  /** The amounts' currency (the workspace's base currency). */
  currency: string;
}

/** A product as stored, as its rows are read against it. */
export interface StoredProduct {
  options: { typeId: string; valueIds: string[] }[];
  price: number;
  cost: number | null;
  /** Its variants' cells, by key (value ids in the options' type order joined with '-'). */
  variants: Map<string, Required<VariantCells>>;
}

export const typeColumn = (typeId: string) => `type:${typeId}`;

/**
 * A product's rows' cells of the expansion's columns read: each type's cell as one of the type's
 * values (`IMPORT_VALUE_NOT_FOUND` naming it and the type otherwise), the SKU and barcode as text,
 * price and cost as amounts of the currency (`IMPORT_CELL_INVALID`); a clearing marker clears.
 */
export function readVariantRows(
  rows: readonly ExpansionRow[],
  lookup: VariantLookup,
): { rows: VariantRow[]; errors: ImportError[] } {
  const errors: ImportError[] = [];
  const read = rows.map(({ row, cells }) => {
    const variant: VariantRow = { row, values: new Map() };
    for (const [id, cell] of cells) {
      const column = lookup.headerOf(id);
      if (id.startsWith('type:')) {
        const typeId = id.slice('type:'.length);
        const name = String(parseCell('text', cell) ?? '').trim();
        const valueId = isClearMarker(cell) ? undefined : lookup.valueOf(typeId, name);
        if (valueId) variant.values.set(typeId, valueId);
        else
          errors.push({
            row,
            column,
            code: validationCodes.IMPORT_VALUE_NOT_FOUND,
            params: { value: name, type: column },
          });
        continue;
      }
      const field = id as VariantCellField;
      if (isClearMarker(cell)) {
        variant[field] = null;
        continue;
      }
      try {
        variant[field] = readCell(field, cell, lookup.currency) as never;
      } catch (error) {
        if (!(error instanceof CellFormatError)) throw error;
        errors.push({ row, column, code: validationCodes.IMPORT_CELL_INVALID });
      }
    }
    return variant;
  });
  return { rows: read, errors };
}

function readCell(field: VariantCellField, cell: CellValue, currency: string) {
  return field === 'price' || field === 'cost'
    ? (parseCell('money', cell, { currency }) as number | null)
    : (parseCell('text', cell) as string | null);
}

/** A SKU or barcode as it would be stored (normalized), to compare with the stored one. */
function normalized(field: 'sku' | 'barcode', value: string | null): string | null | undefined {
  const result = (field === 'sku' ? skuField : barcodeField).safeParse(value ?? '');
  return result.success ? result.data : undefined;
}

/** Whether a cell given for a variant's field differs from what the variant holds. */
function differs(field: VariantCellField, given: unknown, stored: unknown): boolean {
  if (field === 'sku' || field === 'barcode') {
    const value = normalized(field, given as string | null);
    return value === undefined || value !== stored;
  }
  return given !== stored;
}

/**
 * What a product's rows add to its save. Rows naming values are variants: each names a value of
 * every type the product's variants are made of (the stored options, or for a product without
 * them the types the rows name, in the file's order) — `IMPORT_VARIANT_VALUE_MISSING` or
 * `IMPORT_TYPE_NOT_OF_PRODUCT` otherwise — and is found by its values (its key). A variant of
 * the product gets an edit of the cells that differ; values it does not have yet are added to the
 * product's options (which makes every new combination); variants missing from the rows are
 * kept. A row naming no value gives the product's own price and cost (once). On an update only
 * what changes is returned: rows changing nothing add nothing.
 */
export function productRowsInput(
  rows: readonly VariantRow[],
  stored: StoredProduct | undefined,
  lookup: Pick<VariantLookup, 'headerOf'>,
): ExpansionInput {
  const errors: ImportError[] = [];
  const storedTypes = stored?.options.map((option) => option.typeId) ?? [];
  const types = [...storedTypes];
  if (types.length === 0)
    for (const row of rows)
      for (const typeId of row.values.keys()) if (!types.includes(typeId)) types.push(typeId);

  const input: Record<string, unknown> = {};
  const editRows: number[] = [];
  const edits: Record<string, unknown>[] = [];
  const firstOfKey = new Map<string, number>();
  const added = new Map<string, string[]>(types.map((typeId) => [typeId, []]));
  let ownRow: VariantRow | undefined;
  let firstVariantRow: number | undefined;
  for (const row of rows) {
    if (row.values.size === 0) {
      if (ownRow) {
        errors.push({ row: row.row, code: validationCodes.IMPORT_ROW_REPEATED, params: { row: ownRow.row } });
        continue;
      }
      ownRow = row;
      for (const field of ['sku', 'barcode'] as const)
        if (row[field] !== undefined)
          errors.push({
            row: row.row,
            column: lookup.headerOf(field),
            code: validationCodes.IMPORT_VARIANT_VALUES_REQUIRED,
          });
      continue;
    }
    const rowErrors: ImportError[] = [];
    for (const typeId of row.values.keys())
      if (!types.includes(typeId))
        rowErrors.push({
          row: row.row,
          column: lookup.headerOf(typeColumn(typeId)),
          code: validationCodes.IMPORT_TYPE_NOT_OF_PRODUCT,
          params: { type: lookup.headerOf(typeColumn(typeId)) },
        });
    for (const typeId of types)
      if (!row.values.has(typeId))
        rowErrors.push({
          row: row.row,
          column: lookup.headerOf(typeColumn(typeId)),
          code: validationCodes.IMPORT_VARIANT_VALUE_MISSING,
          params: { type: lookup.headerOf(typeColumn(typeId)) },
        });
    if (rowErrors.length > 0) {
      errors.push(...rowErrors);
      continue;
    }
    const key = types.map((typeId) => row.values.get(typeId)).join('-');
    const first = firstOfKey.get(key);
    if (first !== undefined) {
      errors.push({ row: row.row, code: validationCodes.IMPORT_ROW_REPEATED, params: { row: first } });
      continue;
    }
    firstOfKey.set(key, row.row);
    firstVariantRow ??= row.row;
    const storedVariant = stored?.variants.get(key);
    if (!storedVariant) {
      // Values the product does not have yet join its options (a stored variant's key, even one a
      // recipe keeps outside them, adds none).
      types.forEach((typeId) => {
        const valueId = row.values.get(typeId)!;
        const storedValues = stored?.options.find((option) => option.typeId === typeId)?.valueIds ?? [];
        const list = added.get(typeId)!;
        if (!storedValues.includes(valueId) && !list.includes(valueId)) list.push(valueId);
      });
    }
    const edit: Record<string, unknown> = {};
    for (const field of variantCellFields) {
      const given = row[field];
      if (given === undefined) continue;
      if (!storedVariant || differs(field, given, storedVariant[field])) edit[field] = given;
    }
    if (Object.keys(edit).length > 0) {
      edits.push({ key, ...edit });
      editRows.push(row.row);
    }
  }

  const optionsChange =
    firstVariantRow !== undefined &&
    (storedTypes.length === 0 || [...added.values()].some((values) => values.length > 0));
  if (optionsChange)
    input.options = types.map((typeId) => ({
      typeId,
      valueIds: [
        ...(stored?.options.find((option) => option.typeId === typeId)?.valueIds ?? []),
        ...added.get(typeId)!,
      ],
    }));
  if (edits.length > 0) input.variants = edits;
  for (const field of ['price', 'cost'] as const) {
    const given = ownRow?.[field];
    if (given !== undefined && (!stored || given !== stored[field])) input[field] = given;
  }

  return {
    input,
    errors,
    locate(path): ImportLocation | undefined {
      const [head, index, field] = path.split('.');
      if (head === 'variants' && index !== undefined) {
        const row = editRows[Number(index)];
        if (row === undefined) return undefined;
        return {
          row,
          ...(field && (variantCellFields as readonly string[]).includes(field)
            ? { column: lookup.headerOf(field) }
            : {}),
        };
      }
      if (head === 'options' && firstVariantRow !== undefined) {
        const typeId = types[Number(index)];
        return {
          row: firstVariantRow,
          ...(typeId !== undefined && index !== undefined
            ? { column: lookup.headerOf(typeColumn(typeId)) }
            : {}),
        };
      }
      if ((head === 'price' || head === 'cost') && ownRow)
        return { row: ownRow.row, column: lookup.headerOf(head) };
      return undefined;
    },
  };
}
