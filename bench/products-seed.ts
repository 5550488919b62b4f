/**
 * The product benchmarks' data, written straight into the tables from the benchmark process (the
 * same statements on PGlite and on PostgreSQL):
 *
 * - `seedProductWorkspace`: a workspace with an admin and their session, a measurement unit and
 *   variation types with values — what a save of a product names (products-save.ts,
 *   products-page.ts).
 * - `seedProductList`: workspaces of products with 20 variants each (5 sizes × 4 colours, every
 *   variant with a SKU, half the products with barcodes too, the codes kept in
 *   `products.variant_codes` as the server writes them) and their value links, in a category
 *   tree (products-list.ts). The database generates the rows (`generate_series`, one statement
 *   per 5,000 products inserting the products, their variants and the links together), with the
 *   tables' secondary indexes dropped and built again afterwards, and the foreign keys' checks
 *   off: the counts are checked at the end instead.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../apps/server/src/db/client.ts';
import {
  categories,
  measurementUnits,
  productTags,
  variationTypes,
  variationValues,
} from '../apps/server/src/db/schema/index.ts';
import { benchWorkspaces } from './support/databases.ts';
import { adminSession } from './support/sessions.ts';

/** A SQL `ARRAY['…', …]` literal of constant strings, of the given element type. */
const literalArray = (values: readonly (string | null)[], type = 'text') =>
  sql.raw(
    `ARRAY[${values.map((value) => (value === null ? 'NULL' : `'${value.replaceAll("'", "''")}'`)).join(', ')}]::${type}[]`,
  );

/** An integer in [0, modulo) from `i` and a salt: PostgreSQL's own hash, so both engines agree. */
const pick = (salt: number, modulo: number, of = 'i') =>
  sql.raw(`(abs(hashint4(${of} * 7 + ${salt})) % ${modulo})`);

/** A workspace of the benchmark, with an admin's session. */
interface SeededWorkspace {
  workspaceId: string;
  /** `dukkan_session=…` of an admin of the workspace. */
  cookie: string;
  /** The session token alone (a browser's cookie value). */
  token: string;
}

/**
 * The bootstrap marker (so the server adds no demo workspace), then `count` workspaces; an admin
 * of the first gets a session as login creates it (only the token's hash is stored).
 */
async function seedWorkspaces(db: Database, count: number, label: string) {
  const all = await benchWorkspaces(db, count, label);
  const workspaceId = all[0]!;
  const { token, cookie } = await adminSession(db, workspaceId, {
    email: `bench-${label.toLowerCase().replace(/\W+/g, '-')}@dukkan.localhost`,
    name: label,
  });
  const first: SeededWorkspace = { workspaceId, cookie, token };
  return { first, all };
}

/** A variation type and its values, in order. */
export interface SeededOption {
  typeId: string;
  values: { id: string; code: string; nameEn: string; nameAr: string }[];
}

const sizeNames = Array.from({ length: 16 }, (_, index) => String(35 + index));
const colourNames = [
  ['Black', 'أسود'],
  ['White', 'أبيض'],
  ['Navy', 'كحلي'],
  ['Red', 'أحمر'],
  ['Green', 'أخضر'],
  ['Blue', 'أزرق'],
  ['Grey', 'رمادي'],
  ['Beige', 'بيج'],
  ['Brown', 'بني'],
  ['Olive', 'زيتي'],
  ['Pink', 'وردي'],
  ['Yellow', 'أصفر'],
  ['Orange', 'برتقالي'],
  ['Purple', 'بنفسجي'],
  ['Burgundy', 'عنابي'],
  ['Khaki', 'كاكي'],
] as const;
const materialNames = [
  ['Leather', 'جلد'],
  ['Suede', 'شامواه'],
  ['Canvas', 'قماش'],
  ['Mesh', 'شبك'],
  ['Knit', 'تريكو'],
  ['Nubuck', 'نوبك'],
  ['Rubber', 'مطاط'],
  ['Felt', 'لباد'],
] as const;

