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
 * The texts list search looks in for a record, as the `search_text` column holds them: the code
 * and names, a category's description, a product's SKUs and barcodes, a customer's phones.
 */
export function searchedTexts(resource: SearchedResource, record: LabelledRecords[SearchedResource][number]) {
  const texts: (string | null)[] = [record.code];
  if (resource === 'customers') {
    const customer = record as LabelledCustomer;
    texts.push(customer.name, ...customer.phones);
  } else {
    const named = record as LabelledProduct | LabelledCategory | LabelledBrand;
    texts.push(named.name.en, named.name.ar);
    if (resource === 'categories') {
      const { description } = record as LabelledCategory;
      texts.push(description.en, description.ar);
    }
    if (resource === 'products') {
      texts.push(
        ...(record as LabelledProduct).variants.flatMap((variant) => [variant.sku, variant.barcode]),
      );
    }
  }
  return texts.filter((text): text is string => text !== null);
}
