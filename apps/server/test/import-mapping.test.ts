import {
  type CustomerRecord,
  type ImportPreview,
  type ImportReport,
  importMappingCodes,
  tagFor,
} from '@dukkan/contract';
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { importMappings } from '../src/db/schema/index.ts';
import { rememberImportMapping } from '../src/resource-engine/import-mapping-store.ts';
import { dataOf, errorOf, multipart } from './helpers/api.ts';
import { csvFile, settledImport } from './helpers/import-jobs.ts';
import { productCatalogue, type TestVariationType } from './helpers/product-catalogue.ts';
import { testResources } from './helpers/route-scenarios.ts';
import { callInWorkspace, type TwoShops, useTwoShops } from './helpers/shops.ts';
import {
  addMember,
  createWorkspace,
  type TestMember,
  unique,
  workspaceSnapshot,
} from './helpers/workspaces.ts';

/*
 * The preview of an import's file and its column mapping (issue 37, decision 0046):
 * `POST {resource}/import/preview` answers the headers, the first 20 rows and the mapping the
 * headers' names propose; the member's mapping goes with the dry run and the commit as the
 * multipart's `mapping` field, is refused before anything is stored when it does not hold, and
 * is what the import reads the columns by. The workspace remembers the columns of a check or an
 * import with a mapping, per list, and the preview proposes them for the headers a new file shares.
 */