/** Inserts a variation type with its values (codes `<prefix>01`…), in order. */
async function insertOption(
  db: Database,
  workspaceId: string,
  type: { code: string; nameEn: string; nameAr: string },
  values: readonly { nameEn: string; nameAr: string }[],
): Promise<SeededOption> {
  const [created] = await db
    .insert(variationTypes)
    .values({ workspaceId, ...type })
    .returning({ id: variationTypes.id });
  const rows = await db
    .insert(variationValues)
    .values(
      values.map((value, position) => ({
        workspaceId,
        typeId: created!.id,
        code: `${type.code}-${String(position + 1).padStart(2, '0')}`,
        nameEn: value.nameEn,
        nameAr: value.nameAr,
        position,
      })),
    )
    .returning({
      id: variationValues.id,
      code: variationValues.code,
      nameEn: variationValues.nameEn,
      nameAr: variationValues.nameAr,
      position: variationValues.position,
    });
  rows.sort((a, b) => a.position - b.position);
  return {
    typeId: created!.id,
    values: rows.map((row) => ({ id: row.id, code: row.code, nameEn: row.nameEn!, nameAr: row.nameAr! })),
  };
}

export interface ProductWorkspace extends SeededWorkspace {
  measurementUnitId: string;
  /** Size (up to 16 values), Colour (up to 16), Material (up to 8), as many as `valueCounts` asks. */
  options: SeededOption[];
}

/**
 * A workspace to save products in: an admin's session, a measurement unit, and variation types
 * with `valueCounts` values each (default 16 × 16 × 8 = 2,048 combinations: sizes, colours,
 * materials).
 */
export async function seedProductWorkspace(
  db: Database,
  valueCounts: readonly number[] = [16, 16, 8],
): Promise<ProductWorkspace> {
  const { first } = await seedWorkspaces(db, 1, 'Product Bench');
  const [unit] = await db
    .insert(measurementUnits)
    .values({ workspaceId: first.workspaceId, code: 'PCS', nameEn: 'Piece', nameAr: 'قطعة', symbol: 'pc' })
    .returning({ id: measurementUnits.id });
  const catalogues = [
    {
      type: { code: 'SIZE', nameEn: 'Size', nameAr: 'المقاس' },
      values: sizeNames.map((name) => ({ nameEn: name, nameAr: name })),
    },
    {
      type: { code: 'COLOUR', nameEn: 'Colour', nameAr: 'اللون' },
      values: colourNames.map(([nameEn, nameAr]) => ({ nameEn, nameAr })),
    },
    {
      type: { code: 'MATERIAL', nameEn: 'Material', nameAr: 'الخامة' },
      values: materialNames.map(([nameEn, nameAr]) => ({ nameEn, nameAr })),
    },
  ];
  if (valueCounts.length > catalogues.length) throw new Error(`at most ${catalogues.length} variation types`);
  const options: SeededOption[] = [];
  for (const [index, count] of valueCounts.entries()) {
    const catalogue = catalogues[index]!;
    if (count > catalogue.values.length)
      throw new Error(`${catalogue.type.nameEn} has at most ${catalogue.values.length} values`);
    options.push(await insertOption(db, first.workspaceId, catalogue.type, catalogue.values.slice(0, count)));
  }
  return { ...first, measurementUnitId: unit!.id, options };
}

/** What the server stores in a product's `options`: its types and their chosen values (all). */
export const productOptions = (workspace: ProductWorkspace) =>
  workspace.options.map((option) => ({
    typeId: option.typeId,
    valueIds: option.values.map((value) => value.id),
  }));

/** One combination of a product's options: its key (value ids joined by '-') and its values. */
export interface Combination {
  key: string;
  position: number;
  values: SeededOption['values'];
}

