import type { MoneyInputIssue, VariantRow, VariantRowStatus } from '@dukkan/contract';
import { normalizeBarcode, normalizeCode, parseMoneyInput } from '@dukkan/contract';

/*
 * What the variant grid does to the variants, apart from drawing them: one cell's new value, and a
 * spreadsheet block pasted from a cell. Every edit returns a new list in which only the variants
 * it changed are new objects, so the page can send just those on save.
 */

export type VariantColumn = 'select' | 'title' | 'sku' | 'barcode' | 'price' | 'cost' | 'image' | 'status';
export type MoneyColumn = 'price' | 'cost';

/** The columns a merchant types into. */
export const textColumns: ReadonlySet<VariantColumn> = new Set(['sku', 'barcode', 'price', 'cost']);

/** The amounts, typed in the member's digits and kept as minor units of the base currency. */
const moneyColumns: ReadonlySet<VariantColumn> = new Set(['price', 'cost']);
export const isMoneyColumn = (column: VariantColumn): column is MoneyColumn => moneyColumns.has(column);

/** The columns a paste can fill: the text columns, and the image and status after them. */
export const pastableColumns: ReadonlySet<VariantColumn> = new Set([
  'sku',
  'barcode',
  'price',
  'cost',
  'image',
  'status',
]);

/**
 * An amount typed or pasted into a price or cost cell: its minor units, or why it is not one. A
 * blank price is refused (every variant has one, 0 at least); a blank cost removes the cost.
 */
export function moneyCellValue(
  column: MoneyColumn,
  typed: string,
  currency: string,
): { ok: true; minor: number | null } | { ok: false; code: MoneyInputIssue } {
  const parsed = parseMoneyInput(typed, currency);
  if (parsed.ok && parsed.minor === null && column === 'price')
    return { ok: false, code: 'MONEY_IS_INVALID' };
  return parsed;
}

/**
 * A cell's value as it is kept, as the server stores it: a code (`normalizeCode`: trimmed,
 * nothing invisible, no full-width letters), blank as null, a barcode's Arabic-Indic digits made ASCII.
 */
function cellValue(column: 'sku' | 'barcode', typed: string): string | null {
  const value = column === 'barcode' ? normalizeBarcode(typed) : normalizeCode(typed);
  return value === '' ? null : value;
}

/** The variant with one cell set, or the same object when the cell already holds that value. */
export function withCell<V extends VariantRow>(
  variant: V,
  column: VariantColumn,
  value: string | null,
  productImages: readonly string[],
): V {
  switch (column) {
    case 'sku':
    case 'barcode': {
      const next = value === null ? null : cellValue(column, value);
      return next === variant[column] ? variant : { ...variant, [column]: next };
    }
    case 'price':
    case 'cost': {
      // The text is already an amount here (`moneyCellValue` read it): minor units, or '' / null.
      const minor = value === null || value === '' ? null : Number(value);
      if (column === 'price' && minor === null) return variant;
      return minor === variant[column] ? variant : { ...variant, [column]: minor };
    }
    case 'image': {
      // A variant's image reuses one of the product's: anything else is not an image to put here.
      if (value === null || value.trim() === '')
        return variant.images.length === 0 ? variant : { ...variant, images: [] };
      const image = value.trim();
      if (!productImages.includes(image) || variant.images[0] === image) return variant;
      return { ...variant, images: [image, ...variant.images.filter((other) => other !== image)] };
    }
    case 'status': {
      const status = value as VariantRowStatus | null;
      return status === null || status === variant.status ? variant : { ...variant, status };
    }
    default:
      return variant;
  }
}

/** Whether a pasted text is a block (several cells) rather than one cell's text. */
export const isClipboardBlock = (text: string) => /[\t\n\r]/.test(text);

/**
 * A block as spreadsheets copy it: rows by line break, cells by tab. Spreadsheets end the last row
 * with a line break too; that one does not make an empty row.
 */
export function parseClipboardBlock(text: string): string[][] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  if (lines.length > 1 && lines.at(-1) === '') lines.pop();
  return lines.map((line) => line.split('\t'));
}

interface PasteTarget {
  /** The first row and column the block fills; it goes right and down from there. */
  row: number;
  column: number;
  columns: readonly VariantColumn[];
  productImages: readonly string[];
  /** A status from a pasted text ('active', 'Inactive', 'نشط'…), or null to leave the cell. */
  statusOf: (text: string) => VariantRowStatus | null;
  /** The base currency, whose minor digits a pasted amount may have. */
  currency: string;
}

/** A pasted amount that is not one: its cell is left as it was. */
interface PasteIssue {
  row: number;
  column: MoneyColumn;
  text: string;
  code: MoneyInputIssue;
}

/**
 * Fills cells right and down from the target, the way a spreadsheet pastes: a cell of a column that
 * is not pastable (title, selection) and anything past the last row or column is skipped. A column
 * of amounts pasted into one price cell fills the prices downward; a pasted text that is not an
 * amount leaves its cell and is reported in `issues`.
 */
export function pasteBlock<V extends VariantRow>(
  variants: readonly V[],
  block: readonly (readonly string[])[],
  { row, column, columns, productImages, statusOf, currency }: PasteTarget,
): { variants: V[]; changed: number; issues: PasteIssue[] } {
  const next = [...variants];
  const issues: PasteIssue[] = [];
  let changed = 0;
  block.forEach((cells, rowOffset) => {
    const index = row + rowOffset;
    const before = next[index];
    if (!before) return;
    let variant = before;
    cells.forEach((text, columnOffset) => {
      const key = columns[column + columnOffset];
      if (!key || !pastableColumns.has(key)) return;
      if (isMoneyColumn(key)) {
        const amount = moneyCellValue(key, text, currency);
        if (!amount.ok) issues.push({ row: index, column: key, text, code: amount.code });
        else
          variant = withCell(
            variant,
            key,
            amount.minor === null ? null : String(amount.minor),
            productImages,
          );
        return;
      }
      const value = key === 'status' ? statusOf(text.trim()) : text;
      if (key === 'status' && value === null) return;
      variant = withCell(variant, key, value, productImages);
    });
    if (variant !== before) {
      next[index] = variant;
      changed++;
    }
  });
  return { variants: next, changed, issues };
}