describe('import preview and column mapping', () => {
  let shops: TwoShops;
  useTwoShops('Import mapping', (given) => {
    shops = given;
  });

  const call = (path: string, options: Parameters<typeof callInWorkspace>[3] = {}) =>
    callInWorkspace(shops.t, shops.shop, path, { member: shops.admin, ...options });

  interface Send {
    mapping?: unknown;
    member?: TestMember | null;
    language?: string;
    workspaceId?: string;
    filename?: string;
  }

  function body(file: Buffer, { mapping, filename = 'rows.csv' }: Send) {
    return multipart([
      ...(mapping === undefined
        ? []
        : [{ field: 'mapping', value: typeof mapping === 'string' ? mapping : JSON.stringify(mapping) }]),
      { field: 'file', filename, type: 'application/octet-stream', content: file },
    ]);
  }

  async function preview(path: string, file: Buffer, options: Send = {}) {
    const { member = shops.admin, language = 'en', workspaceId = shops.shop.id } = options;
    const { body: payload, headers } = body(file, options);
    const response = await shops.t.app.inject({
      method: 'POST',
      url: `/api/${path}/import/preview?workspaceId=${workspaceId}`,
      headers: { ...headers, ...(member ? { cookie: member.cookie } : {}), 'accept-language': language },
      payload,
    });
    return answer(response);
  }

  async function upload(path: string, file: Buffer, options: Send & { dryRun?: boolean } = {}) {
    const { member = shops.admin, language = 'en', workspaceId = shops.shop.id, dryRun = true } = options;
    const { body: payload, headers } = body(file, options);
    const url = `/api/${path}/import?workspaceId=${workspaceId}&dryRun=${dryRun}`;
    const response = await settledImport(
      shops.t.app,
      url,
      member?.cookie ?? '',
      await shops.t.app.inject({
        method: 'POST',
        url,
        headers: { ...headers, ...(member ? { cookie: member.cookie } : {}), 'accept-language': language },
        payload,
      }),
    );
    return answer(response);
  }

  function answer(response: { statusCode: number; body: string; headers: Record<string, unknown> }) {
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
      headers: response.headers as Record<string, string>,
      setCookies: [],
    };
  }

  const dataOk = <T>(response: { status: number; json: unknown; text: string }) => {
    expect(response.status, response.text).toBe(200);
    return (response.json as { data: T }).data;
  };

  const snapshot = () => workspaceSnapshot(shops.t.db, shops.shop.id);

  async function customerByCode(code: string): Promise<CustomerRecord | undefined> {
    return dataOf<CustomerRecord[]>(
      await call(`customers?search=${encodeURIComponent(code)}&pageSize=10`),
    ).find((customer) => customer.code === code);
  }

  /** A customers file under headers the export does not write: 25 rows. */
  const renamed = (prefix: string) =>
    csvFile([
      ['Ref', 'Client', 'Mobile', 'Notes'],
      ...Array.from({ length: 25 }, (_, index) => [
        `${prefix}-${String(index).padStart(2, '0')}`,
        `Client ${index}`,
        `'+2011${String(index).padStart(8, '0')}`,
        'not for the list',
      ]),
    ]);
  const renamedMapping = { Ref: 'code', Client: 'name', Mobile: 'phones', Notes: null };

  describe('the preview', () => {
    it('answers the headers, the first 20 rows and the mapping the names propose, in the reader’s language', async () => {
      const prefix = unique('PV');
      const file = csvFile([
        ['Code', 'Name', 'Notes'],
        ...Array.from({ length: 30 }, (_, index) => [`${prefix}-${index}`, `Row, "${index}"`, null]),
      ]);
      // A member's first call stamps their session: taken before the snapshot.
      await call('customers');
      const before = await snapshot();
      const english = dataOk<ImportPreview>(await preview('customers', file, { filename: 'list.csv' }));
      expect(english).toMatchObject({
        fileName: 'list.csv',
        format: 'csv',
        headers: ['Code', 'Name', 'Notes'],
      });
      expect(english.rows).toHaveLength(20);
      expect(english.rows[0]).toEqual([`${prefix}-0`, 'Row, "0"', null]);
      expect(english.rows[19]).toEqual([`${prefix}-19`, 'Row, "19"', null]);
      expect(english.mapping).toEqual({ Code: 'code', Name: 'name', Notes: null });
      expect(english.targets).toEqual(
        expect.arrayContaining([
          { key: 'code', label: 'Code', required: false },
          { key: 'name', label: 'Name', required: true },
        ]),
      );
      // Nothing is stored: no job, no file, no row.
      expect(await snapshot()).toEqual(before);

      const arabic = dataOk<ImportPreview>(await preview('customers', file, { language: 'ar' }));
      expect(arabic.mapping).toEqual(english.mapping);
      expect(arabic.targets.find((target) => target.key === 'code')?.label).toMatch(/[\u0600-\u06FF]/);
    });

    it('reads an XLSX export’s first rows, and maps every one of its columns', async () => {
      const rows = Array.from({ length: 24 }, (_, index) => ({
        code: unique('PX'),
        name: `Excel ${index}`,
        phones: [`+2012${String(index).padStart(8, '0')}`],
      }));
      dataOf(await call('customers/bulk', { method: 'POST', body: rows }));
      const exported = await shops.t.app.inject({
        method: 'GET',
        url: `/api/customers/export?workspaceId=${shops.shop.id}&format=xlsx`,
        headers: { cookie: shops.admin.cookie, 'accept-language': 'ar' },
      });
      expect(exported.statusCode).toBe(200);
      const read = dataOk<ImportPreview>(
        await preview('customers', exported.rawPayload, { filename: 'customers.xlsx' }),
      );
      expect(read.format).toBe('xlsx');
      expect(read.rows).toHaveLength(20);
      expect(read.rows.every((cells) => cells.length === read.headers.length)).toBe(true);
      // Arabic headers, as the export wrote them, each matched (a computed column as not imported).
      expect(Object.keys(read.mapping)).toEqual(read.headers.filter((header) => header !== ''));
      expect(Object.values(read.mapping)).toContain('code');
      expect(Object.values(read.mapping).filter((key) => key !== null)).toHaveLength(
        new Set(Object.values(read.mapping).filter((key) => key !== null)).size,
      );
    });

    it('refuses an empty file and one over the size limit, as the import does', async () => {
      const empty = await preview('customers', Buffer.alloc(0));
      expect(errorOf(empty).issues).toEqual([{ path: 'file', message: 'IMPORT_FILE_EMPTY' }]);
      const big = Buffer.alloc(50 * 1024 * 1024 + 10, 'a');
      const tooLarge = await preview('customers', big);
      expect(errorOf(tooLarge).issues).toEqual([
        { path: 'file', message: 'IMPORT_FILE_TOO_LARGE', params: { max: 50 } },
      ]);
    }, 60_000);
  });

  describe('a mapped import', () => {
    it('imports renamed columns by the mapping, which the names alone refuse', async () => {
      const prefix = unique('MP');
      const file = renamed(prefix);
      const unmapped = dataOk<ImportReport>(await upload('customers', file));
      expect(unmapped.errors.map((error) => error.code)).toEqual(
        expect.arrayContaining(['IMPORT_COLUMN_UNKNOWN']),
      );

      const dry = dataOk<ImportReport>(await upload('customers', file, { mapping: renamedMapping }));
      expect(dry).toMatchObject({ dryRun: true, errors: [], counts: { create: 25, update: 0 } });
      const commit = dataOk<ImportReport>(
        await upload('customers', file, { mapping: renamedMapping, dryRun: false }),
      );
      expect(commit).toMatchObject({ committed: true, errors: [], counts: { create: 25 } });
      expect(await customerByCode(`${prefix}-07`)).toMatchObject({
        name: 'Client 7',
        phones: ['+201100000007'],
      });
      // The mapping's errors name the file's own header.
      const wrong = csvFile([
        ['Ref', 'Client', 'Mobile', 'Notes'],
        [`${prefix}-00`, 'Client 0', 'not a phone', null],
      ]);
      const refused = dataOk<ImportReport>(await upload('customers', wrong, { mapping: renamedMapping }));
      expect(refused.errors).toEqual([expect.objectContaining({ row: 2, column: 'Mobile' })]);
    });

    it('a header the mapping does not name is matched by its name; a header mapped to none is not read', async () => {
      const prefix = unique('MN');
      const file = csvFile([
        ['Code', 'Client', 'Phone numbers', 'Name'],
        [`${prefix}-1`, 'Mapped name', "'+201300000001", 'Ignored name'],
      ]);
      const commit = dataOk<ImportReport>(
        await upload('customers', file, { mapping: { Client: 'name', Name: null }, dryRun: false }),
      );
      expect(commit).toMatchObject({ committed: true, errors: [], counts: { create: 1 } });
      expect(await customerByCode(`${prefix}-1`)).toMatchObject({ name: 'Mapped name' });
    });

    it('refuses a mapping that does not hold, translated codes, before anything is stored', async () => {
      const file = renamed(unique('MX'));
      // A member's first call stamps their session: taken before the snapshot.
      await call('customers');
      const before = await snapshot();
      const cases: [unknown, unknown[]][] = [
        [
          { ...renamedMapping, Notes: 'fax' },
          [
            {
              path: 'mapping',
              message: importMappingCodes.IMPORT_MAPPING_UNKNOWN_COLUMN,
              params: { header: 'Notes' },
            },
          ],
        ],
        [
          { ...renamedMapping, Notes: 'name' },
          [
            {
              path: 'mapping',
              message: importMappingCodes.IMPORT_MAPPING_COLUMN_TWICE,
              params: { column: 'Name' },
            },
          ],
        ],
        [
          { Ref: null, Client: null, Mobile: 'phones', Notes: null },
          [
            {
              path: 'mapping',
              message: importMappingCodes.IMPORT_MAPPING_COLUMN_REQUIRED,
              params: { column: 'Name' },
            },
          ],
        ],
        ['{"Ref":', [{ path: 'mapping', message: importMappingCodes.IMPORT_MAPPING_INVALID }]],
        [{ Ref: 7 }, [{ path: 'mapping', message: importMappingCodes.IMPORT_MAPPING_INVALID }]],
      ];
      for (const [mapping, issues] of cases) {
        for (const dryRun of [true, false]) {
          const refused = await upload('customers', file, { mapping, dryRun });
          expect(refused.status, JSON.stringify(mapping)).toBe(400);
          expect(errorOf(refused).issues).toEqual(issues);
        }
      }
      // Column names in the reader's language.
      const arabic = await upload('customers', file, {
        mapping: { ...renamedMapping, Notes: 'name' },
        language: 'ar',
      });
      expect(errorOf(arabic).issues?.[0]?.params?.column).toMatch(/[\u0600-\u06FF]/);
      expect(await snapshot()).toEqual(before);
    });

    it('keeps a product’s variation types mappable: a renamed type column fills its type', async () => {
      const catalogue = productCatalogue(shops.t.app, shops.shop, shops.admin);
      const size: TestVariationType = await catalogue.variationType('Mug size', 'حجم الكوب', [
        ['Small', 'صغير'],
        ['Large', 'كبير'],
      ]);
      const unitId = await catalogue.unit();
      const unitCode = dataOf<{ code: string }>(await call(`measurement-units/${unitId}`)).code;
      const code = unique('PM');
      const file = csvFile([
        ['Code', 'Name (English)', 'Unit of measurement', 'Size of mug', 'Selling price'],
        [code, 'Mug', unitCode, 'Small', '20.00'],
        [code, null, null, 'Large', '25.00'],
      ]);
      const shown = dataOk<ImportPreview>(await preview('products', file));
      const typeKey = `expansion.type:${size.id}`;
      expect(shown.targets).toEqual(
        expect.arrayContaining([
          { key: typeKey, label: 'Mug size', required: false },
          { key: 'expansion.price', label: 'Price', required: false },
        ]),
      );
      expect(shown.mapping).toMatchObject({ 'Size of mug': null, 'Selling price': null, Code: 'code' });
      const mapping = { ...shown.mapping, 'Size of mug': typeKey, 'Selling price': 'expansion.price' };
      const commit = dataOk<ImportReport>(await upload('products', file, { mapping, dryRun: false }));
      expect(commit).toMatchObject({ committed: true, errors: [], counts: { create: 1 } });
      const [found] = dataOf<{ id: string; code: string }[]>(
        await call(`products?search=${encodeURIComponent(code)}`),
      ).filter((product) => product.code === code);
      const product = await catalogue.get(found!.id);
      expect(product.options).toEqual([{ typeId: size.id, valueIds: size.values }]);
      expect(product.variants!.map((variant) => variant.price).sort()).toEqual([2000, 2500]);
      // A value the type lacks names the file's own header.
      const wrong = csvFile([
        ['Code', 'Size of mug', 'Selling price'],
        [code, 'Giant', '30.00'],
      ]);
      const refused = dataOk<ImportReport>(await upload('products', wrong, { mapping }));
      expect(refused.errors).toEqual([
        expect.objectContaining({ row: 2, column: 'Size of mug', code: 'IMPORT_VALUE_NOT_FOUND' }),
      ]);
    });
  });

  describe('who may preview and import with a mapping', () => {
    let viewer: TestMember;
    beforeAll(async () => {
      const definition = testResources.data('customers').storage.definition;
      viewer = await addMember(shops.t.db, shops.shop.id, { tags: [tagFor(definition, 'list')] });
    });

    it('refuses a signed-out caller, a member without add or edit, and another workspace', async () => {
      const file = renamed(unique('MW'));
      for (const send of [
        (options: Send) => preview('customers', file, options),
        (options: Send) => upload('customers', file, { ...options, mapping: renamedMapping }),
      ]) {
        expect((await send({ member: null })).status).toBe(401);
        const forbidden = await send({ member: viewer });
        expect(forbidden.status).toBe(403);
        expect(errorOf(forbidden).code).toBe('FORBIDDEN');
        expect((await send({ workspaceId: shops.other.id })).status).toBe(403);
      }
    });
  });

  describe('the mapping the workspace remembers', () => {
    let viewer: TestMember;
    beforeAll(async () => {
      const definition = testResources.data('customers').storage.definition;
      viewer = await addMember(shops.t.db, shops.shop.id, { tags: [tagFor(definition, 'list')] });
    });

    /** A customers file under headers no other test of this file uses, with one row. */
    const file = (headers: string[], prefix = unique('RM')) =>
      csvFile([headers, headers.map((header, index) => (index === 0 ? `${prefix}-1` : `${header} 1`))]);
    const remembered = async (workspaceId = shops.shop.id) =>
      (
        await shops.t.db
          .select()
          .from(importMappings)
          .where(and(eq(importMappings.workspaceId, workspaceId), eq(importMappings.resource, 'customers')))
      )[0];

    it('remembers a check’s columns and proposes them for the headers the next file shares', async () => {
      const first = file(['Account ref', 'Full name', 'Memo one']);
      const unknown = dataOk<ImportPreview>(await preview('customers', first));
      expect(unknown.mapping).toEqual({ 'Account ref': null, 'Full name': null, 'Memo one': null });
      expect(unknown.remembered).toEqual([]);

      const mapping = { 'Account ref': 'code', 'Full name': 'name', 'Memo one': null };
      dataOk<ImportReport>(await upload('customers', first, { mapping }));
      expect(await remembered()).toMatchObject({
        mapping: expect.objectContaining(mapping),
        updatedBy: shops.admin.user.id,
      });

      // Another file: the shared headers take the remembered columns, the rest their names'.
      const next = dataOk<ImportPreview>(
        await preview('customers', file(['Full name', 'Phone numbers', 'Account ref', 'Other'])),
      );
      expect(next.mapping).toEqual({
        'Full name': 'name',
        'Phone numbers': 'phones',
        'Account ref': 'code',
        Other: null,
      });
      expect(next.remembered.sort()).toEqual(['Account ref', 'Full name']);

      // A commit with another file's mapping adds its headers and keeps the first file's.
      const second = file(['Account ref', 'Client label']);
      dataOk<ImportReport>(
        await upload('customers', second, {
          mapping: { 'Account ref': 'code', 'Client label': 'name' },
          dryRun: false,
        }),
      );
      const both = dataOk<ImportPreview>(
        await preview('customers', file(['Account ref', 'Full name', 'Client label'])),
      );
      // Both remembered for one column: the first header takes it, the member picks.
      expect(both.mapping).toEqual({ 'Account ref': 'code', 'Full name': 'name', 'Client label': null });
      expect((await remembered())!.mapping).toMatchObject({ 'Client label': 'name', 'Memo one': null });
    });

    it('does not remember a mapping the check refuses, nor one a refused caller sends', async () => {
      const headers = ['Refused ref', 'Refused name'];
      const mapping = { 'Refused ref': 'code', 'Refused name': 'name' };
      const refused = await upload('customers', file(headers), {
        mapping: { ...mapping, 'Refused name': 'fax' },
      });
      expect(refused.status).toBe(400);
      expect(errorOf(refused).issues?.[0]).toMatchObject({
        message: importMappingCodes.IMPORT_MAPPING_UNKNOWN_COLUMN,
      });
      expect((await upload('customers', file(headers), { mapping, member: null })).status).toBe(401);
      expect((await upload('customers', file(headers), { mapping, member: viewer })).status).toBe(403);
      expect(
        (await upload('customers', file(headers), { mapping, workspaceId: shops.other.id })).status,
      ).toBe(403);
      const before = dataOk<ImportPreview>(await preview('customers', file(headers)));
      expect(before.mapping).toEqual({ 'Refused ref': null, 'Refused name': null });
      for (const workspaceId of [shops.shop.id, shops.other.id])
        expect(Object.keys((await remembered(workspaceId))?.mapping ?? {})).not.toContain('Refused ref');

      // The same mapping from a member who may import is remembered.
      dataOk<ImportReport>(await upload('customers', file(headers), { mapping }));
      expect(dataOk<ImportPreview>(await preview('customers', file(headers))).mapping).toEqual(mapping);
    });

    it('never shows one workspace’s mapping to another, nor to a caller who may not import', async () => {
      const headers = ['Private ref', 'Private name'];
      const mapping = { 'Private ref': 'code', 'Private name': 'name' };
      dataOk<ImportReport>(await upload('customers', file(headers), { mapping }));
      expect(dataOk<ImportPreview>(await preview('customers', file(headers))).mapping).toEqual(mapping);

      const elsewhere = dataOk<ImportPreview>(
        await preview('customers', file(headers), { member: shops.otherAdmin, workspaceId: shops.other.id }),
      );
      expect(elsewhere.mapping).toEqual({ 'Private ref': null, 'Private name': null });
      expect(elsewhere.remembered).toEqual([]);
      expect((await remembered(shops.other.id))?.mapping ?? {}).not.toHaveProperty('Private ref');
      // The shop's id asked by another workspace's admin, a viewer, or no one: refused.
      expect((await preview('customers', file(headers), { member: shops.otherAdmin })).status).toBe(403);
      expect((await preview('customers', file(headers), { member: viewer })).status).toBe(403);
      expect((await preview('customers', file(headers), { member: null })).status).toBe(401);
    });

    const save = (resource: string, mapping: Record<string, string | null>) =>
      rememberImportMapping(shops.t.db, {
        workspaceId: shops.shop.id,
        resource,
        mapping,
        userId: shops.admin.user.id,
        now: new Date(),
      });
    const stored = async (resource: string) =>
      (
        await shops.t.db
          .select({ mapping: importMappings.mapping })
          .from(importMappings)
          .where(and(eq(importMappings.workspaceId, shops.shop.id), eq(importMappings.resource, resource)))
      )[0]?.mapping;

    it('keeps the new file’s headers only, once the merge would pass 500 headers', async () => {
      const headers = (prefix: string, count: number) =>
        Object.fromEntries(Array.from({ length: count }, (_, index) => [`${prefix} ${index}`, null]));
      await save('taxes', headers('Old', 400));
      await save('taxes', headers('Also', 100));
      expect(Object.keys((await stored('taxes'))!)).toHaveLength(500);
      await save('taxes', headers('New', 2));
      expect(await stored('taxes')).toEqual(headers('New', 2));
    });

    it.runIf(process.env.DATABASE_URL)(
      'two saves at once keep both files’ headers (PostgreSQL only)',
      async () => {
        await Promise.all([
          save('brands', { 'First ref': 'code' }),
          save('brands', { 'Second name': 'name.en' }),
        ]);
        expect(await stored('brands')).toEqual({ 'First ref': 'code', 'Second name': 'name.en' });
      },
    );

    it('goes with its workspace', async () => {
      const gone = await createWorkspace(shops.t.db, unique('Gone'));
      const owner = await addMember(shops.t.db, gone.id, { isAdmin: true });
      dataOk<ImportReport>(
        await upload('customers', file(['Gone ref', 'Gone name']), {
          mapping: { 'Gone ref': 'code', 'Gone name': 'name' },
          member: owner,
          workspaceId: gone.id,
        }),
      );
      expect(await remembered(gone.id)).toBeDefined();
      await shops.t.db.execute(sql`delete from workspaces where id = ${gone.id}`);
      expect(await remembered(gone.id)).toBeUndefined();
    });
  });
});
