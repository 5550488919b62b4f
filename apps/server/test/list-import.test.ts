import {
  type AuditLogRecord,
  type CustomerRecord,
  type ImportReport,
  importLimits,
  tagFor,
  validationCodes,
} from '@dukkan/contract';
import { eq, like } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditLog, customers as customersTable } from '../src/db/schema/index.ts';
import { isImportable } from '../src/resource-engine/import.ts';
import { dataOf, errorOf, multipart } from './helpers/api.ts';
import { csvFile, settledImport } from './helpers/import-jobs.ts';
import { bilingual, productCatalogue, sizes } from './helpers/product-catalogue.ts';
import { seedTargets, testResources } from './helpers/route-scenarios.ts';
import { callInWorkspace, type TwoShops, useTwoShops } from './helpers/shops.ts';
import { captureStatements } from './helpers/sql-capture.ts';
import { addMember, type TestMember, unique, workspaceSnapshot } from './helpers/workspaces.ts';

/*
 * The import of a list's file (`POST /api/<path>/import`, decision 0038): the export read back,
 * a dry run that finds what the commit meets, one transaction for the commit, and a kept commit's
 * own `import` row on the audit log.
 */

describe('list import', () => {
  let shops: TwoShops;
  useTwoShops('Imports', (given) => {
    shops = given;
  });

  const call = (path: string, options: Parameters<typeof callInWorkspace>[3] = {}) =>
    callInWorkspace(shops.t, shops.shop, path, { member: shops.admin, ...options });

  async function download(path: string, format: 'csv' | 'xlsx', language = 'en', query = '') {
    const response = await shops.t.app.inject({
      method: 'GET',
      url: `/api/${path}/export?workspaceId=${shops.shop.id}&format=${format}${query}`,
      headers: { cookie: shops.admin.cookie, 'accept-language': language },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.rawPayload;
  }

  async function upload(
    path: string,
    file: Buffer,
    {
      dryRun = true,
      member = shops.admin,
      filename = 'rows.csv',
      language = 'en',
      workspaceId = shops.shop.id,
    } = {},
  ) {
    const { body, headers } = multipart([
      { field: 'file', filename, type: 'application/octet-stream', content: file },
    ]);
    const url = `/api/${path}/import?workspaceId=${workspaceId}&dryRun=${dryRun}`;
    const response = await settledImport(
      shops.t.app,
      url,
      member?.cookie ?? '',
      await shops.t.app.inject({
        method: 'POST',
        url,
        headers: { ...headers, ...(member ? { cookie: member.cookie } : {}), 'accept-language': language },
        payload: body,
      }),
    );
    let json: unknown;
    try {
      json = JSON.parse(response.body);
    } catch {
      json = undefined;
    }
    return {
      status: response.statusCode,
      json,
      text: response.body,
      headers: response.headers,
      setCookies: [],
    };
  }

  const report = (response: { status: number; json: unknown; text: string }) => {
    expect(response.status, response.text).toBe(200);
    return (response.json as { data: ImportReport }).data;
  };

  const snapshot = (except: string[] = []) => workspaceSnapshot(shops.t.db, shops.shop.id, { except });

  /** The audit rows an upload's request wrote. */
  const auditRowsOf = (response: { headers: Record<string, unknown> }) =>
    shops.t.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.requestId, response.headers['x-request-id'] as string));

  async function customers(): Promise<CustomerRecord[]> {
    return dataOf<CustomerRecord[]>(await call('customers?pageSize=100&sort=code'));
  }

  let brandCode: string;
  let otherBrandCode: string;
  beforeAll(async () => {
    brandCode = unique('BRI');
    dataOf(
      await call('brands', {
        method: 'POST',
        body: { code: brandCode, name: bilingual('Nile', 'النيل'), currencies: ['EGP'] },
      }),
    );
    otherBrandCode = unique('BRO');
    dataOf(
      await callInWorkspace(shops.t, shops.other, 'brands', {
        method: 'POST',
        member: shops.otherAdmin,
        body: { code: otherBrandCode, name: bilingual('Far', 'بعيد'), currencies: ['EGP'] },
      }),
    );
    const rows = Array.from({ length: 30 }, (_, index) => ({
      code: `CI-${String(index).padStart(3, '0')}`,
      name: index % 2 === 0 ? `Mona ${index}` : `منى ${index}`,
      phones: [`+2010${String(index).padStart(8, '0')}`],
      source: index % 3 === 0 ? 'online' : 'walkIn',
      brandId: null as string | null,
    }));
    dataOf(await call('customers/bulk', { method: 'POST', body: rows }));
  });

  describe('an export read back unchanged changes nothing', () => {
    it.each(['csv', 'xlsx'] as const)(
      'customers as %s, in English and Arabic: 0 changes, nothing written but the import’s row',
      async (format) => {
        for (const language of ['en', 'ar']) {
          const file = await download('customers', format, language);
          const before = await snapshot();
          const records = await snapshot(['auditLog']);
          const dry = report(await upload('customers', file, { filename: `customers.${format}` }));
          expect(dry).toMatchObject({ dryRun: true, committed: false, errors: [] });
          expect(dry.counts).toEqual({ create: 0, update: 0, unchanged: dry.rows });
          expect(dry.rows).toBeGreaterThanOrEqual(30);
          expect(await snapshot()).toEqual(before);
          const committed = await upload('customers', file, {
            dryRun: false,
            filename: `customers.${format}`,
          });
          const commit = report(committed);
          expect(commit).toMatchObject({ committed: true, errors: [], counts: { create: 0, update: 0 } });
          // Not a row nor an `updatedAt`; on the audit log, the import's own row and no record's.
          expect(await snapshot(['auditLog'])).toEqual(records);
          expect(
            (await auditRowsOf(committed)).map(({ action, resource, changes }) => ({
              action,
              resource,
              changes,
            })),
          ).toEqual([
            {
              action: 'import',
              resource: 'customers',
              changes: {
                fileName: [null, `customers.${format}`],
                format: [null, format],
                rows: [null, commit.rows],
                created: [null, 0],
                updated: [null, 0],
                unchanged: [null, commit.rows],
              },
            },
          ]);
        }
      },
      120_000,
    );

    it('every importable resource: its own export, both formats, reports 0 changes', async () => {
      await seedTargets(shops.t.db, shops.shop.id);
      // A product of variants: a row each, read back as one product unchanged.
      const catalogue = productCatalogue(shops.t.app, shops.shop, shops.admin);
      const size = await catalogue.variationType('Size', 'المقاس', sizes);
      await catalogue.created({
        options: [{ typeId: size.id, valueIds: size.values }],
        variants: [{ key: size.values[1], price: 1250, cost: 400, sku: unique('SKU') }],
      });
      const importable = testResources.served.filter(isImportable);
      expect(importable.map((data) => data.storage.definition.key)).toEqual(
        expect.arrayContaining([
          'brands',
          'locations',
          'taxes',
          'categories',
          'customers',
          'exchangeRates',
          'products',
        ]),
      );
      expect(importable.map((data) => data.storage.definition.key)).not.toContain('authorityRoles');
      for (const data of importable) {
        const { path, key } = data.storage.definition;
        for (const format of ['csv', 'xlsx'] as const) {
          const dry = report(
            await upload(path, await download(path, format), { filename: `${key}.${format}` }),
          );
          // A record's rows (a product's variants) are one record unchanged.
          const records = ((await call(`${path}?pageSize=1`)).json as { meta: { total: number } }).meta.total;
          expect({ key, format, errors: dry.errors, counts: dry.counts }).toEqual({
            key,
            format,
            errors: [],
            counts: { create: 0, update: 0, unchanged: records },
          });
          expect(dry.rows, key).toBeGreaterThanOrEqual(records);
          expect(records, key).toBeGreaterThan(0);
        }
      }
    }, 240_000);
  });

  it('creates and updates by code: an empty code takes the next one, an empty cell keeps, [clear] clears', async () => {
    const code = unique('CK');
    dataOf(
      await call('customers', {
        method: 'POST',
        body: { code, name: 'Kept', phones: ['+201000000999'], source: 'phone', brandId: null },
      }),
    );
    const header = ['Code', 'Name', 'Phone numbers', 'Source', 'Brand', 'Status'];
    const before = await snapshot();
    const file = csvFile([
      header,
      [code, 'Renamed', null, null, brandCode, null],
      [null, 'New one', "'+201000000777", 'referral', null, 'inactive'],
    ]);
    const dry = report(await upload('customers', file));
    expect(dry).toMatchObject({ errors: [], counts: { create: 1, update: 1, unchanged: 0 } });
    expect(await snapshot()).toEqual(before);
    const commit = report(await upload('customers', file, { dryRun: false }));
    expect(commit).toMatchObject({
      committed: true,
      errors: [],
      counts: { create: 1, update: 1, unchanged: 0 },
    });
    const all = await customers();
    const updated = all.find((customer) => customer.code === code)!;
    expect(updated).toMatchObject({
      name: 'Renamed',
      phones: ['+201000000999'],
      source: 'phone',
      status: 'active',
    });
    expect(updated.brandId).not.toBeNull();
    const created = all.find((customer) => customer.name === 'New one')!;
    expect(created.code).toMatch(/^C/);
    expect(created).toMatchObject({ phones: ['+201000000777'], source: 'referral', status: 'inactive' });

    const cleared = report(
      await upload('customers', csvFile([header, [code, null, null, null, '[clear]', null]]), {
        dryRun: false,
      }),
    );
    expect(cleared).toMatchObject({ committed: true, counts: { update: 1 } });
    expect((await customers()).find((customer) => customer.code === code)).toMatchObject({
      name: 'Renamed',
      brandId: null,
    });
  }, 120_000);

  describe('on the audit log', () => {
    const header = ['Code', 'Name', 'Phone numbers', 'Source', 'Brand', 'Status'];

    it('a dry run sends no audit row to undo; the commit of the same file writes them', async () => {
      const capture = captureStatements(shops.t.database);
      const file = csvFile([
        header,
        [null, 'Unrecorded in a dry run', "'+201000003101", 'online', null, null],
        [null, 'Unrecorded in a dry run', "'+201000003102", 'online', null, null],
      ]);
      capture.step = 'dry run';
      expect(report(await upload('customers', file))).toMatchObject({ errors: [], counts: { create: 2 } });
      capture.step = 'commit';
      expect(report(await upload('customers', file, { dryRun: false }))).toMatchObject({
        committed: true,
        counts: { create: 2 },
      });
      const auditInserts = (step: string) =>
        capture.statements.filter(
          (statement) => statement.step === step && /insert into "audit_log"/i.test(statement.text),
        );
      expect(auditInserts('dry run')).toEqual([]);
      // The two records' rows and the import's.
      expect(auditInserts('commit').length).toBeGreaterThanOrEqual(2);
    });

    it('a commit writes one import row, as its member: the file, its format, rows and counts', async () => {
      const kept = unique('CA');
      const changed = unique('CA');
      dataOf(
        await call('customers/bulk', {
          method: 'POST',
          body: [kept, changed].map((code) => ({
            code,
            name: `Audited ${code}`,
            phones: ['+201000003000'],
            source: 'phone',
            brandId: null,
          })),
        }),
      );
      const committed = await upload(
        'customers',
        csvFile([
          header,
          [kept, `Audited ${kept}`, null, null, null, null],
          [changed, 'Audited, renamed', null, null, null, null],
          [null, 'Audited, new', "'+201000003001", 'online', null, null],
        ]),
        { dryRun: false, filename: 'march customers.csv' },
      );
      expect(report(committed)).toMatchObject({
        committed: true,
        counts: { create: 1, update: 1, unchanged: 1 },
      });
      const written = await auditRowsOf(committed);
      // The records' own rows (the engine's create and update), and one row for the import.
      expect(written.map((row) => row.action).sort()).toEqual(['create', 'import', 'update']);
      const row = written.find((candidate) => candidate.action === 'import')!;
      expect(row).toMatchObject({
        workspaceId: shops.shop.id,
        actorKind: 'member',
        actorUserId: shops.admin.user.id,
        resource: 'customers',
      });
      expect(row.changes).toEqual({
        fileName: [null, 'march customers.csv'],
        format: [null, 'csv'],
        rows: [null, 3],
        created: [null, 1],
        updated: [null, 1],
        unchanged: [null, 1],
      });
      // An import is no stored record: its id is its own.
      expect(written.filter((other) => other.recordId === row.recordId)).toHaveLength(1);

      // The Activity page finds it by its action; another workspace's log does not hold it.
      const imports = dataOf<AuditLogRecord[]>(
        await call('audit-log?action=import&resource=customers&pageSize=100'),
      );
      expect(imports.find((record) => record.id === row.id)).toMatchObject({
        actorName: shops.admin.user.name,
        changes: row.changes,
      });
      const elsewhere = dataOf<AuditLogRecord[]>(
        await callInWorkspace(shops.t, shops.other, 'audit-log?action=import&pageSize=100', {
          member: shops.otherAdmin,
        }),
      );
      expect(elsewhere.map((record) => record.id)).not.toContain(row.id);
    });

    it('an XLSX is recorded as one; a file sent with a folder in its name, by its own name', async () => {
      const workbook = new ExcelJS.Workbook();
      const sheet = workbook.addWorksheet('rates');
      sheet.addRow(['Currency', 'Rate']);
      sheet.addRow(['CHF', 55.5]);
      const committed = await upload('exchange-rates', Buffer.from(await workbook.xlsx.writeBuffer()), {
        dryRun: false,
        filename: 'C:\\fakepath\\rates.xlsx',
      });
      expect(report(committed)).toMatchObject({ committed: true, errors: [] });
      const [row, ...others] = (await auditRowsOf(committed)).filter(
        (candidate) => candidate.action === 'import',
      );
      expect(others).toEqual([]);
      expect(row).toMatchObject({ resource: 'exchangeRates' });
      expect(row!.changes).toMatchObject({ fileName: [null, 'rates.xlsx'], format: [null, 'xlsx'] });
    });

    it('a dry run writes no row, nor a commit refused for a bad row', async () => {
      const file = csvFile([
        header,
        [unique('CD'), 'Fine', "'+201000003002", 'online', null, null],
        [unique('CD'), 'Bad source', "'+201000003003", 'pigeon', null, null],
      ]);
      const before = await snapshot();
      const dry = await upload(
        'customers',
        csvFile([header, [unique('CD'), 'Fine', "'+201000003004", 'online', null, null]]),
      );
      expect(report(dry)).toMatchObject({ dryRun: true, errors: [], counts: { create: 1 } });
      expect(await auditRowsOf(dry)).toEqual([]);
      const refused = await upload('customers', file, { dryRun: false });
      expect(report(refused)).toMatchObject({
        committed: false,
        errors: [expect.objectContaining({ row: 3, code: 'CUSTOMER_SOURCE_IS_INVALID' })],
      });
      // Its first row's create and the import's row went with the transaction.
      expect(await auditRowsOf(refused)).toEqual([]);
      expect(await snapshot()).toEqual(before);
    });
  });

  describe('errors', () => {
    const header = ['Code', 'Name', 'Phone numbers', 'Source', 'Brand', 'Status'];

    it('a dry run and a commit of a file with 200 faulty rows report the same errors, and the commit writes nothing', async () => {
      const rows: (string | null)[][] = [header];
      const expected: { row: number; column?: string; code: string }[] = [];
      for (let index = 0; index < 800; index++) {
        const row = index + 2;
        const code = `CF-${String(index).padStart(4, '0')}`;
        switch (index % 4) {
          case 0:
            rows.push([code, `Fine ${index}`, "'+201000001000", 'online', null, null]);
            break;
          case 1:
            rows.push([code, `Bad source ${index}`, "'+201000001000", 'pigeon', null, null]);
            expected.push({ row, column: 'Source', code: 'CUSTOMER_SOURCE_IS_INVALID' });
            break;
          case 2:
            rows.push([code, `Far brand ${index}`, "'+201000001000", null, otherBrandCode, null]);
            expected.push({ row, column: 'Brand', code: 'IMPORT_CODE_NOT_FOUND' });
            break;
          default:
            rows.push([
              `CF-${String(index - 3).padStart(4, '0')}`,
              `Repeated ${index}`,
              "'+201000001000",
              null,
              null,
              null,
            ]);
            expected.push({ row, column: 'Code', code: 'IMPORT_ROW_REPEATED' });
        }
      }
      const file = csvFile(rows);
      const before = await snapshot();
      const dry = report(await upload('customers', file));
      const commit = report(await upload('customers', file, { dryRun: false }));
      expect(dry.errors).toHaveLength(600);
      expect(dry.errors.map(({ row, column, code }) => ({ row, column, code }))).toEqual(expected);
      expect(commit.errors).toEqual(dry.errors);
      expect(commit.committed).toBe(false);
      expect(dry.counts).toEqual({ create: 200, update: 0, unchanged: 0 });
      expect(await snapshot()).toEqual(before);
    }, 240_000);

    it('a failure at the last row — a hook refusing it while writing — leaves nothing changed', async () => {
      // Rates are against the base currency (EGP), which cannot have one: the feature's hook
      // refuses it as the row is written, after every row before it was.
      const before = await snapshot();
      const file = csvFile([
        ['Currency', 'Rate'],
        ['USD', '48.5'],
        ['EUR', '52.25'],
        ['GBP', '61'],
        ['EGP', '1'],
      ]);
      const commit = report(await upload('exchange-rates', file, { dryRun: false }));
      expect(commit.committed).toBe(false);
      expect(commit.errors).toEqual([expect.objectContaining({ row: 5, column: 'Currency' })]);
      expect(await snapshot()).toEqual(before);
      const dry = report(await upload('exchange-rates', file));
      expect(dry.errors).toEqual(commit.errors);
    }, 120_000);

    it('creates in chunks: a row the engine refuses in the middle one is named alone; fixed, every row is written', async () => {
      // A disabled brand is refused as a new choice by the engine's write, not by the file's
      // checks: the chunk holding its row is refused whole and written again row by row.
      const disabledCode = unique('BRD');
      const disabled = dataOf<{ id: string }>(
        await call('brands', {
          method: 'POST',
          body: { code: disabledCode, name: bilingual('Old', 'قديم'), currencies: ['EGP'] },
        }),
      );
      expect(
        (await call(`brands/${disabled.id}`, { method: 'PATCH', body: { status: 'inactive' } })).status,
      ).toBe(200);
      const prefix = unique('CH');
      const rows = (brandOfRow700: string | null) => [
        ['Code', 'Name', 'Phone numbers', 'Source', 'Brand', 'Status'],
        ...Array.from({ length: 1_201 }, (_, index) => [
          `${prefix}-${String(index).padStart(4, '0')}`,
          index % 2 === 0 ? `Chunk ${index}` : `دفعة ${index}`,
          `'+2011${String(index).padStart(8, '0')}`,
          null,
          index === 698 ? brandOfRow700 : brandCode,
          index === 1_200 ? 'inactive' : null,
        ]),
      ];
      const before = await snapshot();
      const refused = report(await upload('customers', csvFile(rows(disabledCode)), { dryRun: false }));
      expect(refused.committed).toBe(false);
      expect(refused.errors).toEqual([
        { row: 700, column: 'Brand', code: validationCodes.REFERENCE_IS_DISABLED },
      ]);
      expect(await snapshot()).toEqual(before);
      const dry = report(await upload('customers', csvFile(rows(disabledCode))));
      expect(dry.errors).toEqual(refused.errors);

      const committed = await upload('customers', csvFile(rows(null)), { dryRun: false });
      expect(report(committed)).toMatchObject({
        committed: true,
        errors: [],
        counts: { create: 1_201, update: 0, unchanged: 0 },
      });
      const written = await shops.t.db
        .select({ code: customersTable.code, status: customersTable.status })
        .from(customersTable)
        .where(like(customersTable.code, `${prefix}-%`));
      expect(written).toHaveLength(1_201);
      expect(written.filter((row) => row.status === 'inactive').map((row) => row.code)).toEqual([
        `${prefix}-1200`,
      ]);
      // One audit row per record created (and the last one's status), and the import's own.
      const audit = await auditRowsOf(committed);
      expect(audit.filter((row) => row.action === 'create')).toHaveLength(1_201);
      expect(audit.filter((row) => row.action === 'import')).toHaveLength(1);
      // The other tests read the first 100 customers by code: these go again.
      await shops.t.db.delete(customersTable).where(like(customersTable.code, `${prefix}-%`));
    }, 240_000);

    it('reads the file a window of rows at a time: a code repeated a thousand rows later is still named', async () => {
      // Rows are read, looked up and written 1,000 at a time (decision 0049): the first row of
      // each key is kept across windows, so the repeat in the second window is the same error.
      const prefix = unique('WN');
      const rows = [
        ['Code', 'Name', 'Phone numbers'],
        ...Array.from({ length: 1_100 }, (_, index) => [
          `${prefix}-${String(index === 1_099 ? 0 : index).padStart(4, '0')}`,
          `Window ${index}`,
          `'+2012${String(index).padStart(8, '0')}`,
        ]),
      ];
      const before = await snapshot();
      const dry = report(await upload('customers', csvFile(rows)));
      expect(dry.errors).toEqual([
        {
          row: 1_101,
          column: 'Code',
          code: validationCodes.IMPORT_ROW_REPEATED,
          params: { row: 2 },
        },
      ]);
      expect(dry.rows).toBe(1_100);
      expect(dry.counts.create).toBe(1_099);
      const refused = report(await upload('customers', csvFile(rows), { dryRun: false }));
      expect(refused.errors).toEqual(dry.errors);
      expect(refused.committed).toBe(false);
      expect(await snapshot()).toEqual(before);
    }, 240_000);

    it('a code of another workspace is a new record here; its record there is untouched', async () => {
      const theirs = unique('CO');
      dataOf(
        await callInWorkspace(shops.t, shops.other, 'customers', {
          method: 'POST',
          member: shops.otherAdmin,
          body: { code: theirs, name: 'Theirs', phones: ['+201000002000'], source: 'phone', brandId: null },
        }),
      );
      const otherBefore = await workspaceSnapshot(shops.t.db, shops.other.id);
      const commit = report(
        await upload('customers', csvFile([header, [theirs, 'Mine', "'+201000002001", null, null, null]]), {
          dryRun: false,
        }),
      );
      expect(commit).toMatchObject({ committed: true, counts: { create: 1, update: 0 } });
      expect(await workspaceSnapshot(shops.t.db, shops.other.id)).toEqual(otherBefore);
    });

    it('unknown and repeated headers are named; a cell its column cannot read is the cell’s error', async () => {
      const unknown = report(
        await upload(
          'customers',
          csvFile([
            ['Code', 'Shoe size'],
            ['X', '42'],
          ]),
        ),
      );
      expect(unknown.errors).toEqual([
        { row: 1, column: 'Shoe size', code: 'IMPORT_COLUMN_UNKNOWN', params: { header: 'Shoe size' } },
      ]);
      const repeated = report(
        await upload(
          'customers',
          csvFile([
            ['Code', 'الرمز'],
            ['X', 'Y'],
          ]),
        ),
      );
      expect(repeated.errors).toEqual([
        { row: 1, column: 'الرمز', code: 'IMPORT_COLUMN_REPEATED', params: { header: 'الرمز' } },
      ]);
      const cell = report(
        await upload(
          'exchange-rates',
          csvFile([
            ['Currency', 'Rate'],
            ['JPY', 'a lot'],
          ]),
        ),
      );
      expect(cell.errors).toEqual([{ row: 2, column: 'Rate', code: 'IMPORT_CELL_INVALID' }]);
    });
  });

  describe('files', () => {
    it('reads an XLSX by its typed cells, a formula by its cached value, Arabic headers', async () => {
      const workbook = new ExcelJS.Workbook();
      const sheet = workbook.addWorksheet('rates');
      sheet.addRow(['العملة', 'السعر']);
      sheet.addRow(['SAR', { formula: '26/2', result: 13 }]);
      sheet.addRow(['AED', 13.5]);
      const file = Buffer.from(await workbook.xlsx.writeBuffer());
      const commit = report(await upload('exchange-rates', file, { dryRun: false, filename: 'rates.xlsx' }));
      expect(commit).toMatchObject({ committed: true, errors: [] });
      // A rate the workspace had (the seeded one) is updated rather than created.
      expect(commit.counts.create + commit.counts.update).toBe(2);
      const rates = dataOf<{ currency: string; rate: number }[]>(await call('exchange-rates?search=A'));
      expect(rates.find((rate) => rate.currency === 'SAR')?.rate).toBe(13);
      expect(rates.find((rate) => rate.currency === 'AED')?.rate).toBe(13.5);
    });

    it('reads a CSV in UTF-8 without a byte-order mark, and in Windows-1256', async () => {
      const plain = Buffer.from(`Code,Name,Phone numbers\r\n${unique('CU')},سارة,'+201000003000\r\n`, 'utf8');
      expect(report(await upload('customers', plain))).toMatchObject({ errors: [], counts: { create: 1 } });

      // Windows-1256 as older Arabic Excel saves it: each character's byte in that code page.
      const decoder = new TextDecoder('windows-1256');
      const byteOf = new Map<string, number>();
      for (let byte = 0; byte < 256; byte++) byteOf.set(decoder.decode(Uint8Array.of(byte)), byte);
      const code = unique('CW');
      const text = `الرمز,الاسم,أرقام الهاتف\r\n${code},ليلى,'+201000003001\r\n`;
      const file = Buffer.from([...text].map((char) => byteOf.get(char)!));
      expect(file.includes(Buffer.from('ليلى', 'utf8'))).toBe(false);
      const commit = report(await upload('customers', file, { dryRun: false }));
      expect(commit).toMatchObject({ committed: true, errors: [], counts: { create: 1 } });
      expect((await customers()).find((customer) => customer.code === code)?.name).toBe('ليلى');
    });

    it('refuses a file in another encoding with a message saying so', async () => {
      const utf16 = Buffer.from('\uFEFFCode,Name\r\nX,Y\r\n', 'utf16le');
      const response = await upload('customers', utf16);
      expect(response.status).toBe(400);
      expect(errorOf(response).issues).toEqual([{ path: 'file', message: 'IMPORT_ENCODING_UNKNOWN' }]);
    });

    it('refuses more rows than an import takes before reading their cells', async () => {
      const file = Buffer.from(`Code\r\n${'X\r\n'.repeat(importLimits.maxRows + 1)}`);
      const response = await upload('customers', file);
      expect(errorOf(response).issues).toEqual([
        { path: 'file', message: 'IMPORT_TOO_MANY_ROWS', params: { max: importLimits.maxRows } },
      ]);
      // The limit itself is taken.
      const most = Buffer.from(`Currency\r\n${'USD\r\n'.repeat(importLimits.maxRows)}`);
      expect((await upload('exchange-rates', most)).status).toBe(200);
    }, 120_000);

    it('refuses a file over 50 MB, and a workbook over 200 MB once unzipped', async () => {
      const large = Buffer.alloc(importLimits.maxBytes + 1, 'a');
      const response = await upload('customers', large);
      expect(response.status).toBe(400);
      expect(errorOf(response).issues).toEqual([
        { path: 'file', message: 'IMPORT_FILE_TOO_LARGE', params: { max: 50 } },
      ]);

      const workbook = new ExcelJS.Workbook();
      workbook.addWorksheet('rates').addRow(['Currency', 'Rate']);
      const file = Buffer.from(await workbook.xlsx.writeBuffer());
      // A zip whose directory says one entry inflates to 250 MB (a zip bomb's shape).
      const directory = file.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
      file.writeUInt32LE(250 * 1024 * 1024, directory + 24);
      const bomb = await upload('customers', file, { filename: 'bomb.xlsx' });
      expect(errorOf(bomb).issues).toEqual([
        { path: 'file', message: 'IMPORT_UNZIPPED_TOO_LARGE', params: { max: 200 } },
      ]);
    }, 120_000);
  });

  describe('who may import', () => {
    const header = ['Code', 'Name', 'Phone numbers'];
    let adder: TestMember;
    let editor: TestMember;
    let viewer: TestMember;
    beforeAll(async () => {
      const definition = testResources.data('customers').storage.definition;
      const [view, add, edit] = [
        tagFor(definition, 'list'),
        tagFor(definition, 'create'),
        tagFor(definition, 'update'),
      ];
      adder = await addMember(shops.t.db, shops.shop.id, { tags: [view, add] });
      editor = await addMember(shops.t.db, shops.shop.id, { tags: [view, edit] });
      viewer = await addMember(shops.t.db, shops.shop.id, { tags: [view] });
    });

    it('a row that creates needs add, a row that changes needs edit: the file is refused naming the rows', async () => {
      const existing = (await customers())[0]!;
      const file = csvFile([
        header,
        [existing.code, `${existing.name} changed`, null],
        [unique('CP'), 'Added', "'+201000004000"],
        [existing.code.replace(/\d+$/, '999'), 'Added too', "'+201000004001"],
      ]);
      // A member's first call stamps their session: taken before the snapshot.
      for (const member of [adder, editor]) await call('customers', { member });
      const before = await snapshot();
      const byAdder = await upload('customers', file, { member: adder, dryRun: false });
      expect(byAdder.status).toBe(403);
      expect(errorOf(byAdder).issues).toEqual([
        { path: 'file', message: 'IMPORT_UPDATE_NOT_ALLOWED', params: { rows: '2', count: 1 } },
      ]);
      const byEditor = await upload('customers', file, { member: editor });
      expect(byEditor.status).toBe(403);
      expect(errorOf(byEditor).issues).toEqual([
        { path: 'file', message: 'IMPORT_CREATE_NOT_ALLOWED', params: { rows: '3, 4', count: 2 } },
      ]);
      expect(await snapshot()).toEqual(before);
      // A row that changes nothing needs neither: the adder may re-import the list as it is.
      const unchanged = report(
        await upload('customers', await download('customers', 'csv'), { member: adder }),
      );
      expect(unchanged.errors).toEqual([]);
    });

    it('refuses a member without add or edit, and a signed-out caller', async () => {
      const file = csvFile([header, [unique('CP'), 'Nobody', "'+201000004002"]]);
      const forbidden = await upload('customers', file, { member: viewer });
      expect(forbidden.status).toBe(403);
      expect(errorOf(forbidden).code).toBe('FORBIDDEN');
      const signedOut = await upload('customers', file, { member: null as unknown as TestMember });
      expect(signedOut.status).toBe(401);
      const elsewhere = await upload('customers', file, { workspaceId: shops.other.id });
      expect(elsewhere.status).toBe(403);
    });
  });

  it('gives a template per resource: the headers in the reader’s language, the XLSX with how to fill it', async () => {
    const template = await shops.t.app.inject({
      method: 'GET',
      url: `/api/customers/import-template?workspaceId=${shops.shop.id}&format=csv`,
      headers: { cookie: shops.admin.cookie, 'accept-language': 'en' },
    });
    expect(template.statusCode).toBe(200);
    expect(template.body).toBe('\uFEFFCode,Name,Phone numbers,Source,Brand,Status\r\n');
    const arabic = await shops.t.app.inject({
      method: 'GET',
      url: `/api/brands/import-template?workspaceId=${shops.shop.id}&format=xlsx`,
      headers: { cookie: shops.admin.cookie, 'accept-language': 'ar' },
    });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(arabic.rawPayload as unknown as ArrayBuffer);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(['brands', 'طريقة التعبئة']);
    expect(workbook.worksheets[0]!.getRow(1).getCell(1).value).toBe('الرمز');
    expect(String(workbook.worksheets[1]!.getRow(3).getCell(1).value)).toContain('[مسح]');
    // The template, filled in, is a file the import reads.
    const empty = report(await upload('customers', template.rawPayload));
    expect(empty.errors).toEqual([{ row: 2, code: 'IMPORT_FILE_EMPTY' }]);
  });
});
