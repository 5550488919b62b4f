import { readFileSync } from 'node:fs';

/*
 * The labelled search queries (`labelled-queries.json`, README.md beside it) as typed data, for the
 * tests and measurements that run them.
 */

/** A text in English and in Arabic, either of which a record may lack. */
export interface LabelledName {
  en: string | null;
  ar: string | null;
}

export interface LabelledProduct {
  key: string;
  code: string;
  name: LabelledName;
  variants: { sku: string; barcode: string | null }[];
}

export interface LabelledCustomer {
  key: string;
  code: string;
  name: string;
  phones: string[];
}

export interface LabelledCategory {
  key: string;
  code: string;
  name: LabelledName;
  description: LabelledName;
}

export interface LabelledBrand {
  key: string;
  code: string;
  name: LabelledName;
}

export interface LabelledRecords {
  products: LabelledProduct[];
  customers: LabelledCustomer[];
  categories: LabelledCategory[];
  brands: LabelledBrand[];
}

export type SearchedResource = keyof LabelledRecords;

export interface LabelledQuery {
  text: string;
  resource: SearchedResource;
  phenomena: string[];
  /** The keys of the records the query should find; empty when it must find nothing. */
  expected: string[];
}

export interface LabelledQueries {
  about: string[];
  phenomena: Record<string, string>;
  records: LabelledRecords;
  queries: LabelledQuery[];
}

export const searchedResources: readonly SearchedResource[] = [
  'products',
  'customers',
  'categories',
  'brands',
];

/** The labelled file as it is on disk. */
export function readLabelledQueries(): LabelledQueries {
  return JSON.parse(readFileSync(new URL('./labelled-queries.json', import.meta.url), 'utf8'));
}

/**
 * The text a record's `search_text` column is made of, before the column lower-cases it: its
 * columns joined by spaces, an empty one as '' (the code and names, a category's description, a
 * product's SKUs and barcodes, a customer's phones), as `searchText` in `db/schema/catalogue.ts`
 * builds it.
 */
export function searchedText(resource: SearchedResource, record: LabelledRecords[SearchedResource][number]) {
  switch (resource) {
    case 'customers': {
      const customer = record as LabelledCustomer;
      return [customer.code, customer.name, customer.phones.join(' ')].join(' ');
    }
    case 'products': {
      const product = record as LabelledProduct;
      // As `variantSummary` keeps `variant_codes`: each variant's SKU and barcode, if any.
      const variantCodes = product.variants
        .flatMap((variant) => [variant.sku, variant.barcode])
        .filter((code): code is string => !!code)
        .join(' ');
      return [product.code, product.name.en ?? '', product.name.ar ?? '', variantCodes].join(' ');
    }
    case 'categories': {
      const { code, name, description } = record as LabelledCategory;
      return [code, name.en ?? '', name.ar ?? '', description.en ?? '', description.ar ?? ''].join(' ');
    }
    case 'brands': {
      const { code, name } = record as LabelledBrand;
      return [code, name.en ?? '', name.ar ?? ''].join(' ');
    }
  }
}
