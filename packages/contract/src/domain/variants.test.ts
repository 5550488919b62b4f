import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validationCodes } from '../validation-codes.ts';
import type { LocalizedText } from './localized-text.ts';
import {
  checkVariantCount,
  countVariants,
  generateVariants,
  maxVariantsPerProduct,
  regenerateVariants,
  type StoredVariant,
  TooManyVariantsError,
  type VariantOption,
  variantDisplayTitle,
} from './variants.ts';

const text = (en: string, ar?: string): LocalizedText =>
  ar === undefined
    ? [{ locale: 'en', value: en }]
    : [
        { locale: 'en', value: en },
        { locale: 'ar', value: ar },
      ];

const size: VariantOption = {
  id: 'size',
  name: text('Size', 'الحجم'),
  values: [
    { id: 's', value: text('Small', 'صغير') },
    { id: 'l', value: text('Large', 'كبير') },
  ],
};
const milk: VariantOption = {
  id: 'milk',
  name: text('Milk', 'الحليب'),
  values: [
    { id: 'oat', value: text('Oat', 'شوفان') },
    { id: 'soy', value: text('Soy', 'صويا') },
    { id: 'cow', value: [{ locale: 'ar', value: 'بقري' }] },
  ],
};

/** `types` option types with `values` values each; ids from the type and value numbers. */
const optionsOf = (types: number, values: number): VariantOption[] =>
  Array.from({ length: types }, (_, type) => ({
    id: `t${type}`,
    name: text(`Type ${type}`),
    values: Array.from({ length: values }, (_, value) => ({
      id: `t${type}v${value}`,
      value: text(`V${value}`),
    })),
  }));

describe('generateVariants (spec §9)', () => {
  it('expands the options into their cartesian product, in type order, keyed by value ids', () => {
    const variants = generateVariants([size, milk]);
    expect(variants.map((variant) => variant.key)).toEqual([
      's-oat',
      's-soy',
      's-cow',
      'l-oat',
      'l-soy',
      'l-cow',
    ]);
    expect(variants[0]?.valueIds).toEqual(['s', 'oat']);
    expect(variants[0]?.values.map((value) => value.id)).toEqual(['s', 'oat']);
  });

  it('skips a type without a name in either language, or without values', () => {
    const unnamed = { ...milk, name: [{ locale: 'en', value: '  ' }] };
    const empty = { ...milk, id: 'empty', values: [] };
    expect(generateVariants([size, unnamed, empty]).map((variant) => variant.key)).toEqual(['s', 'l']);
    const arabicOnly = { ...milk, name: [{ locale: 'ar', value: 'الحليب' }] };
    expect(generateVariants([arabicOnly])).toHaveLength(3);
  });

  it('makes nothing when no type takes part', () => {
    expect(generateVariants([])).toEqual([]);
    expect(countVariants([{ ...size, values: [] }])).toBe(0);
  });

  it('counts a value chosen twice once', () => {
    const twice = { ...size, values: [...size.values, ...size.values] };
    expect(countVariants([twice])).toBe(2);
    expect(generateVariants([twice]).map((variant) => variant.key)).toEqual(['s', 'l']);
  });

  it('merges the extra data stored under each key', () => {
    const variants = generateVariants<{ sku: string; active: boolean }>([size, milk], {
      'l-soy': { sku: 'LATTE-L-SOY', active: false },
      'x-y': { sku: 'NOT-CHOSEN', active: true },
    });
    const largeSoy = variants.find((variant) => variant.key === 'l-soy');
    expect(largeSoy).toMatchObject({ sku: 'LATTE-L-SOY', active: false, valueIds: ['l', 'soy'] });
    expect(variants.filter((variant) => variant.sku !== undefined)).toHaveLength(1);
  });

  it('extra data cannot change what makes the combination', () => {
    const [variant] = generateVariants([size], { s: { key: 'forged', valueIds: ['x'] } });
    expect(variant?.key).toBe('s');
    expect(variant?.valueIds).toEqual(['s']);
  });

  it('titles each variant by its values joined by comma, per locale, with the §9 fallback', () => {
    const variants = generateVariants([size, milk]);
    expect(variants[0]?.title).toEqual(text('Small, Oat', 'صغير، شوفان'));
    // "cow" has only Arabic: English falls back to the first entry.
    expect(variants[2]?.title).toEqual(text('Small, بقري', 'صغير، بقري'));
  });

  it("shows 'parent title - value titles' (spec §9)", () => {
    const [first] = generateVariants([size, milk], undefined, { parentTitle: text('Latte', 'لاتيه') });
    expect(first?.displayTitle).toEqual(text('Latte - Small, Oat', 'لاتيه - صغير، شوفان'));
    expect(variantDisplayTitle(text('Latte', 'لاتيه'), text('Small', 'صغير'), 'ar')).toBe('لاتيه - صغير');
    expect(variantDisplayTitle(text('Latte', 'لاتيه'), text('Small', 'صغير'), 'en-US')).toBe('Latte - Small');
    expect(variantDisplayTitle(null, text('Small', 'صغير'), 'ar')).toBe('صغير');
    expect(variantDisplayTitle(text('Latte'), [], 'en')).toBe('Latte - -');
  });

  it('an extra title with text replaces the generated one', () => {
    const variants = generateVariants(
      [size],
      { s: { title: text('Short', 'قصير') }, l: { title: [] } },
      {
        parentTitle: text('Latte', 'لاتيه'),
      },
    );
    expect(variants[0]?.displayTitle).toEqual(text('Latte - Short', 'لاتيه - قصير'));
    expect(variants[1]?.title).toEqual(text('Large', 'كبير'));
  });

  it('generates 2,048 combinations in one pure call', () => {
    const options = optionsOf(11, 2);
    const first = generateVariants(options);
    expect(first).toHaveLength(2048);
    expect(new Set(first.map((variant) => variant.key)).size).toBe(2048);
    expect(generateVariants(options)).toEqual(first);
  });
});

