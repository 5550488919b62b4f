import { type ImportReport, type ProductRecord, productImportNotes } from '@dukkan/contract';
import { and, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../src/db/schema/index.ts';
import { dataOf, multipart } from './helpers/api.ts';
import { csvFile, settledImport } from './helpers/import-jobs.ts';
import { bilingual, productCatalogue, type TestVariationType } from './helpers/product-catalogue.ts';
import { callInWorkspace, type TwoShops, useTwoShops } from './helpers/shops.ts';
import { addMember, unique, workspaceSnapshot } from './helpers/workspaces.ts';

/*
 * The products' import (decision 0038): the export's row per variant read back through the
 * engine's import and its expansion (`features/products/product-import.ts`) — rows of one code
 * one product, a row's values its variant, variants missing from the file kept.
 */

describe('product import', () => {
  let shops: TwoShops;
  useTwoShops('Product imports', (given) => {
    shops = given;
  });
  let catalogue: ReturnType<typeof productCatalogue>;
  let size: TestVariationType;
  let milk: TestVariationType;
  let unitCode: string;
  let otherUnitCode: string;
  let headers: string[];

  const call = (path: string, options: Parameters<typeof callInWorkspace>[3] = {}) =>
    callInWorkspace(shops.t, shops.shop, path, { member: shops.admin, ...options });

  async function upload(
    file: Buffer,
    { dryRun = true, member = shops.admin, filename = 'products.csv' } = {},
  ) {
    const { body, headers: multipartHeaders } = multipart([
      { field: 'file', filename, type: 'application/octet-stream', content: file },
    ]);
    const url = `/api/products/import?workspaceId=${shops.shop.id}&dryRun=${dryRun}`;
    const response = await settledImport(
      shops.t.app,
      url,
      member.cookie,
      await shops.t.app.inject({
        method: 'POST',
        url,
        headers: { ...multipartHeaders, cookie: member.cookie, 'accept-language': 'en' },
        payload: body,
      }),
    );
    return { status: response.statusCode, body: response.body, requestId: response.headers['x-request-id'] };
  }
  const reportOf = (response: { status: number; body: string }) => {
    expect(response.status, response.body).toBe(200);
    return (JSON.parse(response.body) as { data: ImportReport }).data;
  };

  /** A file of rows given by header (the template's English headers), other cells empty. */
  const file = (rows: Record<string, string | undefined>[], extraHeaders: string[] = []) => {
    const all = [...headers, ...extraHeaders];
    for (const row of rows) for (const header of Object.keys(row)) expect(all, header).toContain(header);
    return csvFile([all, ...rows.map((row) => all.map((header) => row[header] ?? null))]);
  };

  const snapshot = (except: string[] = []) => workspaceSnapshot(shops.t.db, shops.shop.id, { except });
  const productByCode = async (code: string) => {
    const [found] = dataOf<ProductRecord[]>(
      await call(`products?search=${encodeURIComponent(code)}&pageSize=10`),
    ).filter((product) => product.code === code);
    expect(found, code).toBeDefined();
    return catalogue.get(found!.id);
  };
  const priceOf = (product: ProductRecord, ...valueIds: string[]) =>
    product.variants!.find((variant) => variant.key === valueIds.join('-'))?.price;

  beforeAll(async () => {
    catalogue = productCatalogue(shops.t.app, shops.shop, shops.admin);
    size = await catalogue.variationType('Cup size', 'حجم الكوب', [
      ['Small', 'صغير'],
      ['Large', 'كبير'],
      ['Huge', 'ضخم'],
    ]);
    milk = await catalogue.variationType('Milk kind', 'نوع الحليب', [
      ['Whole', 'كامل'],
      ['Oat', 'شوفان'],
    ]);
    const unitId = await catalogue.unit();
    unitCode = dataOf<{ code: string }>(await call(`measurement-units/${unitId}`)).code;
    otherUnitCode = unique('OU');
    dataOf(
      await callInWorkspace(shops.t, shops.other, 'measurement-units', {
        method: 'POST',
        member: shops.otherAdmin,
        body: { code: otherUnitCode, name: bilingual('Box', 'صندوق'), symbol: 'bx' },
      }),
    );
    const template = await shops.t.app.inject({
      method: 'GET',
      url: `/api/products/import-template?workspaceId=${shops.shop.id}&format=csv`,
      headers: { cookie: shops.admin.cookie, 'accept-language': 'en' },
    });
    expect(template.statusCode, template.body).toBe(200);
    headers = template.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split(',');
  });

  it('the template has a column per variation type, then SKU, barcode, price and cost, and says how rows make products', async () => {
    expect(headers).toEqual(
      expect.arrayContaining(['Code', 'Cup size', 'Milk kind', 'SKU', 'Barcode', 'Price', 'Cost']),
    );
    expect(headers.slice(-4)).toEqual(['SKU', 'Barcode', 'Price', 'Cost']);
    const template = await shops.t.app.inject({
      method: 'GET',
      url: `/api/products/import-template?workspaceId=${shops.shop.id}&format=xlsx`,
      headers: { cookie: shops.admin.cookie, 'accept-language': 'ar' },
    });
    expect(template.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(template.rawPayload as unknown as ArrayBuffer);
    const [sheet, notes] = workbook.worksheets;
    expect(sheet!.getRow(1).values).toEqual(expect.arrayContaining(['حجم الكوب', 'نوع الحليب']));
    const lines: unknown[] = [];
    notes!.eachRow((row) => lines.push(row.getCell(1).value));
    expect(lines).toEqual(expect.arrayContaining([...productImportNotes.ar]));
  });

  it('creates products with variants from the rows of their codes, and one without variants', async () => {
    const code = unique('PI');
    const name = 'Name (English)';
    const rows = [
      {
        Code: code,
        [name]: 'Flat white',
        'Unit of measurement': unitCode,
        'Cup size': 'Small',
        'Milk kind': 'Whole',
        SKU: `${code}-SW`,
        Price: '20.00',
      },
      { Code: code, 'Cup size': 'Large', 'Milk kind': 'Whole', Price: '25.50', Cost: '9.00' },
      { Code: code, 'Cup size': 'صغير', 'Milk kind': 'Oat', Price: '22.00' },
      // No code: consecutive rows of one name are one new product, which takes the next code.
      { [name]: `Juice ${code}`, 'Unit of measurement': unitCode, Price: '5.00', Cost: '2.00' },
      { [name]: `Shake ${code}`, 'Unit of measurement': unitCode, 'Cup size': 'Small', Price: '6.00' },
      { [name]: `Shake ${code}`, 'Cup size': 'Large', Price: '8.00' },
    ];
    expect(headers).toContain(name);
    const before = await snapshot();
    const dry = reportOf(await upload(file(rows)));
    expect(dry).toMatchObject({
      dryRun: true,
      committed: false,
      rows: 6,
      errors: [],
      counts: { create: 3, update: 0, unchanged: 0 },
    });
    expect(await snapshot()).toEqual(before);

    const commit = reportOf(await upload(file(rows), { dryRun: false }));
    expect(commit).toMatchObject({
      committed: true,
      errors: [],
      counts: { create: 3, update: 0, unchanged: 0 },
    });
    const product = await productByCode(code);
    expect(product.options).toEqual([
      { typeId: size.id, valueIds: [size.values[0], size.values[1]] },
      { typeId: milk.id, valueIds: [milk.values[0], milk.values[1]] },
    ]);
    // Every combination of the values is a variant; the one no row prices starts at the product's own.
    expect(product.variants).toHaveLength(4);
    expect(priceOf(product, size.values[0]!, milk.values[0]!)).toBe(2000);
    expect(priceOf(product, size.values[1]!, milk.values[0]!)).toBe(2550);
    expect(priceOf(product, size.values[0]!, milk.values[1]!)).toBe(2200);
    expect(priceOf(product, size.values[1]!, milk.values[1]!)).toBe(0);
    expect(product.variants!.find((variant) => variant.sku === `${code}-SW`)).toBeDefined();
    expect(product.variants!.find((variant) => variant.price === 2550)?.cost).toBe(900);

    const juices = dataOf<ProductRecord[]>(
      await call(`products?search=${encodeURIComponent(`Juice ${code}`)}`),
    );
    expect(juices).toHaveLength(1);
    expect(juices[0]).toMatchObject({ price: 500, cost: 200, variantsCount: 0 });
    expect(juices[0]!.code).toMatch(/^PRD-/);
    const shakes = dataOf<ProductRecord[]>(
      await call(`products?search=${encodeURIComponent(`Shake ${code}`)}`),
    );
    expect(shakes).toHaveLength(1);
    expect(shakes[0]).toMatchObject({ variantsCount: 2, priceMin: 600, priceMax: 800 });
  });

  it("updates a variant's price by the product's code and its values, keeping the variants the file leaves out", async () => {
    const code = unique('PU');
    const created = await catalogue.created({
      code,
      options: [{ typeId: size.id, valueIds: [size.values[0], size.values[1]] }],
      variants: [
        { key: size.values[0], price: 1000, cost: 400, sku: `${code}-S` },
        { key: size.values[1], price: 1500 },
      ],
    });
    const updatedBefore = (await catalogue.get(created.id)).updatedAt;
    // The Small row as stored (no change), the Large row at a new price.
    const rows = [
      { Code: code, 'Cup size': 'Small', Price: '10.00' },
      { Code: code, 'Cup size': 'Large', Price: '17.00' },
    ];
    const dry = reportOf(await upload(file(rows)));
    expect(dry).toMatchObject({ errors: [], counts: { create: 0, update: 1, unchanged: 0 } });
    const committed = await upload(file(rows), { dryRun: false });
    expect(reportOf(committed)).toMatchObject({ committed: true, counts: { update: 1 } });
    const product = await catalogue.get(created.id);
    expect(product.variants!.map((variant) => [variant.key, variant.price])).toEqual([
      [size.values[0], 1000],
      [size.values[1], 1700],
    ]);
    expect(product.updatedAt).not.toBe(updatedBefore);
    // Its audit row holds the one variant changed.
    const [audit] = await shops.t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.requestId, committed.requestId as string), eq(auditLog.action, 'update')));
    expect(audit?.changes).toMatchObject({
      variants: [{ [size.values[1]!]: { price: 1500 } }, { [size.values[1]!]: { price: 1700 } }],
    });

    // A file naming a new value adds it; the variants it leaves out stay.
    const added = reportOf(
      await upload(file([{ Code: code, 'Cup size': 'Huge', Price: '30.00' }]), { dryRun: false }),
    );
    expect(added).toMatchObject({ committed: true, errors: [], counts: { update: 1 } });
    const grown = await catalogue.get(created.id);
    expect(grown.variants!.map((variant) => [variant.key, variant.price])).toEqual([
      [size.values[0], 1000],
      [size.values[1], 1700],
      [size.values[2], 3000],
    ]);

    // An empty cell keeps a variant's SKU and price; the marker clears its cost, and a price,
    // which a variant must have, refuses to be cleared at its row and column.
    const cleared = reportOf(
      await upload(file([{ Code: code, 'Cup size': 'Small', Cost: '[clear]' }]), { dryRun: false }),
    );
    expect(cleared).toMatchObject({ committed: true, errors: [], counts: { update: 1 } });
    expect((await catalogue.get(created.id)).variants![0]).toMatchObject({
      key: size.values[0],
      sku: `${code}-S`,
      price: 1000,
      cost: null,
    });
    const refused = reportOf(
      await upload(
        file([
          { Code: code, 'Cup size': 'Small' },
          { Code: code, 'Cup size': 'Large', Price: '[clear]' },
        ]),
      ),
    );
    expect(refused.errors).toEqual([{ row: 3, column: 'Price', code: 'MONEY_IS_INVALID' }]);
  });

  it('a value, a type or a reference the workspace lacks is an error naming it; nothing changes, dry run or commit', async () => {
    const code = unique('PE');
    await catalogue.created({
      code,
      options: [{ typeId: size.id, valueIds: [size.values[0]] }],
    });
    const rows = [
      { Code: code, 'Cup size': 'Small', Price: '11.00' },
      { Code: code, 'Cup size': 'Medium', Price: '12.00' },
      { Code: unique('PE'), 'Name (English)': 'Elsewhere', 'Unit of measurement': otherUnitCode },
      { Code: code, 'Milk kind': 'Oat', 'Cup size': 'Small', SKU: 'X' },
    ];
    const expected = [
      {
        row: 3,
        column: 'Cup size',
        code: 'IMPORT_VALUE_NOT_FOUND',
        params: { value: 'Medium', type: 'Cup size' },
      },
      {
        row: 4,
        column: 'Unit of measurement',
        code: 'IMPORT_CODE_NOT_FOUND',
        params: { code: otherUnitCode },
      },
      { row: 5, column: 'Milk kind', code: 'IMPORT_TYPE_NOT_OF_PRODUCT', params: { type: 'Milk kind' } },
    ];
    const before = await snapshot();
    const dry = reportOf(await upload(file(rows)));
    expect(dry.errors).toEqual(expected);
    const commit = reportOf(await upload(file(rows), { dryRun: false }));
    expect(commit).toMatchObject({ committed: false, errors: dry.errors });
    expect(await snapshot()).toEqual(before);

    // A header that is no column nor type of this workspace (another's type, say) is named.
    const unknown = reportOf(
      await upload(
        csvFile([
          ['Code', 'Flavour'],
          [code, 'Vanilla'],
        ]),
      ),
    );
    expect(unknown.errors).toEqual([
      { row: 1, column: 'Flavour', code: 'IMPORT_COLUMN_UNKNOWN', params: { header: 'Flavour' } },
    ]);
  });

  it("two rows of one product giving it different fields, or a row without one of the product's types, are errors", async () => {
    const code = unique('PC');
    const rows = [
      {
        Code: code,
        'Name (English)': 'Mocha',
        'Unit of measurement': unitCode,
        'Cup size': 'Small',
        'Milk kind': 'Whole',
      },
      { Code: code, 'Name (English)': 'Mocca', 'Cup size': 'Large', 'Milk kind': 'Whole' },
      { Code: code, 'Cup size': 'Large' },
      { Code: code, 'Milk kind': 'Oat' },
      { Code: code, 'Cup size': 'Small', 'Milk kind': 'Whole', Price: '3.00' },
    ];
    const dry = reportOf(await upload(file(rows)));
    expect(dry.errors).toEqual([
      { row: 3, column: 'Name (English)', code: 'IMPORT_ROW_CONFLICT', params: { row: 2 } },
      { row: 4, column: 'Milk kind', code: 'IMPORT_VARIANT_VALUE_MISSING', params: { type: 'Milk kind' } },
      { row: 5, column: 'Cup size', code: 'IMPORT_VARIANT_VALUE_MISSING', params: { type: 'Cup size' } },
      { row: 6, code: 'IMPORT_ROW_REPEATED', params: { row: 2 } },
    ]);
    expect(dry.counts).toEqual({ create: 0, update: 0, unchanged: 0 });
  });

  it('creating a product needs add, changing a variant needs edit', async () => {
    const code = unique('PP');
    await catalogue.created({ code, options: [{ typeId: size.id, valueIds: [size.values[0]] }] });
    const editor = await addMember(shops.t.db, shops.shop.id, { tags: ['viewProducts', 'editProducts'] });
    const adder = await addMember(shops.t.db, shops.shop.id, { tags: ['viewProducts', 'addProducts'] });
    const change = file([{ Code: code, 'Cup size': 'Small', Price: '4.00' }]);
    const create = file([{ Code: unique('PN'), 'Name (English)': 'New', 'Unit of measurement': unitCode }]);
    const refused = (response: { status: number; body: string }) => {
      expect(response.status, response.body).toBe(403);
      return (JSON.parse(response.body) as { error: { issues: unknown[] } }).error.issues;
    };
    expect(refused(await upload(create, { member: editor }))).toEqual([
      { path: 'file', message: 'IMPORT_CREATE_NOT_ALLOWED', params: { rows: '2', count: 1 } },
    ]);
    expect(refused(await upload(change, { member: adder }))).toEqual([
      { path: 'file', message: 'IMPORT_UPDATE_NOT_ALLOWED', params: { rows: '2', count: 1 } },
    ]);
    expect(reportOf(await upload(change, { member: editor }))).toMatchObject({
      errors: [],
      counts: { update: 1 },
    });
    expect(reportOf(await upload(create, { member: adder }))).toMatchObject({
      errors: [],
      counts: { create: 1 },
    });
  });

  it.each(['csv', 'xlsx'] as const)(
    'its own export as %s, in English and Arabic, reports 0 changes and writes nothing but the import’s row',
    async (format) => {
      await catalogue.created({
        code: unique('PX'),
        name: bilingual('=Exported, with "quotes"', 'مُصدَّر'),
        options: [
          { typeId: size.id, valueIds: [size.values[0], size.values[1]] },
          { typeId: milk.id, valueIds: [milk.values[1]] },
        ],
        variants: [
          { key: `${size.values[1]}-${milk.values[1]}`, price: 1234, cost: 500, sku: unique('SKU') },
        ],
      });
      for (const language of ['en', 'ar']) {
        const exported = await shops.t.app.inject({
          method: 'GET',
          url: `/api/products/export?workspaceId=${shops.shop.id}&format=${format}`,
          headers: { cookie: shops.admin.cookie, 'accept-language': language },
        });
        expect(exported.statusCode).toBe(200);
        const records = await snapshot(['auditLog']);
        const count = dataOf<ProductRecord[]>(await call('products?pageSize=100')).length;
        const dry = reportOf(await upload(exported.rawPayload, { filename: `products.${format}` }));
        expect(dry).toMatchObject({ errors: [], counts: { create: 0, update: 0, unchanged: count } });
        const commit = reportOf(
          await upload(exported.rawPayload, { dryRun: false, filename: `products.${format}` }),
        );
        expect(commit).toMatchObject({
          committed: true,
          errors: [],
          counts: { create: 0, update: 0, unchanged: count },
        });
        expect(await snapshot(['auditLog'])).toEqual(records);
      }
    },
    120_000,
  );
});
