import { describe, expect, it } from 'vitest';
import type { LocalizedText } from './localized-text.ts';
import {
  formatProductOptions,
  formatVariantChanges,
  formatVariantValue,
  type ProductOptionsFormat,
  readVariantChanges,
  type VariantChangeFormat,
  variantKeyValueIds,
} from './variant-changes.ts';

const small = '11111111-1111-4111-8111-111111111111';
const large = '22222222-2222-4222-8222-222222222222';
const oat = '33333333-3333-4333-8333-333333333333';
const soy = '44444444-4444-4444-8444-444444444444';
const gone = '55555555-5555-4555-8555-555555555555';
const key = (...ids: string[]) => ids.join('-');

const names: Record<string, LocalizedText> = {
  [small]: [
    { locale: 'en', value: 'Small' },
    { locale: 'ar', value: 'صغير' },
  ],
  [large]: [
    { locale: 'en', value: 'Large' },
    { locale: 'ar', value: 'كبير' },
  ],
  [oat]: [
    { locale: 'en', value: 'Oat milk' },
    { locale: 'ar', value: 'حليب الشوفان' },
  ],
  [soy]: [{ locale: 'en', value: 'Soy' }],
};

const format = (language: string, extra: Partial<VariantChangeFormat> = {}): VariantChangeFormat => ({
  language,
  currency: 'EGP',
  timeZone: 'Africa/Cairo',
  valueName: (id) => names[id],
  unknownValue: language === 'ar' ? 'قيمة محذوفة' : 'Removed value',
  status: (status) =>
    (language === 'ar' ? { active: 'مفعّل', inactive: 'معطّل' } : { active: 'Active', inactive: 'Inactive' })[
      status as 'active'
    ],
  images: (count) => (language === 'ar' ? `${count} صور` : `${count} images`),
  ...extra,
});

/** The row's `variants` of a save: one price changed, one variant added, one removed. */
const saved = [
  {
    [key(small, oat)]: { price: 1250, sku: 'LAT-S-OAT' },
    [key(large, soy)]: {
      position: 3,
      sku: 'LAT-L-SOY',
      barcode: null,
      price: 2000,
      cost: 800,
      images: [],
      status: 'active',
    },
  },
  {
    [key(small, oat)]: { price: 1500, sku: 'LAT-S-OAT-2' },
    [key(large, oat)]: {
      position: 1,
      sku: null,
      barcode: '6221234567890',
      price: 1800,
      cost: null,
      images: ['/files/a.png', '/files/b.png'],
      status: 'inactive',
    },
  },
];