describe('the variant limit', () => {
  it('is 2,048 per product', () => {
    expect(maxVariantsPerProduct).toBe(2048);
  });

  it('accepts 2,048 and refuses 2,049, naming the count', () => {
    const accepted = [...optionsOf(1, 2048)];
    expect(checkVariantCount(accepted)).toEqual({ ok: true, count: 2048 });
    expect(generateVariants(accepted)).toHaveLength(2048);

    const refused = [...optionsOf(1, 2049)];
    expect(checkVariantCount(refused)).toEqual({
      ok: false,
      code: validationCodes.TOO_MANY_VARIANTS,
      count: 2049,
      max: 2048,
    });
    expect(() => generateVariants(refused)).toThrow(TooManyVariantsError);
    try {
      generateVariants(refused);
    } catch (error) {
      expect(error).toMatchObject({
        code: 'TOO_MANY_VARIANTS',
        count: 2049,
        params: { count: 2049, max: 2048 },
      });
    }
  });

  it('counts 10 types × 10 values without building them', () => {
    const options = optionsOf(10, 10);
    expect(countVariants(options)).toBe(1e10);
    // Merging looks every combination up: not a single lookup happens before the refusal.
    let lookups = 0;
    const lookup = () => {
      lookups++;
      return undefined;
    };
    expect(() => generateVariants(options, lookup)).toThrow(TooManyVariantsError);
    expect(() => regenerateVariants([], options, lookup)).toThrow(TooManyVariantsError);
    expect(lookups).toBe(0);
  });
});

describe('regenerateVariants', () => {
  type Data = { sku?: string; barcode?: string; images?: string[]; active?: boolean };
  const stored = (key: string, data: Data, usedByRecipe = false): StoredVariant<Data> => ({
    id: `id-${key}`,
    key,
    data,
    usedByRecipe,
  });

  it('keeps surviving variants, inserts new ones and removes or deactivates dropped ones', () => {
    const existing = [
      stored('s-oat', { sku: 'S-OAT', barcode: '4006381333931', images: ['a.png'], active: false }),
      stored('s-soy', { sku: 'S-SOY' }),
      stored('l-soy', { sku: 'L-SOY' }, true),
    ];
    const oatOnly = { ...milk, values: milk.values.filter((value) => value.id !== 'soy') };
    const plan = regenerateVariants(existing, [size, oatOnly]);
    expect(plan.kept).toMatchObject([
      {
        id: 'id-s-oat',
        key: 's-oat',
        data: { sku: 'S-OAT', barcode: '4006381333931', images: ['a.png'], active: false },
        combination: { key: 's-oat', sku: 'S-OAT', valueIds: ['s', 'oat'] },
      },
    ]);
    expect(plan.inserted.map((variant) => variant.key)).toEqual(['s-cow', 'l-oat', 'l-cow']);
    expect(plan.removed.map((variant) => variant.id)).toEqual(['id-s-soy']);
    expect(plan.deactivated.map((variant) => variant.id)).toEqual(['id-l-soy']);
  });

  it('renaming a value keeps its variants', () => {
    const existing = [stored('s', { sku: 'S' }), stored('l', { sku: 'L' })];
    const renamed = { ...size, values: [{ id: 's', value: text('Short', 'قصير') }, size.values[1]!] };
    const plan = regenerateVariants(existing, [renamed]);
    expect(plan.kept.map((variant) => variant.id)).toEqual(['id-s', 'id-l']);
    expect(plan.kept[0]?.combination.title).toEqual(text('Short', 'قصير'));
    expect(plan.inserted).toEqual([]);
  });

  it("lays this save's edits over the stored data, and onto new variants", () => {
    const existing = [stored('s', { sku: 'S', barcode: '4006381333931' })];
    const plan = regenerateVariants(existing, [size], { s: { sku: 'S2' }, l: { sku: 'L' } });
    expect(plan.kept[0]?.data).toEqual({ sku: 'S2', barcode: '4006381333931' });
    expect(plan.inserted).toMatchObject([{ key: 'l', sku: 'L' }]);
  });
});

