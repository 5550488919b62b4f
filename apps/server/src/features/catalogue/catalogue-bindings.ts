import {
  brandsResource,
  categoriesResource,
  customersResource,
  exchangeRatesResource,
  type LocalizedName,
  locationsResource,
  measurementUnitsResource,
  productTagsResource,
  type ResourceDefinition,
  taxesResource,
  wasteCategoriesResource,
} from '@dukkan/contract';
import { sql } from 'drizzle-orm';
import {
  brands,
  categories,
  customers,
  exchangeRates,
  locations,
  measurementUnits,
  productTags,
  taxes,
  wasteCategories,
} from '../../db/schema/index.ts';
import { bindResource, type ResourceRow } from '../../resource-engine/binding.ts';

/** `name: [{ locale, value }]` → `nameEn`, `nameAr` columns (a PATCH naming `name` replaces both). */
function localizedToRow(input: Record<string, unknown>): Record<string, unknown> {
  if (!('name' in input)) return input;
  const { name, ...rest } = input as { name: LocalizedName } & Record<string, unknown>;
  return {
    ...rest,
    nameEn: name.find((entry) => entry.locale === 'en')?.value,
    nameAr: name.find((entry) => entry.locale === 'ar')?.value ?? null,
  };
}

/** The stored row as the record the definition declares: its fields only, timestamps as ISO. */
function recordOf(definition: ResourceDefinition, localized: boolean) {
  const keys = Object.keys(definition.schemas.record.shape);
  return (row: ResourceRow) => {
    const record: Record<string, unknown> = {};
    for (const key of keys) {
      const value = row[key];
      record[key] = value instanceof Date ? value.toISOString() : value;
    }
    if (localized) {
      record.name = [
        { locale: 'en', value: row.nameEn as string },
        ...(row.nameAr ? [{ locale: 'ar', value: row.nameAr as string }] : []),
      ];
    }
    return record;
  };
}

// Written out qualified: an unqualified "id" inside the subquery would mean the location's own id.
const locationsCount =
  sql<number>`(select count(*) from "locations" where "locations"."brand_id" = "brands"."id")`.mapWith(
    Number,
  );

export const brandsBinding = bindResource({
  definition: brandsResource,
  table: brands,
  searchColumn: brands.searchText,
  fields: {
    code: brands.code,
    name: brands.nameEn,
    creationDate: brands.creationDate,
    createdAt: brands.createdAt,
    locationsCount,
  },
  extraSelection: { locationsCount },
  toRow: localizedToRow,
  toRecord: recordOf(brandsResource, true) as never,
});

export const locationsBinding = bindResource({
  definition: locationsResource,
  table: locations,
  searchColumn: locations.searchText,
  references: { brandId: brands },
  fields: {
    code: locations.code,
    name: locations.nameEn,
    address: locations.address,
    openingDate: locations.openingDate,
    createdAt: locations.createdAt,
    brandId: locations.brandId,
  },
  toRow: localizedToRow,
  toRecord: recordOf(locationsResource, true) as never,
});

export const taxesBinding = bindResource({
  definition: taxesResource,
  table: taxes,
  searchColumn: taxes.searchText,
  fields: {
    code: taxes.code,
    title: taxes.title,
    country: taxes.country,
    rate: taxes.rate,
    createdAt: taxes.createdAt,
  },
  toRecord: recordOf(taxesResource, false) as never,
});

export const measurementUnitsBinding = bindResource({
  definition: measurementUnitsResource,
  table: measurementUnits,
  searchColumn: measurementUnits.searchText,
  fields: {
    code: measurementUnits.code,
    name: measurementUnits.nameEn,
    symbol: measurementUnits.symbol,
    createdAt: measurementUnits.createdAt,
  },
  toRow: localizedToRow,
  toRecord: recordOf(measurementUnitsResource, true) as never,
});

export const categoriesBinding = bindResource({
  definition: categoriesResource,
  table: categories,
  searchColumn: categories.searchText,
  references: { parentId: categories },
  fields: {
    code: categories.code,
    name: categories.nameEn,
    description: categories.description,
    createdAt: categories.createdAt,
    parentId: categories.parentId,
  },
  toRow: localizedToRow,
  toRecord: recordOf(categoriesResource, true) as never,
});

export const wasteCategoriesBinding = bindResource({
  definition: wasteCategoriesResource,
  table: wasteCategories,
  searchColumn: wasteCategories.searchText,
  references: { parentId: wasteCategories },
  fields: {
    code: wasteCategories.code,
    name: wasteCategories.nameEn,
    description: wasteCategories.description,
    createdAt: wasteCategories.createdAt,
    parentId: wasteCategories.parentId,
  },
  toRow: localizedToRow,
  toRecord: recordOf(wasteCategoriesResource, true) as never,
});

export const productTagsBinding = bindResource({
  definition: productTagsResource,
  table: productTags,
  searchColumn: productTags.searchText,
  fields: { code: productTags.code, name: productTags.nameEn, createdAt: productTags.createdAt },
  toRow: localizedToRow,
  toRecord: recordOf(productTagsResource, true) as never,
});

export const customersBinding = bindResource({
  definition: customersResource,
  table: customers,
  searchColumn: customers.searchText,
  references: { brandId: brands },
  fields: {
    code: customers.code,
    name: customers.name,
    phones: customers.phonesText,
    source: customers.source,
    brandId: customers.brandId,
    createdAt: customers.createdAt,
  },
  toRow: (input) =>
    Array.isArray(input.phones) ? { ...input, phonesText: (input.phones as string[]).join(' ') } : input,
  toRecord: recordOf(customersResource, false) as never,
});

export const exchangeRatesBinding = bindResource({
  definition: exchangeRatesResource,
  table: exchangeRates,
  uniqueFields: ['currency'],
  fields: {
    currency: exchangeRates.currency,
    rate: exchangeRates.rate,
    createdAt: exchangeRates.createdAt,
  },
  toRecord: recordOf(exchangeRatesResource, false) as never,
});
