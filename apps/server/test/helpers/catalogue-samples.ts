import { eq } from 'drizzle-orm';
import type { Database } from '../../src/db/client.ts';
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
} from '../../src/db/schema/index.ts';
import { unique } from './workspaces.ts';

/**
 * A stored record of each catalogue resource that nothing depends on, and a valid input (which
 * may name records of the workspace it is sent to: a location's brand).
 */
export interface CatalogueSample {
  create(db: Database, workspaceId: string): Promise<string>;
  /** A valid input; `records`: resource key → id of a record of the workspace it is sent to. */
  input(records?: Record<string, string>): Record<string, unknown>;
}

const name = (en: string, ar?: string) => [
  { locale: 'en', value: en },
  ...(ar ? [{ locale: 'ar', value: ar }] : []),
];

async function insertBrand(db: Database, workspaceId: string): Promise<string> {
  const [row] = await db
    .insert(brands)
    .values({ workspaceId, code: unique('b'), nameEn: unique('Brand '), nameAr: 'علامة' })
    .returning({ id: brands.id });
  return row!.id;
}

export const catalogueSamples: Record<string, CatalogueSample> = {
  brands: {
    create: insertBrand,
    input: () => ({ code: unique('b'), name: name('Sample brand', 'علامة تجريبية'), currencies: ['SAR'] }),
  },
  locations: {
    async create(db, workspaceId) {
      const [row] = await db
        .insert(locations)
        .values({
          workspaceId,
          code: unique('l'),
          nameEn: 'Branch',
          brandId: await insertBrand(db, workspaceId),
          phones: [{ label: 'Front', number: '0500000000' }],
        })
        .returning({ id: locations.id });
      return row!.id;
    },
    input: (records = {}) => ({
      code: unique('l'),
      name: name('Sample branch', 'فرع تجريبي'),
      brandId: records.brands,
      workingHours: [{ day: 'monday', opensAt: 9 * 3600, closesAt: 17 * 3600 }],
      address: 'King Fahd Road',
      phones: [{ label: 'Front', number: '0500000000' }],
    }),
  },
  taxes: {
    async create(db, workspaceId) {
      const [row] = await db
        .insert(taxes)
        .values({ workspaceId, code: unique('t'), title: 'VAT', country: 'SA', rate: 15 })
        .returning({ id: taxes.id });
      return row!.id;
    },
    input: () => ({ code: unique('t'), title: 'VAT', country: 'SA', rate: 15 }),
  },
  measurementUnits: {
    async create(db, workspaceId) {
      const [row] = await db
        .insert(measurementUnits)
        .values({ workspaceId, code: unique('u'), nameEn: 'Kilogram', symbol: 'kg' })
        .returning({ id: measurementUnits.id });
      return row!.id;
    },
    input: () => ({ code: unique('u'), name: name('Litre', 'لتر'), symbol: 'L' }),
  },
  categories: {
    async create(db, workspaceId) {
      const [row] = await db
        .insert(categories)
        .values({ workspaceId, code: unique('c'), nameEn: 'Drinks', description: 'Cold drinks' })
        .returning({ id: categories.id });
      return row!.id;
    },
    input: () => ({ code: unique('c'), name: name('Snacks', 'وجبات خفيفة'), description: 'Small things' }),
  },
  wasteCategories: {
    async create(db, workspaceId) {
      const [row] = await db
        .insert(wasteCategories)
        .values({ workspaceId, code: unique('w'), nameEn: 'Expired', description: 'Past its date' })
        .returning({ id: wasteCategories.id });
      return row!.id;
    },
    input: () => ({ code: unique('w'), name: name('Damaged', 'تالف'), description: 'Broken in transit' }),
  },
  productTags: {
    async create(db, workspaceId) {
      const [row] = await db
        .insert(productTags)
        .values({ workspaceId, code: unique('g'), nameEn: 'New' })
        .returning({ id: productTags.id });
      return row!.id;
    },
    input: () => ({ code: unique('g'), name: name('Sale', 'تخفيض') }),
  },
  customers: {
    async create(db, workspaceId) {
      const [row] = await db
        .insert(customers)
        .values({ workspaceId, code: unique('k'), name: 'Sara', phones: ['0500000001'], source: 'walkIn' })
        .returning({ id: customers.id });
      return row!.id;
    },
    input: () => ({ code: unique('k'), name: 'Omar', phones: ['0500000002'], source: 'online' }),
  },
  exchangeRates: {
    // Rates are never deleted and one currency has one rate: the workspace's first one is reused.
    async create(db, workspaceId) {
      const [existing] = await db
        .select({ id: exchangeRates.id })
        .from(exchangeRates)
        .where(eq(exchangeRates.workspaceId, workspaceId))
        .limit(1);
      if (existing) return existing.id;
      const [row] = await db
        .insert(exchangeRates)
        .values({ workspaceId, currency: nextCurrency(), rate: 3.75 })
        .returning({ id: exchangeRates.id });
      return row!.id;
    },
    input: () => ({ currency: nextCurrency(), rate: 1.5 }),
  },
};

const currencies = Intl.supportedValuesOf('currency').filter((code) => /^[A-Z]{3}$/.test(code));
let currencyIndex = 0;
/** A currency no earlier call of this run returned (exchange rates are unique per currency). */
export function nextCurrency(): string {
  currencyIndex = (currencyIndex + 1) % currencies.length;
  return currencies[currencyIndex]!;
}
