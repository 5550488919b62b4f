import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyMoneyChange, type MoneyChange } from './money.ts';
import {
  applyVariantBulkEdit,
  expandSkuPattern,
  slugVariantValues,
  type VariantBulkEdit,
  type VariantRow,
} from './variant-bulk-edit.ts';

const row = (id: string, title: string, extra: Partial<VariantRow> = {}): VariantRow => ({
  id,
  key: `key-${id}`,
  title,
  sku: null,
  barcode: null,
  price: 0,
  cost: null,
  images: [],
  status: 'active',
  ...extra,
});

const latte = [
  row('a', 'Small, Oat milk'),
  row('b', 'Small, Soy'),
  row('c', 'Large, Oat milk', { sku: 'OLD', images: ['x.png', 'y.png'] }),
  row('d', 'Large, Soy', { status: 'inactive' }),
];

describe('slugVariantValues', () => {
  it('upper-cases each value, makes its spaces dashes and joins the values by dashes', () => {
    expect(slugVariantValues('Large, Oat milk')).toBe('LARGE-OAT-MILK');
    expect(slugVariantValues('Extra  large ,  Oat')).toBe('EXTRA-LARGE-OAT');
    expect(slugVariantValues('كبير، حليب الشوفان')).toBe('كبير-حليب-الشوفان');
    expect(slugVariantValues('')).toBe('');
  });
});

describe('expandSkuPattern', () => {
  it('fills {code}, {n} padded to the width of the count, and {values}', () => {
    const at = { code: 'LATTE', position: 7, count: 2048, title: 'Large, Oat milk' };
    expect(expandSkuPattern('{code}-{n}', at)).toBe('LATTE-0007');
    expect(expandSkuPattern('{code}-{values}', at)).toBe('LATTE-LARGE-OAT-MILK');
    expect(expandSkuPattern('{n}', { ...at, count: 9 })).toBe('7');
    expect(expandSkuPattern('{n}/{n}', { ...at, position: 10, count: 10 })).toBe('10/10');
    expect(expandSkuPattern('X{size}{code}', at)).toBe('X{size}LATTE');
  });
});

describe('applyVariantBulkEdit', () => {
  it('gives the selected variants SKUs from a pattern, numbered in the grid order', () => {
    const { variants, changed } = applyVariantBulkEdit(
      latte,
      { sku: { pattern: '{code}-{n}-{values}' } },
      // The ids' order does not number them: the variants' order does.
      { targets: ['d', 'b'], productCode: 'LATTE' },
    );
    expect(variants.map((variant) => variant.sku)).toEqual([
      null,
      'LATTE-1-SMALL-SOY',
      'OLD',
      'LATTE-2-LARGE-SOY',
    ]);
    expect(changed).toEqual(['b', 'd']);
    expect(variants[0]).toBe(latte[0]);
    expect(variants[2]).toBe(latte[2]);
  });

  it("applies to all, zero-padding {n} to the count's width", () => {
    const many = Array.from({ length: 12 }, (_, index) => row(`v${index}`, `V${index}`));
    const { variants, changed } = applyVariantBulkEdit(
      many,
      { sku: { pattern: 'TEA-{n}' } },
      { targets: 'all', productCode: 'TEA' },
    );
    expect(variants[0]?.sku).toBe('TEA-01');
    expect(variants[11]?.sku).toBe('TEA-12');
    expect(changed).toHaveLength(12);
  });

  it('sets or clears a barcode, and a blank pattern clears the SKU', () => {
    const set = applyVariantBulkEdit(
      latte,
      { barcode: ' 4006381333931 ' },
      { targets: ['a'], productCode: 'L' },
    );
    expect(set.variants[0]?.barcode).toBe('4006381333931');
    const cleared = applyVariantBulkEdit(
      set.variants,
      { barcode: '', sku: { pattern: ' ' } },
      {
        targets: ['a', 'c'],
        productCode: 'L',
      },
    );
    expect(cleared.variants.map((variant) => [variant.sku, variant.barcode])).toEqual([
      [null, null],
      [null, null],
      [null, null],
      [null, null],
    ]);
    expect(cleared.changed).toEqual(['a', 'c']);
  });

  it("puts one of the product's images first, once, or removes the images", () => {
    const first = applyVariantBulkEdit(latte, { image: 'y.png' }, { targets: ['a', 'c'], productCode: 'L' });
    expect(first.variants[0]?.images).toEqual(['y.png']);
    expect(first.variants[2]?.images).toEqual(['y.png', 'x.png']);

    const already = applyVariantBulkEdit(latte, { image: 'x.png' }, { targets: ['c'], productCode: 'L' });
    expect(already.changed).toEqual([]);
    expect(already.variants[2]).toBe(latte[2]);

    const none = applyVariantBulkEdit(latte, { image: null }, { targets: 'all', productCode: 'L' });
    expect(none.variants.map((variant) => variant.images)).toEqual([[], [], [], []]);
    expect(none.changed).toEqual(['c']);
  });

  it('sets the status; a variant already so is not counted as changed', () => {
    const { variants, changed } = applyVariantBulkEdit(
      latte,
      { status: 'inactive' },
      { targets: 'all', productCode: 'L' },
    );
    expect(variants.every((variant) => variant.status === 'inactive')).toBe(true);
    expect(changed).toEqual(['a', 'b', 'c']);
  });

  it('changes prices by a percentage, rounded half-up, and sets or changes costs', () => {
    const priced = [
      row('a', 'S', { price: 1005, cost: 500 }),
      row('b', 'M', { price: 1000 }),
      row('c', 'L', { price: 1200, cost: 700 }),
    ];
    const raised = applyVariantBulkEdit(
      priced,
      { price: { kind: 'percent', percent: 10 }, cost: { kind: 'add', amount: 50 } },
      { targets: ['a', 'b'], productCode: 'L' },
    );
    expect(raised.variants.map((variant) => [variant.price, variant.cost])).toEqual([
      [1106, 550],
      [1100, null],
      [1200, 700],
    ]);
    expect(raised.changed).toEqual(['a', 'b']);
    const costed = applyVariantBulkEdit(
      priced,
      { cost: { kind: 'set', amount: 300 } },
      {
        targets: 'all',
        productCode: 'L',
      },
    );
    expect(costed.variants.map((variant) => variant.cost)).toEqual([300, 300, 300]);
  });

  it('changes no price when one would fall below zero, and says which', () => {
    const priced = [row('a', 'S', { price: 2000 }), row('b', 'M', { price: 500 })];
    const result = applyVariantBulkEdit(
      priced,
      { price: { kind: 'subtract', amount: 1000 } },
      {
        targets: 'all',
        productCode: 'L',
      },
    );
    expect(result.changed).toEqual([]);
    expect(result.refused).toEqual({ id: 'b', field: 'price', code: 'MONEY_IS_NEGATIVE' });
    expect(result.variants[0]).toBe(priced[0]);
  });

  it('ignores unknown ids, and an empty edit changes nothing', () => {
    expect(
      applyVariantBulkEdit(latte, { status: 'inactive' }, { targets: ['nope'], productCode: 'L' }).changed,
    ).toEqual([]);
    const { variants, changed } = applyVariantBulkEdit(latte, {}, { targets: 'all', productCode: 'L' });
    expect(changed).toEqual([]);
    variants.forEach((variant, index) => {
      expect(variant).toBe(latte[index]);
    });
  });

  it('keeps extra fields of the variants it is given', () => {
    const extended = [{ ...row('a', 'S'), usedInRecipe: true }];
    const [variant] = applyVariantBulkEdit(
      extended,
      { sku: { pattern: 'A' } },
      { targets: 'all', productCode: 'L' },
    ).variants;
    expect(variant).toMatchObject({ sku: 'A', usedInRecipe: true });
  });
});

