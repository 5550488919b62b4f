import { barcodeIssue, normalizedPhonePattern } from '@dukkan/contract';
import { describe, expect, it } from 'vitest';
import { readLabelledQueries, searchedResources } from './labelled-queries.ts';

/*
 * The labelled search queries stay as whole as the search issue asks them to be: a file that shrank
 * or lost a phenomenon would measure less than it claims.
 */

/** What people type that the list search must find anyway, as the issue names it. */
const requiredPhenomena = [
  'hamza',
  'teh-marbuta',
  'alef-maksura',
  'diacritics',
  'tatweel',
  'arabic-indic-digits',
  'persian-digits',
  'persian-letters',
  'article',
  'typo',
  'english-case',
  'sku',
];
const minimum = { queries: 200, perPhenomenon: 10, findingNothing: 30 };

const set = readLabelledQueries();

describe('the labelled search queries', () => {
  it('describe the phenomena the issue names, and tag queries with those only', () => {
    expect(Object.keys(set.phenomena).sort()).toEqual([...requiredPhenomena].sort());
    const unknown = set.queries.filter((query) => query.phenomena.some((tag) => !(tag in set.phenomena)));
    expect(unknown, 'queries tagged with a phenomenon the file does not describe').toEqual([]);
  });

  it('hold enough queries: in all, for each phenomenon, and that must find nothing', () => {
    expect(set.queries.length).toBeGreaterThanOrEqual(minimum.queries);
    for (const phenomenon of requiredPhenomena) {
      const tagged = set.queries.filter((query) => query.phenomena.includes(phenomenon));
      expect(tagged.length, `queries tagged ${phenomenon}`).toBeGreaterThanOrEqual(minimum.perPhenomenon);
    }
    const findingNothing = set.queries.filter((query) => query.expected.length === 0);
    expect(findingNothing.length).toBeGreaterThanOrEqual(minimum.findingNothing);
  });

  it('search every resource, in Arabic and in English', () => {
    for (const resource of searchedResources) {
      const texts = set.queries.filter((query) => query.resource === resource).map((query) => query.text);
      expect(
        texts.some((text) => /[\u0600-\u06ff]/.test(text)),
        `an Arabic query of ${resource}`,
      ).toBe(true);
      expect(
        texts.some((text) => /[a-z]/i.test(text)),
        `a Latin query of ${resource}`,
      ).toBe(true);
    }
  });

  it('expect records of the searched resource only, each once, and ask each query once', () => {
    const keys = new Map<string, string>();
    for (const resource of searchedResources) {
      for (const record of set.records[resource]) {
        expect(keys.has(record.key), `record key ${record.key} used twice`).toBe(false);
        keys.set(record.key, resource);
      }
    }
    const asked = new Set<string>();
    for (const query of set.queries) {
      expect(searchedResources).toContain(query.resource);
      const label = `${query.resource}: ${query.text}`;
      expect(asked.has(label), `${label} asked twice`).toBe(false);
      asked.add(label);
      expect(new Set(query.expected).size, label).toBe(query.expected.length);
      for (const key of query.expected) expect(keys.get(key), `${label} expects ${key}`).toBe(query.resource);
    }
  });

  it('hold records the API accepts as they are: unique codes, stored phones, valid barcodes', () => {
    for (const resource of searchedResources) {
      const codes = set.records[resource].map((record) => record.code);
      expect(new Set(codes).size, `${resource} codes`).toBe(codes.length);
    }
    for (const customer of set.records.customers) {
      for (const phone of customer.phones) expect(phone, customer.key).toMatch(normalizedPhonePattern);
    }
    const variants = set.records.products.flatMap((product) => product.variants);
    for (const { sku, barcode } of variants) {
      if (barcode !== null) expect(barcodeIssue(barcode), `${sku} ${barcode}`).toBeNull();
    }
    const skus = variants.map((variant) => variant.sku);
    expect(new Set(skus).size).toBe(skus.length);
  });
});