// Ids are UUIDs, as stored: fixed length, so joining them with '-' cannot make two keys alike.
const optionsArbitrary = fc
  .array(
    fc.record({
      id: fc.uuid(),
      named: fc.boolean(),
      values: fc.uniqueArray(fc.uuid(), { maxLength: 4 }),
    }),
    { maxLength: 5 },
  )
  .map((types) =>
    types.map(
      (type): VariantOption => ({
        id: type.id,
        name: type.named ? text(`n${type.id}`) : [],
        values: type.values.map((id) => ({ id, value: text(`v${id}`) })),
      }),
    ),
  );

const takesPart = (option: VariantOption) => option.name.length > 0 && option.values.length > 0;

describe('generator properties', () => {
  it('count = product of the value counts of the types that take part; keys unique, ids in type order', () => {
    fc.assert(
      fc.property(optionsArbitrary, (options) => {
        const usable = options.filter(takesPart);
        const expected =
          usable.length === 0 ? 0 : usable.reduce((count, option) => count * option.values.length, 1);
        const variants = generateVariants(options);
        expect(countVariants(options)).toBe(expected);
        expect(variants).toHaveLength(expected);
        expect(new Set(variants.map((variant) => variant.key)).size).toBe(expected);
        for (const variant of variants) {
          expect(variant.valueIds).toHaveLength(usable.length);
          variant.valueIds.forEach((id, type) => {
            expect(usable[type]?.values.some((value) => value.id === id)).toBe(true);
          });
          expect(variant.key).toBe(variant.valueIds.join('-'));
        }
      }),
    );
  });

  it('every combination carries the extra data stored under its key, and only that', () => {
    fc.assert(
      fc.property(optionsArbitrary, fc.array(fc.nat(), { maxLength: 10 }), (options, picks) => {
        const keys = generateVariants(options).map((variant) => variant.key);
        const extra: Record<string, { sku: string }> = {};
        for (const pick of picks)
          if (keys.length > 0) extra[keys[pick % keys.length]!] = { sku: `SKU-${pick}` };
        for (const variant of generateVariants(options, extra))
          expect(variant.sku).toBe(extra[variant.key]?.sku);
      }),
    );
  });
});

describe('regeneration properties', () => {
  /** Stored variants from a first choice, then a second choice drawn from the same types. */
  const scenario = optionsArbitrary.chain((options) =>
    fc.record({
      before: fc.constant(options),
      after: fc.tuple(
        ...options.map((option) => fc.subarray([...option.values]).map((values) => ({ ...option, values }))),
        fc.constant(null),
      ),
      usedByRecipe: fc.func(fc.boolean()),
      added: fc.array(fc.uuid(), { maxLength: 2 }),
    }),
  );

  it('kept ∪ removed ∪ deactivated = existing, kept ∪ inserted = the new combinations, ids kept, no key twice', () => {
    fc.assert(
      fc.property(scenario, ({ before, after, usedByRecipe, added }) => {
        const existing = generateVariants(before).map(
          (variant, index): StoredVariant<{ sku: string }> => ({
            id: `id-${index}`,
            key: variant.key,
            data: { sku: `SKU-${index}` },
            usedByRecipe: usedByRecipe(variant.key),
          }),
        );
        const next = after.filter((option) => option !== null) as VariantOption[];
        // A new value on the first type: its combinations are new.
        if (next[0])
          next[0] = {
            ...next[0],
            values: [...next[0].values, ...added.map((id) => ({ id, value: text(id) }))],
          };
        const plan = regenerateVariants(existing, next);
        const keys = (list: { key: string }[]) => list.map((variant) => variant.key).sort();

        expect(keys([...plan.kept, ...plan.removed, ...plan.deactivated])).toEqual(keys(existing));
        expect(keys([...plan.kept, ...plan.inserted])).toEqual(keys(generateVariants(next)));
        const all = [...plan.kept, ...plan.inserted, ...plan.removed, ...plan.deactivated].map((v) => v.key);
        expect(new Set(all).size).toBe(all.length);
        const byKey = new Map(existing.map((variant) => [variant.key, variant]));
        for (const variant of plan.kept) {
          expect(variant.id).toBe(byKey.get(variant.key)?.id);
          expect(variant.data).toEqual(byKey.get(variant.key)?.data);
          expect(variant.combination.sku).toBe(byKey.get(variant.key)?.data.sku);
        }
        for (const variant of plan.inserted) expect(byKey.has(variant.key)).toBe(false);
        for (const variant of plan.removed) expect(variant.usedByRecipe).toBe(false);
        for (const variant of plan.deactivated) expect(variant.usedByRecipe).toBe(true);
      }),
    );
  });
});
