import { type CellValue, formatCell } from '@dukkan/contract';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { productVariants, productVariantValues, variationValues } from '../../db/schema/index.ts';
import type { ExportContext, ExportExpansion, ExportField } from '../../resource-engine/export-fields.ts';
import { fieldHeader } from '../../resource-engine/export-texts.ts';
import { variationTypeColumns } from './variation-type-columns.ts';

/**
 * A product's fields in an export, on each of its variants' rows: its code, names, references by
 * code (unit, categories, tags, tax) and whether its prices include the tax.
 */
export const productExportFields: readonly ExportField[] = [
  { field: 'code', kind: 'text' },
  { field: 'name', kind: 'localizedText' },
  { field: 'measurementUnitId', kind: 'reference', reference: 'measurementUnits' },
  { field: 'categoryId', kind: 'reference', reference: 'categories' },
  { field: 'wasteCategoryId', kind: 'reference', reference: 'wasteCategories' },
  { field: 'tagIds', kind: 'references', reference: 'productTags' },
  { field: 'taxId', kind: 'reference', reference: 'taxes' },
  { field: 'pricesIncludeTax', kind: 'boolean' },
  { field: 'status', kind: 'text' },
];

const named = (en: string | null, ar: string | null, locale: 'en' | 'ar') =>
  (locale === 'ar' ? (ar ?? en) : (en ?? ar)) ?? '';

/**
 * A product's rows in an export: one per variant (its values, SKU, barcode, price and cost), or
 * one with its own price and cost while it has no variants. A column per variation type of the
 * workspace, named by the type in the reader's language (any number of types, not three), holds
 * the variant's value of that type by its name.
 */
export async function productExportExpansion(context: ExportContext): Promise<ExportExpansion> {
  const { db, workspaceId, locale, baseCurrency } = context;
  const types = await variationTypeColumns(db, workspaceId);
  const typeColumn = new Map(types.map((type, index) => [type.id, index]));
  const money = (minor: number | null) => formatCell('money', minor, { currency: baseCurrency });
  return {
    columns: [
      ...types.map((type) => ({ header: named(type.nameEn, type.nameAr, locale), kind: 'text' as const })),
      { header: fieldHeader(locale, 'products', 'sku'), kind: 'text' },
      { header: fieldHeader(locale, 'products', 'barcode'), kind: 'text' },
      { header: fieldHeader(locale, 'products', 'price'), kind: 'money' },
      { header: fieldHeader(locale, 'products', 'cost'), kind: 'money' },
    ],
    async rows(records) {
      const ids = records.map((record) => record.id as string);
      const variants = await db
        .select({
          id: productVariants.id,
          productId: productVariants.productId,
          sku: productVariants.sku,
          barcode: productVariants.barcode,
          price: productVariants.price,
          cost: productVariants.cost,
        })
        .from(productVariants)
        .where(and(eq(productVariants.workspaceId, workspaceId), inArray(productVariants.productId, ids)))
        .orderBy(asc(productVariants.productId), asc(productVariants.position));
      const values =
        variants.length === 0
          ? []
          : await db
              .select({
                variantId: productVariantValues.variantId,
                typeId: variationValues.typeId,
                nameEn: variationValues.nameEn,
                nameAr: variationValues.nameAr,
              })
              .from(productVariantValues)
              .innerJoin(
                variationValues,
                and(
                  eq(variationValues.workspaceId, productVariantValues.workspaceId),
                  eq(variationValues.id, productVariantValues.valueId),
                ),
              )
              .where(
                and(
                  eq(productVariantValues.workspaceId, workspaceId),
                  inArray(
                    productVariantValues.variantId,
                    variants.map((variant) => variant.id),
                  ),
                ),
              );
      const valuesOf = new Map<string, typeof values>();
      for (const value of values) {
        const list = valuesOf.get(value.variantId) ?? [];
        list.push(value);
        valuesOf.set(value.variantId, list);
      }
      const variantsOf = new Map<string, typeof variants>();
      for (const variant of variants) {
        const list = variantsOf.get(variant.productId) ?? [];
        list.push(variant);
        variantsOf.set(variant.productId, list);
      }
      return records.map((record) => {
        const own = variantsOf.get(record.id as string);
        if (!own || own.length === 0) {
          const cells: CellValue[] = types.map(() => null);
          return [[...cells, null, null, money(record.price as number), money(record.cost as number | null)]];
        }
        return own.map((variant) => {
          const cells: CellValue[] = types.map(() => null);
          for (const value of valuesOf.get(variant.id) ?? []) {
            const column = typeColumn.get(value.typeId);
            if (column !== undefined)
              cells[column] = formatCell('text', named(value.nameEn, value.nameAr, locale));
          }
          return [
            ...cells,
            formatCell('text', variant.sku),
            formatCell('text', variant.barcode),
            money(variant.price),
            money(variant.cost),
          ];
        });
      });
    },
  };
}
