import { productImportNotes } from '@dukkan/contract';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { productVariants, variationValues } from '../../db/schema/index.ts';
import { fieldHeader } from '../../resource-engine/export-texts.ts';
import type { ImportContext, ImportExpansion } from '../../resource-engine/import-expansion.ts';
import {
  productRowsInput,
  readVariantRows,
  type StoredProduct,
  typeColumn,
  type VariantCells,
  variantCellFields,
} from './product-variant-rows.ts';
import { variationTypeColumns } from './variation-type-columns.ts';

/** How many products' variants a look-up asks for at a time. */
const lookupChunk = 1000;

const nameIn = (en: string | null, ar: string | null, locale: 'en' | 'ar') =>
  (locale === 'ar' ? (ar ?? en) : (en ?? ar)) ?? '';

const normalizedName = (name: string) => name.trim().replace(/^'/, '').toLowerCase();

/**
 * A products file read back (the export's row per variant, `product-export.ts`): a column per
 * variation type of the workspace, named by the type in either language, holding a variant's
 * value by its name, then SKU, barcode, price and cost. The rows of one code are one product
 * (consecutive rows without a code and with the same name one new product); each row's values
 * find its variant (`productRowsInput`), and what changes goes into the product's own save.
 */
export async function productImportExpansion(context: ImportContext): Promise<ImportExpansion> {
  const { db, workspaceId, locale, baseCurrency } = context;
  const types = await variationTypeColumns(db, workspaceId);
  const values = await db
    .select({
      id: variationValues.id,
      typeId: variationValues.typeId,
      nameEn: variationValues.nameEn,
      nameAr: variationValues.nameAr,
    })
    .from(variationValues)
    .where(eq(variationValues.workspaceId, workspaceId))
    .orderBy(asc(variationValues.code), asc(variationValues.id));

  // Headers and names in either language, lower-cased; the first of two alike wins.
  const columnOfHeader = new Map<string, string>();
  for (const field of variantCellFields)
    for (const language of ['en', 'ar'] as const)
      columnOfHeader.set(normalizedName(fieldHeader(language, 'products', field)), field);
  for (const type of types)
    for (const name of [type.nameEn, type.nameAr])
      if (name && !columnOfHeader.has(normalizedName(name)))
        columnOfHeader.set(normalizedName(name), typeColumn(type.id));
  const valueByName = new Map<string, string>();
  for (const value of values)
    for (const name of [value.nameEn, value.nameAr]) {
      const key = `${value.typeId}:${name ? normalizedName(name) : ''}`;
      if (name && !valueByName.has(key)) valueByName.set(key, value.id);
    }

  const fileHeaders = new Map<string, string>();
  const headerOf = (columnId: string): string => {
    const header = fileHeaders.get(columnId);
    if (header) return header;
    if (columnId.startsWith('type:')) {
      const type = types.find((candidate) => typeColumn(candidate.id) === columnId);
      return type ? nameIn(type.nameEn, type.nameAr, locale) : columnId;
    }
    return fieldHeader(locale, 'products', columnId);
  };
  const lookup = {
    headerOf,
    currency: baseCurrency,
    valueOf: (typeId: string, name: string) => valueByName.get(`${typeId}:${normalizedName(name)}`),
  };
  const variantsOf = new Map<string, Map<string, Required<VariantCells>>>();

  return {
    templateHeaders: [
      ...types.map((type) => nameIn(type.nameEn, type.nameAr, locale)),
      ...variantCellFields.map((field) => fieldHeader(locale, 'products', field)),
    ],
    templateNotes: productImportNotes[locale],
    targets: [
      ...types.map((type) => ({ id: typeColumn(type.id), header: nameIn(type.nameEn, type.nameAr, locale) })),
      ...variantCellFields.map((field) => ({ id: field, header: fieldHeader(locale, 'products', field) })),
    ],
    useColumn(id, header) {
      fileHeaders.set(id, header);
    },
    keylessRecordBy: 'name',
    column(header) {
      const id = columnOfHeader.get(normalizedName(header));
      if (id !== undefined) fileHeaders.set(id, header);
      return id;
    },
    async prepare(records) {
      const ids = records.map((record) => record.id as string);
      for (let start = 0; start < ids.length; start += lookupChunk) {
        const rows = await db
          .select({
            productId: productVariants.productId,
            key: productVariants.key,
            sku: productVariants.sku,
            barcode: productVariants.barcode,
            price: productVariants.price,
            cost: productVariants.cost,
          })
          .from(productVariants)
          .where(
            and(
              eq(productVariants.workspaceId, workspaceId),
              inArray(productVariants.productId, ids.slice(start, start + lookupChunk)),
            ),
          );
        for (const { productId, key, ...cells } of rows) {
          const variants = variantsOf.get(productId) ?? new Map<string, Required<VariantCells>>();
          variants.set(key, cells);
          variantsOf.set(productId, variants);
        }
      }
    },
    input(rows, record) {
      const read = readVariantRows(rows, lookup);
      // A row with a cell not read is reported once, not again as a variant without that value.
      const refused = new Set(read.errors.map((error) => error.row));
      const stored: StoredProduct | undefined = record && {
        options: (record.options as StoredProduct['options'] | undefined) ?? [],
        price: record.price as number,
        cost: record.cost as number | null,
        variants: variantsOf.get(record.id as string) ?? new Map(),
      };
      const result = productRowsInput(
        read.rows.filter((row) => !refused.has(row.row)),
        stored,
        lookup,
      );
      return { ...result, errors: [...read.errors, ...result.errors] };
    },
  };
}