/** Value titles that slug one way each: upper-case letters and digits, joined by ', '. */
const valueTitle = fc
  .array(fc.string({ unit: fc.constantFrom(...'ABCXYZ019'), minLength: 1, maxLength: 3 }), {
    minLength: 1,
    maxLength: 3,
  })
  .map((values) => values.join(', '));

const variantsArbitrary = fc
  .uniqueArray(valueTitle, { minLength: 1, maxLength: 40 })
  .chain((titles) =>
    fc.tuple(
      fc.constant(titles),
      fc.array(
        fc.record({
          sku: fc.option(fc.string({ maxLength: 6 }), { nil: null }),
          barcode: fc.option(fc.constantFrom('4006381333931', '96385074'), { nil: null }),
          price: fc.integer({ min: 0, max: 1_000_000 }),
          cost: fc.option(fc.integer({ min: 0, max: 1_000_000 }), { nil: null }),
          images: fc.uniqueArray(fc.constantFrom('a.png', 'b.png', 'c.png'), { maxLength: 3 }),
          status: fc.constantFrom('active' as const, 'inactive' as const),
        }),
        { minLength: titles.length, maxLength: titles.length },
      ),
    ),
  )
  .map(([titles, fields]) =>
    titles.map(
      (title, index): VariantRow => ({ id: `id-${index}`, key: `k-${index}`, title, ...fields[index]! }),
    ),
  );

const moneyChangeArbitrary: fc.Arbitrary<MoneyChange> = fc.oneof(
  fc.record({
    kind: fc.constantFrom('set' as const, 'add' as const, 'subtract' as const),
    amount: fc.nat(500_000),
  }),
  fc.record({
    kind: fc.constant('percent' as const),
    percent: fc.integer({ min: -1_500_000, max: 1_000_000 }).map((n) => n / 10_000),
  }),
);

const editArbitrary: fc.Arbitrary<VariantBulkEdit> = fc.record(
  {
    sku: fc.record({ pattern: fc.constantFrom('{code}-{n}', '{values}', 'X', '', '{code}') }),
    barcode: fc.option(fc.constantFrom('', '036000291452'), { nil: null }),
    image: fc.option(fc.constantFrom('a.png', 'b.png', 'z.png'), { nil: null }),
    status: fc.constantFrom('active' as const, 'inactive' as const),
    price: moneyChangeArbitrary,
    cost: moneyChangeArbitrary,
  },
  { requiredKeys: [] },
);

