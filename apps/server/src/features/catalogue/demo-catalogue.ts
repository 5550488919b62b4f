import { type RegisteredResource, withCheckDigit } from '@dukkan/contract';
import type { Database } from '../../db/client.ts';
import type { ResourceEngine } from '../../resource-engine/registry.ts';
import { systemCaller } from '../../resource-engine/storage.ts';

/** A text in English and in Arabic, as a localized field takes it. */
const localized = (en: string, ar: string) => [
  { locale: 'en', value: en },
  { locale: 'ar', value: ar },
];
const hours = (opens: string, closes: string) => {
  const seconds = (time: string) => Number(time.slice(0, 2)) * 3600 + Number(time.slice(3)) * 60;
  return { opensAt: seconds(opens), closesAt: seconds(closes) };
};

/**
 * The demo workspace's catalogue: a little of everything, so a first start shows real screens.
 * Each record goes through its resource's schema and the engine's create, as an API call would
 * (references checked, hooks run), made by the system as the workspace's admin. Its products are
 * measured in `units`, the ids of the starter set's units (every new workspace's, added first).
 */
export async function seedDemoCatalogue(
  db: Database,
  engine: ResourceEngine,
  workspaceId: string,
  units: Readonly<Record<'PC' | 'KG' | 'L', string>>,
): Promise<void> {
  const caller = systemCaller(workspaceId);
  const add = async (key: RegisteredResource['key'], input: Record<string, unknown>): Promise<string> => {
    const data = engine.data(key);
    const parsed = data.storage.definition.schemas.create.parse(input) as Record<string, unknown>;
    const [created] = await data.create(db, caller, [parsed]);
    return String(created!.id);
  };

  const bakery = await add('brands', {
    code: 'NILE',
    name: localized('Nile Bakery', 'مخبز النيل'),
    creationDate: '2015-03-01',
    currencies: ['EGP'],
  });
  const coffee = await add('brands', {
    code: 'CAIRO-COFFEE',
    name: localized('Cairo Coffee', 'قهوة القاهرة'),
    creationDate: '2019-10-15',
    currencies: ['EGP', 'USD'],
  });
  const everyDay = ['saturday', 'sunday', 'monday', 'tuesday', 'wednesday', 'thursday'] as const;
  await add('locations', {
    code: 'ZAMALEK',
    name: localized('Zamalek', 'الزمالك'),
    brandId: bakery,
    openingDate: '2016-01-10',
    address: '26 July St, Zamalek, Cairo',
    workingHours: [
      ...everyDay.map((day) => ({ day, ...hours('08:00', '22:00') })),
      { day: 'friday', ...hours('13:00', '23:00') },
    ],
    phones: [
      { label: 'Front desk', number: '0227350000' },
      { label: 'Delivery', number: '+201001112233' },
    ],
  });
  await add('locations', {
    code: 'MAADI',
    name: localized('Maadi', 'المعادي'),
    brandId: coffee,
    openingDate: '2020-02-01',
    address: 'Road 9, Maadi, Cairo',
    workingHours: [...everyDay, 'friday' as const].map((day) => ({ day, ...hours('07:00', '23:30') })),
    phones: [{ label: 'Counter', number: '0225250000' }],
  });

  const vat = await add('taxes', {
    code: 'VAT',
    title: localized('Value added tax', 'ضريبة القيمة المضافة'),
    country: 'EG',
    rate: 14,
  });
  await add('taxes', {
    code: 'SERVICE',
    title: localized('Service charge', 'رسوم الخدمة'),
    country: 'EG',
    rate: 12,
  });

  /** A record of a tree: code, name and description in English and Arabic, then its children. */
  type TreeNode = [
    code: string,
    name: [string, string],
    description: [string, string],
    children?: TreeNode[],
  ];
  const tree = async (
    key: 'categories' | 'wasteCategories',
    nodes: TreeNode[],
    parentId: string | null = null,
  ) => {
    const ids: Record<string, string> = {};
    for (const [code, [nameEn, nameAr], [descriptionEn, descriptionAr], children = []] of nodes) {
      ids[code] = await add(key, {
        code,
        name: localized(nameEn, nameAr),
        description: localized(descriptionEn, descriptionAr),
        parentId,
      });
      Object.assign(ids, await tree(key, children, ids[code]));
    }
    return ids;
  };
  const categories = await tree('categories', [
    [
      'BAKERY',
      ['Bakery', 'المخبوزات'],
      ['Bread, pastries and everything baked', 'الخبز والمعجنات وكل ما يُخبز'],
      [
        ['BREAD', ['Bread', 'الخبز'], ['Loaves and flatbreads', 'الأرغفة والخبز البلدي']],
        ['PASTRY', ['Pastries', 'المعجنات'], ['Croissants and sweet pastries', 'الكرواسون والمعجنات الحلوة']],
      ],
    ],
    [
      'DRINKS',
      ['Beverages', 'المشروبات'],
      ['Everything served in a cup', 'كل ما يُقدَّم في كوب'],
      [
        ['HOT', ['Hot drinks', 'مشروبات ساخنة'], ['Coffee, tea and chocolate', 'القهوة والشاي والشوكولاتة']],
        ['COLD', ['Cold drinks', 'مشروبات باردة'], ['Juices and iced drinks', 'العصائر والمشروبات المثلجة']],
      ],
    ],
  ]);
  await tree('wasteCategories', [
    ['EXPIRED', ['Expired', 'منتهي الصلاحية'], ['Past its use-by date', 'تجاوز تاريخ صلاحيته']],
    [
      'DAMAGED',
      ['Damaged', 'تالف'],
      ['Broken, spilt or spoilt', 'مكسور أو مسكوب أو فاسد'],
      [
        [
          'DROPPED',
          ['Dropped in service', 'سقط أثناء الخدمة'],
          ['Dropped while serving', 'سقط أثناء تقديمه'],
        ],
      ],
    ],
  ]);

  const tags: Record<string, string> = {};
  for (const [code, en, ar] of [
    ['VEGAN', 'Vegan', 'نباتي'],
    ['BESTSELLER', 'Bestseller', 'الأكثر مبيعًا'],
    ['NEW', 'New', 'جديد'],
  ] as const) {
    tags[code] = await add('productTags', { code, name: localized(en, ar) });
  }

  // Variation types and their values, in the order a product lists them.
  const variation = async (code: string, en: string, ar: string, values: [string, string, string][]) => {
    const typeId = await add('variationTypes', { code, name: localized(en, ar) });
    const ids: string[] = [];
    for (const [position, [valueCode, valueEn, valueAr]] of values.entries()) {
      ids.push(
        await add('variationValues', {
          code: valueCode,
          name: localized(valueEn, valueAr),
          typeId,
          position,
        }),
      );
    }
    return { typeId, valueIds: ids };
  };
  const size = await variation('SIZE', 'Size', 'المقاس', [
    ['SIZE-S', 'Small', 'صغير'],
    ['SIZE-M', 'Medium', 'وسط'],
    ['SIZE-L', 'Large', 'كبير'],
  ]);
  const milk = await variation('MILK', 'Milk', 'الحليب', [
    ['MILK-WHOLE', 'Whole milk', 'حليب كامل الدسم'],
    ['MILK-OAT', 'Oat milk', 'حليب الشوفان'],
  ]);
  await variation('COLOUR', 'Colour', 'اللون', [
    ['COLOUR-BLACK', 'Black', 'أسود'],
    ['COLOUR-WHITE', 'White', 'أبيض'],
    ['COLOUR-GREEN', 'Green', 'أخضر'],
  ]);

  // Products: ingredients, a drink with variants (Size × Milk, each with a SKU, two with a
  // barcode), and drinks and pastries made of the ingredients (their recipes). Prices and costs
  // in piastres of the base currency, EGP, as a Cairo café charges them, VAT included.
  const priced = (price: number, cost: number) => ({ price, cost, taxId: vat, pricesIncludeTax: true });
  const beans = await add('products', {
    code: 'BEANS',
    name: localized('Espresso beans', 'حبوب الإسبريسو'),
    measurementUnitId: units.KG,
    ...priced(1_250_00, 920_00),
  });
  const wholeMilk = await add('products', {
    code: 'MILK',
    name: localized('Whole milk', 'حليب كامل الدسم'),
    measurementUnitId: units.L,
    ...priced(55_00, 42_50),
  });
  const butter = await add('products', {
    code: 'BUTTER',
    name: localized('Butter', 'زبدة'),
    measurementUnitId: units.KG,
    ...priced(480_00, 395_00),
  });
  const line = (ingredientProductId: string | undefined, quantity: number) => ({
    ingredientProductId,
    quantity,
  });
  const sizes = ['S', 'M', 'L'];
  const milks = ['WHOLE', 'OAT'];
  // EGP 85.00 for a small latte with whole milk, 15.00 more a size up, 20.00 more with oat milk.
  const lattePrice = (sizeIndex: number, milkIndex: number) => 85_00 + sizeIndex * 15_00 + milkIndex * 20_00;
  await add('products', {
    code: 'LATTE',
    name: localized('Latte', 'لاتيه'),
    measurementUnitId: units.PC,
    categoryId: categories.HOT,
    tagIds: [tags.BESTSELLER],
    ...priced(85_00, 24_00),
    options: [
      { typeId: size.typeId, valueIds: size.valueIds },
      { typeId: milk.typeId, valueIds: milk.valueIds },
    ],
    variants: size.valueIds.flatMap((sizeId, sizeIndex) =>
      milk.valueIds.map((milkId, milkIndex) => ({
        key: `${sizeId}-${milkId}`,
        sku: `LATTE-${sizes[sizeIndex]}-${milks[milkIndex]}`,
        price: lattePrice(sizeIndex, milkIndex),
        cost: 24_00 + sizeIndex * 6_50 + milkIndex * 9_00,
        ...(milkIndex === 0 ? { barcode: withCheckDigit(`62210000100${sizeIndex}`) } : {}),
      })),
    ),
    recipe: [line(beans, 0.018), line(wholeMilk, 0.25)],
  });
  await add('products', {
    code: 'ESPRESSO',
    name: localized('Espresso', 'إسبريسو'),
    measurementUnitId: units.PC,
    categoryId: categories.HOT,
    ...priced(60_00, 14_50),
    recipe: [line(beans, 0.009)],
  });
  await add('products', {
    code: 'CROISSANT',
    name: localized('Butter croissant', 'كرواسون بالزبدة'),
    measurementUnitId: units.PC,
    categoryId: categories.PASTRY,
    tagIds: [tags.NEW],
    ...priced(45_00, 16_00),
    recipe: [line(butter, 0.02)],
  });
  await add('products', {
    code: 'BAGUETTE',
    name: localized('Baguette', 'خبز فرنسي'),
    measurementUnitId: units.PC,
    categoryId: categories.BREAD,
    tagIds: [tags.VEGAN],
    ...priced(30_00, 9_75),
  });

  await add('customers', {
    code: 'C-0001',
    name: 'Mona Hassan',
    phones: ['01001234567'],
    source: 'referral',
    brandId: bakery,
  });
  await add('customers', {
    code: 'C-0002',
    name: 'Karim Adel',
    phones: ['01119876543', '0223456789'],
    source: 'walkIn',
    brandId: coffee,
  });
  await add('customers', {
    code: 'C-0003',
    name: 'Salma Youssef',
    phones: ['01285550000'],
    source: 'online',
    brandId: null,
  });

  // Against the demo workspace's base currency, EGP: 1 USD = 48.55 EGP.
  await add('exchangeRates', { currency: 'USD', rate: 48.55 });
  await add('exchangeRates', { currency: 'EUR', rate: 52.36 });
  await add('exchangeRates', { currency: 'SAR', rate: 12.94 });
}