/** The options' combinations in the contract's order (an odometer: the last type turns fastest). */
export function combinationsOf(options: readonly SeededOption[]): Combination[] {
  let combos: SeededOption['values'][] = [[]];
  for (const option of options)
    combos = combos.flatMap((prefix) => option.values.map((value) => [...prefix, value]));
  return combos.map((values, position) => ({
    key: values.map((value) => value.id).join('-'),
    position,
    values,
  }));
}

/*
 * The list's catalogue: 16 slots a product falls in by its number, each a category (a
 * sub-category, a top-level one, or none) and four kinds of product. Shirts take two slots; the
 * word "shirt" also names a few products outside clothing (a shirt box, a shirt hanger), so the
 * search alone and the category filter alone each find what the other leaves out.
 */
const categoryTree = [
  { code: 'CLOTHING', en: 'Clothing', ar: 'ملابس', children: ['Shirts', 'Trousers', 'Dresses'] },
  { code: 'SHOES', en: 'Shoes', ar: 'أحذية', children: ['Sneakers', 'Sandals', 'Boots'] },
  { code: 'ACCESSORIES', en: 'Accessories', ar: 'إكسسوارات', children: ['Bags', 'Belts', 'Hats'] },
  { code: 'HOME', en: 'Home', ar: 'المنزل', children: ['Kitchen', 'Bedding', 'Decor'] },
] as const;
const slots: { category: string | null; en: string[]; ar: string[] }[] = [
  {
    category: 'Shirts',
    en: ['Oxford Shirt', 'Linen Shirt', 'Polo Shirt', 'T-Shirt'],
    ar: ['قميص أكسفورد', 'قميص كتان', 'قميص بولو', 'تي شيرت'],
  },
  {
    category: 'Shirts',
    en: ['Denim Shirt', 'Flannel Shirt', 'Dress Shirt', 'Henley Shirt'],
    ar: ['قميص جينز', 'قميص فانيلا', 'قميص رسمي', 'قميص هنلي'],
  },
  {
    category: 'Trousers',
    en: ['Chinos', 'Jeans', 'Trousers', 'Joggers'],
    ar: ['تشينو', 'جينز', 'بنطلون', 'بنطلون رياضي'],
  },
  {
    category: 'Dresses',
    en: ['Maxi Dress', 'Abaya', 'Midi Dress', 'Kaftan'],
    ar: ['فستان طويل', 'عباية', 'فستان ميدي', 'قفطان'],
  },
  {
    category: 'Clothing',
    en: ['Hoodie', 'Jacket', 'Cardigan', 'Scarf'],
    ar: ['هودي', 'جاكيت', 'كارديجان', 'وشاح'],
  },
  {
    category: 'Sneakers',
    en: ['Running Shoe', 'Canvas Sneaker', 'Trainer', 'High-Top'],
    ar: ['حذاء جري', 'سنيكرز قماش', 'حذاء رياضي', 'حذاء عالي'],
  },
  {
    category: 'Sandals',
    en: ['Sandal', 'Slide', 'Flip-Flop', 'Espadrille'],
    ar: ['صندل', 'شبشب', 'زنوبة', 'إسبادريل'],
  },
  {
    category: 'Boots',
    en: ['Chelsea Boot', 'Desert Boot', 'Ankle Boot', 'Work Boot'],
    ar: ['بوت تشيلسي', 'بوت صحراوي', 'بوت قصير', 'بوت عمل'],
  },
  {
    category: 'Shoes',
    en: ['Loafer', 'Slipper', 'Oxford Shoe', 'Moccasin'],
    ar: ['لوفر', 'خف', 'حذاء أكسفورد', 'موكاسان'],
  },
  {
    category: 'Bags',
    en: ['Tote Bag', 'Backpack', 'Crossbody Bag', 'Wallet'],
    ar: ['حقيبة يد', 'حقيبة ظهر', 'حقيبة كتف', 'محفظة'],
  },
  {
    category: 'Belts',
    en: ['Leather Belt', 'Woven Belt', 'Reversible Belt', 'Belt Buckle'],
    ar: ['حزام جلد', 'حزام منسوج', 'حزام وجهين', 'إبزيم'],
  },
  {
    category: 'Hats',
    en: ['Cap', 'Bucket Hat', 'Beanie', 'Straw Hat'],
    ar: ['كاب', 'قبعة باكت', 'طاقية', 'قبعة قش'],
  },
  {
    category: 'Kitchen',
    en: ['Mug', 'Tea Glass', 'Coffee Pot', 'Serving Tray'],
    ar: ['مج', 'كوب شاي', 'كنكة', 'صينية'],
  },
  {
    category: 'Bedding',
    en: ['Duvet Cover', 'Pillowcase', 'Bed Sheet', 'Blanket'],
    ar: ['غطاء لحاف', 'كيس مخدة', 'ملاية', 'بطانية'],
  },
  {
    category: 'Decor',
    en: ['Shirt Box', 'Cushion', 'Lantern', 'Vase'],
    ar: ['علبة قمصان', 'خدادية', 'فانوس', 'مزهرية'],
  },
  {
    category: null,
    en: ['Gift Card', 'Shirt Hanger', 'Garment Bag', 'Shoe Polish'],
    ar: ['بطاقة هدية', 'شماعة قمصان', 'كيس ملابس', 'ورنيش'],
  },
];
const adjectives = [
  ['Classic', 'كلاسيك'],
  ['Slim', 'سليم'],
  ['Summer', 'صيفي'],
  ['Premium', 'بريميوم'],
  ['Basic', 'أساسي'],
  ['Vintage', 'فينتاج'],
  ['Everyday', 'يومي'],
  ['Cotton', 'قطن'],
  ['Heritage', 'تراثي'],
  ['Urban', 'عصري'],
  ['Nile', 'نيل'],
  ['Delta', 'دلتا'],
] as const;
const listSizes = ['XS', 'S', 'M', 'L', 'XL'] as const;
const listColours = [
  ['BLK', 'Black', 'أسود'],
  ['WHT', 'White', 'أبيض'],
  ['NVY', 'Navy', 'كحلي'],
  ['RED', 'Red', 'أحمر'],
] as const;
/** Variants per product in the list's data: 5 sizes × 4 colours. */
export const listVariantsPerProduct = listSizes.length * listColours.length;

