import { describe, expect, it } from 'vitest';
import {
  type AuditedRecipeLine,
  formatRecipeChanges,
  type RecipeChangeFormat,
  recipeChanges,
  recipeLineKeys,
} from './recipe-changes.ts';

const milk: AuditedRecipeLine = {
  ingredient: [
    { locale: 'en', value: 'Milk' },
    { locale: 'ar', value: 'حليب' },
  ],
  variant: null,
  unit: 'l',
  quantity: 0.25,
  orderTypes: [],
  brands: [],
};
const beans: AuditedRecipeLine = {
  ingredient: [
    { locale: 'en', value: 'Beans' },
    { locale: 'ar', value: 'بن' },
  ],
  variant: [
    { locale: 'en', value: 'Dark' },
    { locale: 'ar', value: 'داكن' },
  ],
  unit: 'g',
  quantity: 18,
  orderTypes: [],
  brands: [],
};

const words: Record<string, Omit<RecipeChangeFormat, 'language'>> = {
  en: {
    orderType: (type) => ({ dineIn: 'Dine-in', takeaway: 'Takeaway', delivery: 'Delivery' })[type] ?? type,
    allOrderTypes: 'All order types',
    allBrands: 'All brands',
  },
  ar: {
    orderType: (type) => ({ dineIn: 'تناول في المكان', takeaway: 'سفري', delivery: 'توصيل' })[type] ?? type,
    allOrderTypes: 'كل أنواع الطلبات',
    allBrands: 'كل العلامات التجارية',
  },
};
const format = (language: 'en' | 'ar'): RecipeChangeFormat => ({ language, ...words[language]! });

describe('recipeLineKeys', () => {
  it('keys a line by its ingredient, its variant after a slash, and its repeat after a hash', () => {
    const lines = [
      { ingredientProductId: 'p1', ingredientVariantId: null },
      { ingredientProductId: 'p2', ingredientVariantId: 'v1' },
      { ingredientProductId: 'p1', ingredientVariantId: null },
      { ingredientProductId: 'p2', ingredientVariantId: 'v2' },
    ];
    expect(recipeLineKeys(lines).map(([key]) => key)).toEqual(['p1', 'p2/v1', 'p1#2', 'p2/v2']);
  });
});

describe('recipeChanges', () => {
  it('keeps the added, removed and changed lines, whole; null when none changed', () => {
    const before = { p1: milk, p2: beans };
    expect(recipeChanges(before, { p1: milk, p2: beans })).toBeNull();
    expect(recipeChanges(before, { p1: { ...milk, quantity: 0.3 }, p3: beans })).toEqual([
      { p1: milk, p2: beans },
      { p1: { ...milk, quantity: 0.3 }, p3: beans },
    ]);
    expect(recipeChanges({}, { p1: milk })).toEqual([{}, { p1: milk }]);
  });
});

describe('formatRecipeChanges', () => {
  const pair = [
    { p1: milk, p2: beans },
    {
      p1: { ...milk, quantity: 0.3, orderTypes: ['delivery', 'takeaway'] },
      p3: {
        ...milk,
        ingredient: [{ locale: 'en', value: 'Cream' }],
        quantity: 1500,
        brands: [milk.ingredient],
      },
    },
  ];

  it('reads each line by its ingredient and variant, its quantity in its unit, its limits by name', () => {
    expect(formatRecipeChanges(pair, format('en'))).toEqual([
      {
        key: 'p1',
        kind: 'changed',
        title: 'Milk',
        fields: [
          { field: 'quantity', before: '0.25 l', after: '0.3 l' },
          { field: 'orderTypes', before: 'All order types', after: 'Delivery, Takeaway' },
        ],
      },
      {
        key: 'p2',
        kind: 'removed',
        title: 'Beans - Dark',
        fields: [{ field: 'quantity', before: '18 g', after: null }],
      },
      {
        key: 'p3',
        kind: 'added',
        title: 'Cream',
        fields: [
          { field: 'quantity', before: null, after: '1,500 l' },
          { field: 'brands', before: null, after: 'Milk' },
        ],
      },
    ]);
  });

  it('in Arabic: its names, digits and list', () => {
    const [changed, removed, added] = formatRecipeChanges(pair, format('ar'))!;
    expect(changed!.fields).toEqual([
      { field: 'quantity', before: '٠٫٢٥ l', after: '٠٫٣ l' },
      { field: 'orderTypes', before: 'كل أنواع الطلبات', after: 'توصيل، سفري' },
    ]);
    expect(removed!.title).toBe('بن - داكن');
    // A name without Arabic falls back to the one it has.
    expect(added!.title).toBe('Cream');
    expect(added!.fields[1]).toEqual({ field: 'brands', before: null, after: 'حليب' });
  });

  it('is null for a change of another shape', () => {
    expect(formatRecipeChanges(null, format('en'))).toBeNull();
    expect(formatRecipeChanges([{}, { p1: { quantity: 1 } }], format('en'))).toBeNull();
    expect(formatRecipeChanges([[], []], format('en'))).toBeNull();
  });
});
