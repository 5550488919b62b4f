import type {
  MeasurementUnitRecord,
  ProductRecord,
  ProductVariantRecord,
  VariationTypeRecord,
} from '@dukkan/contract';
import i18next from 'i18next';
import { afterEach, beforeEach, vi } from 'vitest';
import { bothLanguages } from '../../test/localized.ts';
import { type RefusedIssue, validationRefusal } from '../../test/refusal.ts';
import type { MockRoute } from '../../test/render.tsx';

/*
 * Records the products tests answer with: units, categories, variation types with their values,
 * and products. Ids are UUIDs, as the contract's references are.
 */

export const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

const stamps = { createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' };
const names = (en: string, ar: string) => [
  { locale: 'en' as const, value: en },
  { locale: 'ar' as const, value: ar },
];

export const list = (records: readonly unknown[], total = records.length) => ({
  data: records,
  meta: { total, page: 1, pageSize: 20 },
});

export const grams: MeasurementUnitRecord = {
  id: uuid(1),
  code: 'G',
  name: names('Gram', 'غرام'),
  symbol: 'g',
  status: 'active',
  ...stamps,
};
export const cups: MeasurementUnitRecord = {
  id: uuid(2),
  code: 'CUP',
  name: names('Cup', 'كوب'),
  symbol: 'cup',
  status: 'active',
  ...stamps,
};

export const drinks = {
  id: uuid(10),
  code: 'DRK',
  name: names('Drinks', 'مشروبات'),
  description: names('Drinks', 'مشروبات'),
  parentId: null,
  status: 'active',
  ...stamps,
};

/** A variation type whose values are named by `values` (English; the Arabic adds ' ع'). */
function variationType(
  id: number,
  code: string,
  en: string,
  ar: string,
  values: string[],
): VariationTypeRecord {
  return {
    id: uuid(id),
    code,
    name: names(en, ar),
    values: values.map((value, index) => ({
      id: uuid(id * 10_000 + index + 1),
      code: value.toUpperCase(),
      name: names(value, `${value} ع`),
      position: index,
      status: 'active' as const,
    })),
    status: 'active',
    ...stamps,
  };
}

export const size = variationType(100, 'SIZE', 'Size', 'الحجم', ['Small', 'Medium', 'Large']);
export const milk = variationType(200, 'MILK', 'Milk', 'الحليب', ['Whole', 'Skim', 'Oat', 'Soy']);
/** 683 values: with the 3 sizes, 2,049 combinations — one past the limit. */
const shade = variationType(
  300,
  'SHADE',
  'Shade',
  'الدرجة',
  Array.from({ length: 683 }, (_, index) => `Shade ${index + 1}`),
);
const variationTypes = [size, milk, shade];

const valueIds = (type: VariationTypeRecord) => type.values.map((value) => value.id);

/** The stored variants of Size × Milk, in the generator's order (the last type turns fastest). */
function latteVariants(): ProductVariantRecord[] {
  const variants: ProductVariantRecord[] = [];
  for (const sizeValue of size.values)
    for (const milkValue of milk.values) {
      const position = variants.length;
      variants.push({
        id: uuid(5000 + position),
        key: `${sizeValue.id}-${milkValue.id}`,
        position,
        valueIds: [sizeValue.id, milkValue.id],
        title: bothLanguages(
          `${sizeValue.name[0]!.value}, ${milkValue.name[0]!.value}`,
          `${sizeValue.name[1]!.value}، ${milkValue.name[1]!.value}`,
        ),
        sku: position === 0 ? 'LAT-S-WHOLE' : null,
        barcode: null,
        price: 12_000 + position * 500,
        cost: null,
        images: [],
        status: 'active',
        usedInRecipe: false,
      });
    }
  return variants;
}

/** What the products of these tests leave as a new product has it: no images, tags, price or tax. */
const productDefaults: Pick<
  ProductRecord,
  'wasteCategoryId' | 'tagIds' | 'images' | 'price' | 'cost' | 'taxId' | 'pricesIncludeTax'
> = {
  wasteCategoryId: null,
  tagIds: [],
  images: [],
  price: 0,
  cost: null,
  taxId: null,
  pricesIncludeTax: true,
};

export const syrup: ProductRecord = {
  id: uuid(3001),
  code: 'SYR',
  name: names('Vanilla syrup', 'شراب الفانيليا'),
  measurementUnitId: grams.id,
  categoryId: null,
  ...productDefaults,
  priceMin: 0,
  priceMax: 0,
  options: [],
  variantsCount: 0,
  status: 'active',
  ...stamps,
};

export const sugar: ProductRecord = {
  ...syrup,
  id: uuid(3002),
  code: 'SUG',
  name: names('Sugar', 'سكر'),
  // Every variant inactive: no price range to show.
  priceMin: null,
  priceMax: null,
};

/** A stored latte: Size × Milk (12 variants, the first with a SKU) and a recipe of one syrup line. */
export const latte: ProductRecord = {
  id: uuid(3000),
  code: 'LAT',
  name: names('Latte', 'لاتيه'),
  measurementUnitId: cups.id,
  categoryId: drinks.id,
  ...productDefaults,
  priceMin: 12_000,
  priceMax: 17_500,
  options: [
    { typeId: size.id, valueIds: valueIds(size) },
    { typeId: milk.id, valueIds: valueIds(milk) },
  ],
  variantsCount: 12,
  variants: latteVariants(),
  recipe: [
    {
      id: uuid(4000),
      ingredientProductId: syrup.id,
      ingredientVariantId: null,
      quantity: 20,
      orderTypes: [],
      brandIds: [],
      ingredient: {
        code: syrup.code,
        name: syrup.name,
        measurementUnitId: grams.id,
        variantTitle: null,
      },
    },
  ],
  status: 'active',
  ...stamps,
};

/** The lists every product page reads: units, categories, tags, brands, variation types. */
export const catalogueRoutes: MockRoute[] = [
  { path: '/api/measurement-units', body: list([grams, cups]) },
  { path: '/api/categories', body: list([drinks]) },
  { path: '/api/waste-categories', body: list([]) },
  { path: '/api/product-tags', body: list([]) },
  { path: '/api/brands', body: list([]) },
  { path: '/api/variation-types', body: list(variationTypes) },
];

/** A refused save, as the server words it. */
export const refusal = (issues: RefusedIssue[]) => validationRefusal(issues, { key: issues[0]?.path });

/**
 * Around each test of the product page: happy-dom lays nothing out, so the variant grid's
 * scrolling frame gets the size a browser gives it; after it, mocks and globals are restored and
 * the language is English again.
 */
export function setUpProductPageTests() {
  beforeEach(() => {
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(448);
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(1024);
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
    await i18next.changeLanguage('en');
  });
}