/**
 * The GS1 check digit of a 12-digit text in SQL: from the left, odd positions weigh 1 and even
 * ones 3 (from the right 3, 1, …, as `gs1CheckDigit`).
 */
function checkDigitSql(body: string): string {
  const terms = Array.from(
    { length: 12 },
    (_, index) => `${index % 2 === 0 ? 1 : 3} * substr(${body}, ${index + 1}, 1)::int`,
  );
  return `((10 - ((${terms.join(' + ')}) % 10)) % 10)`;
}

export interface ProductListSeed extends SeededWorkspace {
  /** The top-level category "Clothing": its products and its sub-categories' products. */
  clothingCategoryId: string;
  products: { big: number; others: number };
  variants: number;
}

interface ListReferences {
  unitId: string;
  /** By slot: the category id of each of the 16 slots (null: none). */
  slotCategories: (string | null)[];
  tagIds: string[];
  sizes: SeededOption;
  colours: SeededOption;
}

/**
 * Inserts products `from`…`to` of a workspace with their 20 variants and value links, in one
 * statement: data-modifying CTEs hand the new products to the variants and those to the links.
 */
async function insertProductBatch(
  db: Database,
  workspaceId: string,
  from: number,
  to: number,
  refs: ListReferences,
) {
  const nounsEn = slots.flatMap((slot) => slot.en);
  const nounsAr = slots.flatMap((slot) => slot.ar);
  const options = JSON.stringify([
    { typeId: refs.sizes.typeId, valueIds: refs.sizes.values.map((value) => value.id) },
    { typeId: refs.colours.typeId, valueIds: refs.colours.values.map((value) => value.id) },
  ]);
  // (value id, SKU part, position) of each size and of each colour.
  const sizeRows = sql.raw(
    `(VALUES ${refs.sizes.values.map((value, position) => `('${value.id}'::uuid, '${listSizes[position]}', ${position})`).join(', ')}) AS s(id, sku, position)`,
  );
  const colourRows = sql.raw(
    `(VALUES ${refs.colours.values.map((value, position) => `('${value.id}'::uuid, '${listColours[position]![0]}', ${position})`).join(', ')}) AS c(id, sku, position)`,
  );
  // A variant's barcode: Egypt's GS1 prefix 622, then the product and variant numbers, then the
  // check digit (valid EAN-13s, unique in the workspace).
  const barcodeBody = sql.raw(
    `CROSS JOIN LATERAL (SELECT '622' || lpad((g.i * ${listVariantsPerProduct} + s.position * ${listColours.length} + c.position)::text, 9, '0') AS body) AS b`,
  );
  const barcode = sql.raw(`b.body || ${checkDigitSql('b.body')}::text`);
  const tags = literalArray(refs.tagIds, 'uuid');
  const tagCount = refs.tagIds.length;
  // Triggers off for this statement's transaction: the foreign keys' checks, row by row, took
  // three quarters of the time, and the rows refer to what was just inserted by construction.
  // JIT off: the planner's row estimates made PostgreSQL spend a third of the rest compiling.
  await db.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL session_replication_role = replica`);
    await tx.execute(sql`SET LOCAL jit = off`);
    await tx.execute(sql`
    WITH g AS MATERIALIZED (
      SELECT
        i,
        'P' || lpad(i::text, 6, '0') AS code,
        ${pick(1, slots.length)} AS slot,
        ${pick(2, 4)} AS noun,
        ${pick(3, adjectives.length)} AS adjective,
        ${pick(4, 100)} AS language,
        ${pick(5, 2)} = 0 AS has_barcodes,
        ${pick(6, 4)} AS tag_count,
        ${pick(7, tagCount)} AS tag,
        ${pick(8, 100)} < 4 AS inactive,
        now() - make_interval(secs => ${pick(9, 3 * 365 * 24 * 3600)}) AS created_at
      FROM generate_series(${from}::int, ${to}::int) AS i
    ),
    p AS (
      INSERT INTO products (workspace_id, code, name_en, name_ar, measurement_unit_id, category_id, tag_ids,
        options, variants_count, variant_codes, status, created_at, updated_at)
      SELECT
        ${workspaceId}::uuid,
        g.code,
        -- 8% named in Arabic only, 20% in English only, the rest in both.
        CASE WHEN g.language >= 8
          THEN (${literalArray(adjectives.map(([en]) => en))})[1 + g.adjective] || ' ' || (${literalArray(nounsEn)})[1 + g.slot * 4 + g.noun]
        END,
        CASE WHEN g.language < 8 OR g.language >= 28
          THEN (${literalArray(nounsAr)})[1 + g.slot * 4 + g.noun] || ' ' || (${literalArray(adjectives.map(([, ar]) => ar))})[1 + g.adjective]
        END,
        ${refs.unitId}::uuid,
        (${literalArray(refs.slotCategories, 'uuid')})[1 + g.slot],
        CASE
          WHEN g.tag_count = 0 THEN ARRAY[]::uuid[]
          WHEN g.tag_count = 1 THEN ARRAY[(${tags})[1 + g.tag]]
          ELSE ARRAY[(${tags})[1 + g.tag], (${tags})[1 + (g.tag + 1) % ${tagCount}]]
        END,
        ${options}::jsonb,
        ${listVariantsPerProduct},
        -- As the server writes it (variantSummary): each variant's SKU then its barcode.
        (SELECT string_agg(
            g.code || '-' || s.sku || '-' || c.sku || CASE WHEN g.has_barcodes THEN ' ' || ${barcode} ELSE '' END,
            ' ' ORDER BY s.position, c.position)
          FROM ${sizeRows} CROSS JOIN ${colourRows} ${barcodeBody}),
        CASE WHEN g.inactive THEN 'inactive' ELSE 'active' END,
        g.created_at,
        g.created_at
      FROM g
      RETURNING id, code, created_at
    ),
    v AS (
      INSERT INTO product_variants (workspace_id, product_id, key, position, sku, barcode, status, created_at, updated_at)
      SELECT
        ${workspaceId}::uuid,
        p.id,
        s.id::text || '-' || c.id::text,
        s.position * ${listColours.length} + c.position,
        p.code || '-' || s.sku || '-' || c.sku,
        CASE WHEN g.has_barcodes THEN ${barcode} END,
        'active',
        p.created_at,
        p.created_at
      FROM p JOIN g ON g.code = p.code CROSS JOIN ${sizeRows} CROSS JOIN ${colourRows} ${barcodeBody}
      RETURNING id, key
    )
    INSERT INTO product_variant_values (workspace_id, variant_id, value_id, position)
    SELECT ${workspaceId}::uuid, id, left(key, 36)::uuid, 0 FROM v
    UNION ALL
    SELECT ${workspaceId}::uuid, id, right(key, 36)::uuid, 1 FROM v
  `);
  });
}

/**
 * Runs `load` with the secondary indexes of `tables` dropped, then creates them again from their
 * own definitions (`pg_indexes`), as a restore does: one sorted build instead of millions of
 * insertions (a trigram GIN index built at once is many times faster). Primary keys stay.
 */
async function withoutIndexes(db: Database, tables: string[], load: () => Promise<void>) {
  const { rows } = (await db.execute(sql`
    SELECT indexname, indexdef FROM pg_indexes
    WHERE schemaname = 'public' AND tablename IN (${sql.join(
      tables.map((table) => sql`${table}`),
      sql`, `,
    )})
      AND indexname NOT IN (SELECT conname FROM pg_constraint WHERE contype = 'p')
  `)) as unknown as { rows: { indexname: string; indexdef: string }[] };
  for (const row of rows) await db.execute(sql.raw(`DROP INDEX "${row.indexname}"`));
  await load();
  for (const row of rows)
    await db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL maintenance_work_mem = '256MB'`);
      await tx.execute(sql.raw(row.indexdef));
    });
}