describe('a product save’s variant changes', () => {
  it('splits a key into its value ids, in type order', () => {
    expect(variantKeyValueIds(key(small, oat))).toEqual([small, oat]);
    expect(variantKeyValueIds(large)).toEqual([large]);
  });

  it('reads one entry per variant: changed, added and removed, ordered by position, fields in the grid’s order', () => {
    const changes = readVariantChanges(saved)!;
    expect(changes.map((change) => [change.valueIds, change.kind])).toEqual([
      [[large, oat], 'added'],
      [[large, soy], 'removed'],
      // No position recorded (only its price and SKU changed): after those that have one.
      [[small, oat], 'changed'],
    ]);
    expect(changes[2]!.fields).toEqual([
      { field: 'sku', before: 'LAT-S-OAT', after: 'LAT-S-OAT-2' },
      { field: 'price', before: 1250, after: 1500 },
    ]);
    expect(changes[0]!.fields.map((field) => field.field)).toEqual([
      'sku',
      'barcode',
      'price',
      'cost',
      'images',
      'status',
      'position',
    ]);
    expect(changes[0]!.fields.every((field) => field.before === null)).toBe(true);
    expect(changes[1]!.fields.every((field) => field.after === null)).toBe(true);
  });

  it('formats each variant by its values’ names, prices as money, in English', () => {
    const formatted = formatVariantChanges(saved, format('en'))!;
    expect(formatted.map((change) => [change.title, change.kind])).toEqual([
      ['Large, Oat milk', 'added'],
      ['Large, Soy', 'removed'],
      ['Small, Oat milk', 'changed'],
    ]);
    // Intl puts a no-break space between the currency and the amount.
    const plain = (text: string | null) => text?.replace(/\s/g, ' ') ?? null;
    const fields = (index: number) =>
      Object.fromEntries(
        formatted[index]!.fields.map((field) => [field.field, [plain(field.before), plain(field.after)]]),
      );
    expect(fields(2)).toEqual({ sku: ['LAT-S-OAT', 'LAT-S-OAT-2'], price: ['EGP 12.50', 'EGP 15.00'] });
    expect(fields(0)).toEqual({
      sku: [null, null],
      barcode: [null, '6221234567890'],
      price: [null, 'EGP 18.00'],
      cost: [null, null],
      images: [null, '2 images'],
      status: [null, 'Inactive'],
      position: [null, '2'],
    });
    expect(fields(1)).toMatchObject({
      price: ['EGP 20.00', null],
      cost: ['EGP 8.00', null],
      status: ['Active', null],
    });
  });

  it('in Arabic: the names in Arabic joined by the Arabic comma, Arabic digits, a name known in one language only', () => {
    const formatted = formatVariantChanges(saved, format('ar'))!;
    expect(formatted.map((change) => change.title)).toEqual([
      'كبير، حليب الشوفان',
      'كبير، Soy',
      'صغير، حليب الشوفان',
    ]);
    const price = formatted[2]!.fields.find((field) => field.field === 'price')!;
    expect(price.before).toMatch(/١٢٫٥٠/);
    expect(price.after).toMatch(/١٥٫٠٠/);
    expect(price.after).not.toMatch(/[0-9]/);
  });

  it('names a value no longer known as such, in the base currency of the workspace', () => {
    const [change] = formatVariantChanges(
      [{ [key(gone, oat)]: { price: 500 } }, { [key(gone, oat)]: { price: 750 } }],
      format('en', { currency: 'USD' }),
    )!;
    expect(change!.title).toBe('Removed value, Oat milk');
    expect(change!.fields).toEqual([{ field: 'price', before: '$5.00', after: '$7.50' }]);
  });

  it('shows an instant in the workspace’s time zone and a calendar day as that day', () => {
    const at = '2026-11-28T23:30:00.000Z';
    expect(formatVariantValue('availableFrom', at, format('en'))).toBe('Sun, Nov 29, 2026 01:30 AM');
    expect(formatVariantValue('availableFrom', at, format('en', { timeZone: 'UTC' }))).toBe(
      'Sat, Nov 28, 2026 11:30 PM',
    );
    expect(formatVariantValue('availableFrom', '2026-11-28', format('en', { timeZone: 'Asia/Tokyo' }))).toBe(
      'Sat, Nov 28, 2026',
    );
  });

  it('is null for anything not shaped like a variants change', () => {
    for (const value of [null, 'x', [1, 2], [{ a: 1 }], [{ a: 1 }, 'b'], [[], []], [{ key: 'text' }, {}]])
      expect(formatVariantChanges(value, format('en')), JSON.stringify(value)).toBeNull();
    // A save with nothing on one side is read as the other alone.
    expect(readVariantChanges([null, { [key(small)]: { price: 1 } }])).toHaveLength(1);
  });
});

describe('a product’s options as its audit row holds them', () => {
  const size = '66666666-6666-4666-8666-666666666666';
  const milk = '77777777-7777-4777-8777-777777777777';
  const typeNames: Record<string, LocalizedText> = {
    ...names,
    [size]: [
      { locale: 'en', value: 'Size' },
      { locale: 'ar', value: 'المقاس' },
    ],
    [milk]: [
      { locale: 'en', value: 'Milk' },
      { locale: 'ar', value: 'الحليب' },
    ],
  };
  const options = (language: string): ProductOptionsFormat => ({
    language,
    name: (id) => typeNames[id],
    unknownType: language === 'ar' ? 'نوع متغير محذوف' : 'Removed variation type',
    unknownValue: language === 'ar' ? 'قيمة محذوفة' : 'Removed value',
  });
  const side = [
    { typeId: size, valueIds: [small, large] },
    { typeId: milk, valueIds: [oat, soy] },
  ];

  it('names each type, then its values, in the reader’s language', () => {
    expect(formatProductOptions(side, options('en'))).toBe('Size: Small, Large · Milk: Oat milk, Soy');
    // A name missing in Arabic falls back to the other language; Arabic lists with its own comma.
    expect(formatProductOptions(side, options('ar'))).toBe('المقاس: صغير، كبير · الحليب: حليب الشوفان، Soy');
  });

  it('names a type or value no longer known as such, and a type without values by its name alone', () => {
    expect(
      formatProductOptions(
        [
          { typeId: gone, valueIds: [small, gone] },
          { typeId: milk, valueIds: [] },
        ],
        options('en'),
      ),
    ).toBe('Removed variation type: Small, Removed value · Milk');
  });

  it('is empty for no options, and null for anything not shaped like options', () => {
    expect(formatProductOptions([], options('en'))).toBe('');
    for (const value of [
      null,
      'x',
      {},
      [1],
      [{ typeId: size }],
      [{ typeId: size, valueIds: [1] }],
      [{ valueIds: [] }],
    ])
      expect(formatProductOptions(value, options('en')), JSON.stringify(value)).toBeNull();
  });
});
