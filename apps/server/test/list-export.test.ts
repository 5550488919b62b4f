import {
  type AuditLogRecord,
  type CellValue,
  type CustomerRecord,
  listQuerySchema,
  parseCell,
  type ResourceDefinition,
  tagFor,
} from '@dukkan/contract';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../src/db/schema/index.ts';
import { api, dataOf, expectNoLeak } from './helpers/api.ts';
import { bilingual, productCatalogue, sizes } from './helpers/product-catalogue.ts';
import { seedTargets, testResources } from './helpers/route-scenarios.ts';
import { useTwoShops } from './helpers/shops.ts';
import { addMember, type TestMember, tagsExcept, unique } from './helpers/workspaces.ts';

/** A CSV file's rows as RFC 4180 reads them. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        field += '"';
        index++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\r' && text[index + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      index++;
    } else field += char;
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows;
}

interface Download {
  status: number;
  headers: Record<string, unknown>;
  body: Buffer;
  json: unknown;
}

async function download(
  app: FastifyInstance,
  url: string,
  member: TestMember | null,
  language?: string,
): Promise<Download> {
  const response = await app.inject({
    method: 'GET',
    url,
    headers: {
      ...(member ? { cookie: member.cookie } : {}),
      ...(language ? { 'accept-language': language } : {}),
    },
  });
  let json: unknown;
  try {
    json = JSON.parse(response.body);
  } catch {
    json = undefined;
  }
  return { status: response.statusCode, headers: response.headers, body: response.rawPayload, json };
}

/** A CSV export's header and rows, its byte-order mark checked. */
function csvRows(file: Download): { header: string[]; rows: string[][] } {
  expect(file.status, file.body.toString()).toBe(200);
  expect(file.headers['content-type']).toBe('text/csv; charset=utf-8');
  expect([...file.body.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const text = file.body.toString('utf8').slice(1);
  expectNoLeak(text);
  const [header = [], ...rows] = parseCsv(text);
  return { header, rows };
}

/** An XLSX export read back with exceljs: its header, rows and whether its sheet is right-to-left. */
async function xlsxRows(file: Download) {
  expect(file.status, file.body.toString()).toBe(200);
  expect(file.headers['content-type']).toBe(
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  );
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(file.body as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0]!;
  const values: CellValue[][] = [];
  sheet.eachRow((row) => {
    // exceljs leaves empty cells out of its sparse array.
    const cells = Array.from(row.values as unknown[]).slice(1);
    values.push(cells.map((cell) => (cell === undefined ? null : (cell as CellValue))));
  });
  const [header = [], ...rows] = values;
  const view = sheet.views[0] as { rightToLeft?: boolean } | undefined;
  return { header: header.map(String), rows, rightToLeft: view?.rightToLeft ?? false };
}

describe('list export', () => {
  let shops: Parameters<Parameters<typeof useTwoShops>[1]>[0];
  useTwoShops('Exports', (given) => {
    shops = given;
  });
  const url = (path: string, query = '', workspaceId = shops.shop.id) =>
    `/api/${path}/export?workspaceId=${workspaceId}${query ? `&${query}` : ''}`;
  const call = (method: 'GET' | 'POST', path: string, body?: unknown) =>
    api(shops.t.app, {
      method,
      url: `/api/${path}${path.includes('?') ? '&' : '?'}workspaceId=${shops.shop.id}`,
      body,
      cookie: shops.admin.cookie,
    });

  describe('customers: more than one chunk of rows, filters, search and sort', () => {
    const total = 1_050;
    let brandId: string;
    let brandCode: string;
    beforeAll(async () => {
      brandCode = unique('BRX');
      brandId = dataOf<{ id: string }>(
        await call('POST', 'brands', {
          code: brandCode,
          name: bilingual('Nile', 'النيل'),
          currencies: ['EGP'],
        }),
      ).id;
      const rows = Array.from({ length: total }, (_, index) => ({
        code: `CX-${String(index).padStart(5, '0')}`,
        name: index % 2 === 0 ? `Mona ${index}` : `منى ${index}`,
        phones: [`+2010${String(index).padStart(8, '0')}`, `0111${String(index).padStart(7, '0')}`],
        source: index % 3 === 0 ? 'online' : 'walkIn',
        brandId: index % 5 === 0 ? brandId : null,
      }));
      for (let start = 0; start < total; start += 500) {
        dataOf(await call('POST', 'customers/bulk', rows.slice(start, start + 500)));
      }
    });

    it('writes every customer as CSV, in English, with a byte-order mark, codes for references and quoted phones', async () => {
      const file = await download(shops.t.app, url('customers', 'format=csv'), shops.admin, 'en');
      expect(file.headers['content-disposition']).toMatch(
        /^attachment; filename="customers-\d{4}-\d{2}-\d{2}\.csv"$/,
      );
      const { header, rows } = csvRows(file);
      expect(header).toEqual(['Code', 'Name', 'Phone numbers', 'Source', 'Brand', 'Status']);
      expect(rows).toHaveLength(total);
      expect(rows[0]).toEqual([
        'CX-00000',
        'Mona 0',
        "'+201000000000, 01110000000",
        'online',
        brandCode,
        'active',
      ]);
      expect(rows[1]?.[4]).toBe('');
      expect(parseCell('list', rows[0]![2]!)).toEqual(['+201000000000', '01110000000']);
      expect(rows.map((row) => row[0])).toEqual(
        Array.from({ length: total }, (_, index) => `CX-${String(index).padStart(5, '0')}`),
      );
    });

    it('writes an XLSX in Arabic: Arabic headers, a right-to-left sheet, every row', async () => {
      const file = await download(shops.t.app, url('customers', 'format=xlsx'), shops.admin, 'ar');
      const { header, rows, rightToLeft } = await xlsxRows(file);
      expect(header).toEqual(['الرمز', 'الاسم', 'أرقام الهاتف', 'المصدر', 'العلامة التجارية', 'الحالة']);
      expect(rightToLeft).toBe(true);
      expect(rows).toHaveLength(total);
      expect(rows[1]).toEqual(['CX-00001', 'منى 1', "'+201000000001, 01110000001", 'walkIn', null, 'active']);
      const english = await xlsxRows(
        await download(shops.t.app, url('customers', 'format=xlsx'), shops.admin, 'en'),
      );
      expect(english.rightToLeft).toBe(false);
    });

    it('exports what the list shows: the same search, filters and sort, every page of it', async () => {
      const query = `source=online&brandId=${brandId}&sort=-code`;
      const listed: string[] = [];
      for (let page = 1; ; page++) {
        const records = dataOf<CustomerRecord[]>(
          await call('GET', `customers?${query}&pageSize=100&page=${page}`),
        );
        listed.push(...records.map((record) => record.code));
        if (records.length < 100) break;
      }
      expect(listed.length).toBeGreaterThan(0);
      const { rows } = csvRows(
        await download(shops.t.app, url('customers', `format=csv&${query}`), shops.admin),
      );
      expect(rows.map((row) => row[0])).toEqual(listed);
      expect(new Set(rows.map((row) => `${row[3]} ${row[4]}`))).toEqual(new Set([`online ${brandCode}`]));

      const searched = csvRows(
        await download(shops.t.app, url('customers', 'format=csv&search=منى 10'), shops.admin),
      );
      const found = dataOf<CustomerRecord[]>(
        await call('GET', `customers?search=${encodeURIComponent('منى 10')}&pageSize=100`),
      );
      expect(searched.rows.map((row) => row[0])).toEqual(found.map((record) => record.code));
      expect(searched.rows.length).toBeGreaterThan(1);
    });

    it('is on the audit log: who took which list, its format, search and filters, and its rows', async () => {
      const query = `source=online&brandId=${brandId}&search=Mona`;
      const file = await download(shops.t.app, url('customers', `format=csv&${query}`), shops.admin);
      const { rows } = csvRows(file);
      expect(rows.length).toBeGreaterThan(0);
      const requestId = file.headers['x-request-id'] as string;
      const written = await shops.t.db.select().from(auditLog).where(eq(auditLog.requestId, requestId));
      expect(written).toHaveLength(1);
      const [row] = written;
      expect(row).toMatchObject({
        workspaceId: shops.shop.id,
        actorKind: 'member',
        actorUserId: shops.admin.user.id,
        action: 'export',
        resource: 'customers',
      });
      expect(row!.changes).toEqual({
        format: [null, 'csv'],
        rows: [null, rows.length],
        search: [null, 'Mona'],
        filters: [null, { source: ['online'], brandId: [brandId] }],
      });

      // The Activity page's list finds it by its action and resource; another action's leaves it out.
      const exported = dataOf<AuditLogRecord[]>(
        await call('GET', 'audit-log?action=export&resource=customers&pageSize=100'),
      );
      expect(exported.map((record) => record.id)).toContain(row!.id);
      expect(exported.every((record) => record.action === 'export' && record.resource === 'customers')).toBe(
        true,
      );
      expect(exported.find((record) => record.id === row!.id)).toMatchObject({
        actorName: shops.admin.user.name,
        changes: row!.changes,
      });
      const updated = dataOf<AuditLogRecord[]>(await call('GET', 'audit-log?action=update&pageSize=100'));
      expect(updated.map((record) => record.id)).not.toContain(row!.id);
      // Nor is it in another workspace's log.
      const elsewhere = await api(shops.t.app, {
        url: `/api/audit-log?workspaceId=${shops.other.id}&action=export`,
        cookie: shops.otherAdmin.cookie,
      });
      expect(dataOf<AuditLogRecord[]>(elsewhere).map((record) => record.id)).not.toContain(row!.id);
    });

    it('refuses a format it does not write, an unknown parameter, and a filter it does not take', async () => {
      for (const query of ['format=pdf', '', 'format=csv&colour=red', 'format=csv&source=nowhere']) {
        const file = await download(shops.t.app, url('customers', query), shops.admin);
        expect(file.status, query).toBe(400);
        expect((file.json as { error: { code: string } }).error.code).toBe('VALIDATION');
      }
    });
  });

  it('writes a brand with a name column per language, its currencies as one list and ISO dates', async () => {
    const code = unique('BRZ');
    dataOf(
      await call('POST', 'brands', {
        code,
        name: bilingual('=cmd|calc', 'الدلتا'),
        currencies: ['EGP', 'USD'],
        creationDate: '2024-03-01',
      }),
    );
    const { header, rows } = csvRows(
      await download(shops.t.app, url('brands', `format=csv&search=${code}`), shops.admin, 'en'),
    );
    expect(header.slice(0, 3)).toEqual(['Code', 'Name (English)', 'Name (Arabic)']);
    const row = rows.find((candidate) => candidate[0] === code)!;
    const at = (field: string) => row[header.indexOf(field)];
    // A name a spreadsheet would run as a formula is written after a quote.
    expect(at('Name (English)')).toBe("'=cmd|calc");
    expect(parseCell('text', at('Name (English)')!)).toBe('=cmd|calc');
    expect(at('Name (Arabic)')).toBe('الدلتا');
    expect(parseCell('list', at('Currencies')!)).toEqual(['EGP', 'USD']);
    expect(at('Creation date')).toBe('2024-03-01');
    const arabic = csvRows(
      await download(shops.t.app, url('brands', `format=csv&search=${code}`), shops.admin, 'ar'),
    );
    expect(arabic.header.slice(0, 3)).toEqual(['الرمز', 'الاسم (بالإنجليزية)', 'الاسم (بالعربية)']);
  });

  it('writes a product once per variant, a column per variation type, SKU, barcode, price and cost', async () => {
    const catalogue = productCatalogue(shops.t.app, shops.shop, shops.admin);
    const size = await catalogue.variationType('Size', 'الحجم', sizes);
    const code = unique('PX');
    const product = await catalogue.created({
      code,
      options: [{ typeId: size.id, valueIds: size.values }],
      variants: [
        { key: size.values[0], sku: `${code}-S`, price: 1_250, cost: 400 },
        { key: size.values[2], sku: `${code}-L`, price: 2_000 },
      ],
    });
    const plain = await catalogue.created({ price: 999, cost: 100 });
    const { header, rows } = csvRows(
      await download(shops.t.app, url('products', 'format=csv&sort=code'), shops.admin, 'en'),
    );
    expect(header).toEqual(
      expect.arrayContaining([
        'Code',
        'Name (English)',
        'Name (Arabic)',
        'Size',
        'SKU',
        'Barcode',
        'Price',
        'Cost',
      ]),
    );
    const at = (row: string[], column: string) => row[header.indexOf(column)];
    const own = rows.filter((row) => row[0] === code);
    expect(own.map((row) => [at(row, 'Size'), at(row, 'SKU'), at(row, 'Price'), at(row, 'Cost')])).toEqual([
      ['Small', `${code}-S`, '12.5', '4'],
      ['Medium', '', '0', ''],
      ['Large', `${code}-L`, '20', ''],
    ]);
    expect(own.every((row) => at(row, 'Name (Arabic)') === 'لاتيه')).toBe(true);
    expect(parseCell('money', at(own[0]!, 'Price')!, { currency: 'EGP' })).toBe(1_250);
    expect(
      rows.filter((row) => row[0] === plain.code).map((row) => [at(row, 'Size'), at(row, 'Price')]),
    ).toEqual([['', '9.99']]);
    expect(product.variants).toHaveLength(3);

    const arabic = await xlsxRows(
      await download(shops.t.app, url('products', `format=xlsx&search=${code}`), shops.admin, 'ar'),
    );
    expect(arabic.header).toContain('الحجم');
    expect(arabic.rows.map((row) => row[arabic.header.indexOf('الحجم')])).toEqual(['صغير', 'وسط', 'كبير']);
    expect(arabic.rows[0]?.[arabic.header.indexOf('السعر')]).toBe(12.5);
  });

  it('writes exchange rates with their currency and rate', async () => {
    dataOf(await call('POST', 'exchange-rates', { currency: 'KWD', rate: 160.25 }));
    const { header, rows } = csvRows(
      await download(shops.t.app, url('exchange-rates', 'format=csv&search=KWD'), shops.admin, 'en'),
    );
    expect(header).toEqual(['Currency', 'Rate', 'Last updated']);
    expect(rows.find((row) => row[0] === 'KWD')?.slice(0, 2)).toEqual(['KWD', '160.25']);
  });

  describe('every listed resource', () => {
    const listed = testResources.served.filter((data) => data.engineVerbs.includes('list'));
    let noView: Map<string, TestMember>;
    beforeAll(async () => {
      await seedTargets(shops.t.db, shops.shop.id);
      noView = new Map();
      for (const data of listed) {
        const tag = tagFor(data.storage.definition, 'list');
        noView.set(
          data.storage.definition.key,
          await addMember(shops.t.db, shops.shop.id, { tags: tagsExcept([tag]) }),
        );
      }
    });

    it.each(listed.map((data) => [data.storage.definition.key, data] as const))(
      '%s: reads in chunks the records of every page of its list, in every sort and language',
      async (_key, data) => {
        const { definition } = data.storage;
        const schema = listQuerySchema(definition);
        for (const field of definition.sort) {
          for (const sort of [field, `-${field}`]) {
            for (const locale of ['en', 'ar'] as const) {
              const listed: unknown[] = [];
              for (let page = 1; ; page++) {
                const query = schema.parse({ workspaceId: shops.shop.id, sort, pageSize: '100', page });
                const { records } = await data.list(shops.t.db, shops.shop.id, query, locale);
                listed.push(...records.map((record) => record.id));
                if (records.length < 100) break;
              }
              // A record a chunk; the customers made above (over a thousand) 37 a chunk.
              const chunkSize = listed.length > 100 ? 37 : 1;
              const query = schema.parse({ workspaceId: shops.shop.id, sort });
              const chunked: unknown[] = [];
              for await (const chunk of data.listAll(shops.t.db, shops.shop.id, query, locale, chunkSize)) {
                chunked.push(...chunk.map((record) => record.id));
              }
              expect(chunked, `${sort} ${locale}`).toEqual(listed);
            }
          }
        }
        // A search with no sort given comes by relevance, in the list and in the chunks alike.
        if (!data.storage.searchColumn) return;
        for (const search of ['1', 'a', 'e', 'ا']) {
          const query = schema.parse({ workspaceId: shops.shop.id, search, pageSize: '100' });
          const listed: unknown[] = [];
          for (let page = 1; ; page++) {
            const { records } = await data.list(shops.t.db, shops.shop.id, { ...query, page }, 'en');
            listed.push(...records.map((record) => record.id));
            if (records.length < 100) break;
          }
          if (listed.length < 2) continue;
          const chunked: unknown[] = [];
          for await (const chunk of data.listAll(
            shops.t.db,
            shops.shop.id,
            query,
            'en',
            listed.length > 100 ? 37 : 1,
          )) {
            chunked.push(...chunk.map((record) => record.id));
          }
          expect(chunked, `search ${search}`).toEqual(listed);
        }
      },
    );

    it.each(listed.map((data) => [data.storage.definition.key, data.storage.definition] as const))(
      '%s: exports as many rows as its list has records, in CSV and XLSX; refuses others',
      async (_key, definition: ResourceDefinition) => {
        const list = await call('GET', `${definition.path}?pageSize=100`);
        const { total, totalCapped } = (list.json as { meta: { total: number; totalCapped?: boolean } }).meta;
        const csv = csvRows(
          await download(shops.t.app, url(definition.path, 'format=csv'), shops.admin, 'en'),
        );
        const xlsx = await xlsxRows(
          await download(shops.t.app, url(definition.path, 'format=xlsx'), shops.admin, 'ar'),
        );
        expect(csv.header.length).toBeGreaterThan(0);
        expect(xlsx.header).toHaveLength(csv.header.length);
        // A product is a row per variant; a capped count (the audit log's) is a lower bound.
        if (definition.key === 'products' || totalCapped) {
          expect(csv.rows.length).toBeGreaterThanOrEqual(total);
        } else {
          expect(csv.rows).toHaveLength(total);
        }
        // An export of the audit log is on it: the second file has the first one's row too.
        expect(xlsx.rows).toHaveLength(csv.rows.length + (definition.key === 'auditLog' ? 1 : 0));

        expect((await download(shops.t.app, url(definition.path, 'format=csv'), null)).status).toBe(401);
        expect(
          (await download(shops.t.app, url(definition.path, 'format=csv'), noView.get(definition.key)!))
            .status,
        ).toBe(403);
        // Another workspace's id: its admin's export, not this shop's member's.
        expect(
          (await download(shops.t.app, url(definition.path, 'format=csv', shops.other.id), shops.admin))
            .status,
        ).toBe(403);
      },
    );
  });
});