/** Products per statement: a statement's variants and links are held until it ends. */
const batchSize = 5_000;

/**
 * Seeds a migrated database: `workspaces` workspaces, the first with `bigProducts` products and
 * the others with `otherProducts` each, every product with 20 variants; an admin of the first
 * with a session; then `VACUUM ANALYZE` (statistics, and a visibility map so that autovacuum does
 * not start on its own during the measurement).
 */
export async function seedProductList(
  db: Database,
  options: {
    workspaces: number;
    bigProducts: number;
    otherProducts: number;
    progress?: (message: string) => void;
  },
): Promise<ProductListSeed> {
  const { first, all } = await seedWorkspaces(db, options.workspaces, 'Products List Bench');
  let clothingCategoryId = '';
  let others = 0;
  const loadWorkspace = async (index: number, workspaceId: string) => {
    const [unit] = await db
      .insert(measurementUnits)
      .values({ workspaceId, code: 'PCS', nameEn: 'Piece', nameAr: 'قطعة', symbol: 'pc' })
      .returning({ id: measurementUnits.id });
    const byName = new Map<string, string>();
    for (const top of categoryTree) {
      const [parent] = await db
        .insert(categories)
        .values({ workspaceId, code: top.code, nameEn: top.en, nameAr: top.ar, descriptionEn: '' })
        .returning({ id: categories.id });
      byName.set(top.en, parent!.id);
      const children = await db
        .insert(categories)
        .values(
          top.children.map((child) => ({
            workspaceId,
            code: child.toUpperCase(),
            nameEn: child,
            descriptionEn: '',
            parentId: parent!.id,
          })),
        )
        .returning({ id: categories.id, nameEn: categories.nameEn });
      for (const child of children) byName.set(child.nameEn!, child.id);
    }
    if (index === 0) clothingCategoryId = byName.get('Clothing')!;
    const tagRows = await db
      .insert(productTags)
      .values(
        ['New', 'Sale', 'Bestseller', 'Eid', 'Ramadan', 'Summer', 'Winter', 'Online only'].map(
          (name, position) => ({ workspaceId, code: `T${position + 1}`, nameEn: name }),
        ),
      )
      .returning({ id: productTags.id });
    const sizes = await insertOption(
      db,
      workspaceId,
      { code: 'SIZE', nameEn: 'Size', nameAr: 'المقاس' },
      listSizes.map((size) => ({ nameEn: size, nameAr: size })),
    );
    const colours = await insertOption(
      db,
      workspaceId,
      { code: 'COLOUR', nameEn: 'Colour', nameAr: 'اللون' },
      listColours.map(([, nameEn, nameAr]) => ({ nameEn, nameAr })),
    );
    const refs: ListReferences = {
      unitId: unit!.id,
      slotCategories: slots.map((slot) => (slot.category ? byName.get(slot.category)! : null)),
      tagIds: tagRows.map((row) => row.id),
      sizes,
      colours,
    };
    const count = index === 0 ? options.bigProducts : options.otherProducts;
    for (let from = 1; from <= count; from += batchSize) {
      await insertProductBatch(db, workspaceId, from, Math.min(count, from + batchSize - 1), refs);
      if (index === 0 && count > batchSize)
        options.progress?.(`${Math.min(count, from + batchSize - 1).toLocaleString('en-US')} products`);
    }
    if (index > 0) others += count;
  };
  await withoutIndexes(db, ['products', 'product_variants', 'product_variant_values'], async () => {
    for (const [index, workspaceId] of all.entries()) await loadWorkspace(index, workspaceId);
  });
  options.progress?.('indexes built');
  // What the disabled checks would have caught shows in the counts: every product has its 20
  // variants and every variant its 2 values.
  const expected = options.bigProducts + others;
  const { rows } = (await db.execute(sql`
    SELECT (SELECT count(*) FROM products)::int AS products,
      (SELECT count(*) FROM product_variants v JOIN products p ON p.id = v.product_id AND p.workspace_id = v.workspace_id)::int AS variants,
      (SELECT count(*) FROM product_variant_values l JOIN product_variants v ON v.id = l.variant_id
        JOIN variation_values value ON value.id = l.value_id)::int AS links
  `)) as unknown as { rows: { products: number; variants: number; links: number }[] };
  const counted = rows[0]!;
  if (
    counted.products !== expected ||
    counted.variants !== expected * listVariantsPerProduct ||
    counted.links !== expected * listVariantsPerProduct * 2
  )
    throw new Error(
      `seeded ${JSON.stringify(counted)}, expected ${expected} products with 20 variants of 2 values`,
    );
  // The products went in with triggers off: their words are added to the workspace's words of
  // the list (`search_words`, decision 0050) as the trigger of a write adds them.
  await db.execute(sql`
    INSERT INTO search_words (workspace_id, list, word)
    SELECT DISTINCT workspace_id, 'products', word FROM products, search_words_of(search_text) AS word
    ON CONFLICT DO NOTHING
  `);
  await db.execute(sql`VACUUM ANALYZE`);
  return {
    ...first,
    clothingCategoryId,
    products: { big: options.bigProducts, others },
    variants: (options.bigProducts + others) * listVariantsPerProduct,
  };
}