/** Literal text without braces, and tokens, with at least one {n} or {values}. */
const distinctPattern = fc
  .array(
    fc.oneof(fc.constantFrom('{code}', '{n}', '{values}'), fc.string({ unit: fc.constantFrom(...'-_AB.') })),
    {
      maxLength: 5,
    },
  )
  .chain((pieces) =>
    fc
      .tuple(fc.constantFrom('{n}', '{values}'), fc.nat({ max: pieces.length }))
      .map(([token, at]) => [...pieces.slice(0, at), token, ...pieces.slice(at)].join('')),
  );

describe('bulk edit properties', () => {
  const scenario = variantsArbitrary.chain((variants) =>
    fc.record({
      variants: fc.constant(variants),
      targets: fc.subarray(variants.map((variant) => variant.id)),
      edit: editArbitrary,
    }),
  );

  it('only targets change; every other variant is the very same object', () => {
    fc.assert(
      fc.property(scenario, ({ variants, targets, edit }) => {
        const result = applyVariantBulkEdit(variants, edit, { targets, productCode: 'P' });
        const targeted = new Set(targets);
        expect(result.variants).toHaveLength(variants.length);
        result.variants.forEach((variant, index) => {
          const before = variants[index]!;
          expect(variant.id).toBe(before.id);
          expect(variant.key).toBe(before.key);
          expect(variant.title).toBe(before.title);
          if (!targeted.has(before.id)) expect(variant).toBe(before);
        });
        for (const id of result.changed) expect(targeted.has(id)).toBe(true);
        // `changed` names exactly the variants that differ.
        const differing = result.variants
          .filter((variant, index) => JSON.stringify(variant) !== JSON.stringify(variants[index]))
          .map((variant) => variant.id);
        expect(result.changed).toEqual(differing);
      }),
    );
  });

  it('a target has what the edit sets', () => {
    fc.assert(
      fc.property(scenario, ({ variants, targets, edit }) => {
        const result = applyVariantBulkEdit(variants, edit, { targets, productCode: 'P' });
        // A refused price or cost change sets nothing (the next property).
        if (result.refused) return;
        const targeted = new Set(targets);
        for (const variant of result.variants.filter((candidate) => targeted.has(candidate.id))) {
          if (edit.status) expect(variant.status).toBe(edit.status);
          if (edit.barcode !== undefined) expect(variant.barcode).toBe(edit.barcode || null);
          if (edit.image === null) expect(variant.images).toEqual([]);
          if (edit.image) {
            expect(variant.images[0]).toBe(edit.image);
            expect(new Set(variant.images).size).toBe(variant.images.length);
          }
        }
      }),
    );
  });

  it('a price or cost change is all or nothing, each target’s amount applyMoneyChange’s', () => {
    fc.assert(
      fc.property(scenario, ({ variants, targets, edit }) => {
        const result = applyVariantBulkEdit(variants, edit, { targets, productCode: 'P' });
        if (result.refused) {
          expect(result.changed).toEqual([]);
          result.variants.forEach((variant, index) => {
            expect(variant).toBe(variants[index]);
          });
          return;
        }
        const targeted = new Set(targets);
        result.variants.forEach((variant, index) => {
          const before = variants[index]!;
          if (!targeted.has(before.id)) return;
          if (edit.price)
            expect(applyMoneyChange(before.price, edit.price)).toEqual({ ok: true, minor: variant.price });
          if (edit.cost && (before.cost !== null || edit.cost.kind === 'set'))
            expect(applyMoneyChange(before.cost ?? 0, edit.cost)).toEqual({ ok: true, minor: variant.cost });
          if (edit.cost && before.cost === null && edit.cost.kind !== 'set') expect(variant.cost).toBeNull();
        });
      }),
    );
  });

  it('SKUs from a pattern with {n} or {values} are distinct', () => {
    fc.assert(
      fc.property(variantsArbitrary, distinctPattern, fc.boolean(), (variants, pattern, all) => {
        const targets = all
          ? ('all' as const)
          : variants.filter((_, index) => index % 2 === 0).map((v) => v.id);
        const result = applyVariantBulkEdit(
          variants,
          { sku: { pattern } },
          { targets, productCode: 'LATTE' },
        );
        const targeted = all ? variants.map((variant) => variant.id) : targets;
        const skus = result.variants
          .filter((variant) => (targeted as string[]).includes(variant.id))
          .map((variant) => variant.sku);
        expect(new Set(skus).size).toBe(skus.length);
      }),
      {
        // Unpadded numbers would collide here: 1 + '1X' and 11 + 'X' both make '11X'.
        examples: [
          [
            ['1X', 'A', 'B', 'C', 'Y', 'Z', '0', '9', 'AA', 'BB', 'X'].map((title, index) =>
              row(`id-${index}`, title),
            ),
            '{n}{values}',
            true,
          ],
        ],
      },
    );
  });
});
