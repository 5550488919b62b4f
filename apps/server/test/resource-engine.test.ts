import { listQuerySchema, maxBulkRows, maxPageSize, validationCodes } from '@dukkan/contract';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { timeOfId } from '../src/db/ids.ts';
import { auditLog } from '../src/db/schema/index.ts';
import { sequenceCode } from '../src/resource-engine/code-sequence.ts';
import { systemCaller } from '../src/resource-engine/storage.ts';
import { api, dataOf, errorOf, expectValidation } from './helpers/api.ts';
import {
  createSample,
  isCreatable,
  madeByEngine,
  type RouteTargets,
  sampleOf,
  seedTargets,
  testResources,
} from './helpers/route-scenarios.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { addMember, createWorkspace, type TestMember, unique } from './helpers/workspaces.ts';

/**
 * The engine, once over every registered resource: CRUD, bulk all-or-nothing, page bounds,
 * search (both languages of localized names), each filter, each sort, uniqueness and validation.
 * A resource added to the registry (with its sample in the route scenarios) is covered here.
 * Permissions per verb and tenant isolation: permission-matrix and tenant-isolation tests.
 */
let t: TestApp;
let shop: { id: string };
let other: { id: string };
let admin: TestMember;
let targets: RouteTargets;
let otherTargets: RouteTargets;

beforeAll(async () => {
  t = await createTestApp();
  shop = await createWorkspace(t.db, 'Engine Shop');
  other = await createWorkspace(t.db, 'Engine Other');
  admin = await addMember(t.db, shop.id, { isAdmin: true });
  targets = await seedTargets(t.db, shop.id);
  otherTargets = await seedTargets(t.db, other.id);
});
afterAll(async () => {
  await t?.close();
});

/**
 * Fields a resource's write hook makes each row's own, beside its unique fields: a variation
 * value's text is not repeated in its type, and its place is its type's last.
 */
const ownPerRow: Record<string, string[]> = { variationValues: ['name', 'position'] };

describe.each(madeByEngine.map((data) => [data.storage.definition.key, data] as const))('%s', (key, data) => {
  const { definition, table } = data.storage;
  // Read-only resources (subscriptions, invoices) are written by their feature, never created here.
  const creatable = isCreatable(data);
  const sample = {
    input: (records?: Record<string, string>, variant?: number) => sampleOf(key)(records, variant),
  };
  const url = (path: string, query = '') => `/api/${definition.path}${path}?workspaceId=${shop.id}${query}`;
  const has = (verb: string) => (definition.verbs as readonly string[]).includes(verb);
  const uniqueField = data.storage.uniqueFields.includes('code') ? 'code' : data.storage.uniqueFields[0]!;
  const rowCount = async () =>
    (await t.db.select({ n: count() }).from(table).where(eq(table.workspaceId, shop.id)))[0]!.n;
  const create = async (body: Record<string, unknown>) =>
    api(t.app, { url: url(''), body, cookie: admin.cookie });

  it.runIf(!creatable)(
    'read-only: get (where declared) answers the record in its declared shape; no write route exists',
    async () => {
      const id = targets.records[key]!;
      const got = await api(t.app, { url: url(`/${id}`), cookie: admin.cookie });
      if (has('get')) {
        const record = dataOf<Record<string, unknown>>(got);
        expect(definition.schemas.record.strict().safeParse(record).error).toBeUndefined();
        expect(record.id).toBe(id);
      } else {
        expect(got.status).toBe(404);
      }
      for (const [method, path] of [
        ['POST', ''],
        ['POST', '/bulk'],
        ['PATCH', `/${id}`],
        ['DELETE', `/${id}`],
      ] as const) {
        const refused = await api(t.app, {
          method,
          url: url(path),
          body: method === 'DELETE' ? undefined : {},
          cookie: admin.cookie,
        });
        expect(refused.status, `${method} ${path}`).toBe(404);
      }
      expect(
        (await api(t.app, { url: url(`/${otherTargets.records[key]}`), cookie: admin.cookie })).status,
      ).toBe(404);
    },
  );

  it.runIf(creatable)('create, get, patch, enable/disable and delete', async () => {
    const input = sample.input(targets.records);
    const created = await create(input);
    expect(created.status, created.text).toBe(201);
    const record = dataOf<Record<string, unknown>>(created);
    expect(definition.schemas.record.safeParse(record).error).toBeUndefined();
    expect(record[uniqueField]).toBe(input[uniqueField]);
    expect(dataOf(await api(t.app, { url: url(`/${record.id}`), cookie: admin.cookie }))).toEqual(record);

    const change = sample.input(targets.records);
    const patched = dataOf<Record<string, unknown>>(
      await api(t.app, { method: 'PATCH', url: url(`/${record.id}`), body: change, cookie: admin.cookie }),
    );
    expect(patched[uniqueField]).toBe(change[uniqueField]);
    if (definition.hasStatus) {
      const disabled = await api(t.app, {
        method: 'PATCH',
        url: url(`/${record.id}`),
        body: { status: 'inactive' },
        cookie: admin.cookie,
      });
      expect(dataOf<{ status: string }>(disabled).status).toBe('inactive');
      const enabled = await api(t.app, {
        method: 'PATCH',
        url: url(`/${record.id}`),
        body: { status: 'active' },
        cookie: admin.cookie,
      });
      expect(dataOf<{ status: string }>(enabled).status).toBe('active');
    }
    if (has('delete')) {
      const deleted = await api(t.app, {
        method: 'DELETE',
        url: url(`/${record.id}`),
        cookie: admin.cookie,
      });
      expect(deleted.status, deleted.text).toBe(200);
      expect((await api(t.app, { url: url(`/${record.id}`), cookie: admin.cookie })).status).toBe(404);
    } else {
      const refused = await api(t.app, {
        method: 'DELETE',
        url: url(`/${record.id}`),
        cookie: admin.cookie,
      });
      expect(refused.status).toBe(404);
    }
  });

  it.runIf(creatable)(
    'unique per workspace: 409 DB with its target; the same value in another workspace is fine',
    async () => {
      const input = sample.input(targets.records);
      expect((await create(input)).status).toBe(201);
      const again = await create({ ...sample.input(targets.records), [uniqueField]: input[uniqueField] });
      expect(again.status, again.text).toBe(409);
      expect(errorOf(again)).toMatchObject({ code: 'DB', target: uniqueField });
      if (uniqueField === 'code') expect(errorOf(again).message).toBe('This code must be unique');
      const elsewhere = await api(t.app, {
        url: `/api/${definition.path}?workspaceId=${other.id}`,
        body: { ...sample.input(otherTargets.records), [uniqueField]: input[uniqueField] },
        cookie: (await addMember(t.db, other.id, { isAdmin: true })).cookie,
      });
      expect(elsewhere.status, elsewhere.text).toBe(201);
    },
  );

  it('bulk: all rows or none, with per-row issue paths', async () => {
    if (!has('bulk')) return;
    const before = await rowCount();
    const first = sample.input(targets.records);
    const repeated = await api(t.app, {
      url: url('/bulk'),
      body: [first, { ...sample.input(targets.records), [uniqueField]: first[uniqueField] }],
      cookie: admin.cookie,
    });
    expectValidation(repeated, `1.${uniqueField}`, validationCodes.CODE_MUST_BE_UNIQUE);
    // An empty code is no mistake (the engine assigns one); one over 60 characters is.
    const invalid = await api(t.app, {
      url: url('/bulk'),
      body: [
        sample.input(targets.records),
        { ...sample.input(targets.records), [uniqueField]: uniqueField === 'code' ? 'x'.repeat(61) : '' },
      ],
      cookie: admin.cookie,
    });
    expect(errorOf(invalid).issues?.[0]?.path).toBe(`1.${uniqueField}`);
    expect(await rowCount()).toBe(before);
    const sent = Date.now();
    const done = await api(t.app, {
      url: url('/bulk'),
      body: [sample.input(targets.records), sample.input(targets.records)],
      cookie: admin.cookie,
    });
    expect(dataOf<unknown[]>(done)).toHaveLength(2);
    expect(await rowCount()).toBe(before + 2);
    // Time-ordered ids (decision 0058), made when the rows were: the database's default is random.
    for (const { id } of dataOf<{ id: string }[]>(done)) {
      expect(id[14], id).toBe('7');
      expect(timeOfId(id)).toBeGreaterThanOrEqual(sent);
      expect(timeOfId(id)).toBeLessThanOrEqual(Date.now());
    }
    // One row over the contract's limit: refused whole, before any row is looked at.
    const tooMany = await api(t.app, {
      url: url('/bulk'),
      body: Array.from({ length: maxBulkRows + 1 }, () => sample.input(targets.records)),
      cookie: admin.cookie,
    });
    expectValidation(tooMany, '', validationCodes.TOO_MANY_BULK_ROWS);
    expect(await rowCount()).toBe(before + 2);
  });

  it.runIf(has('bulk'))('bulk: stores each row and its audit row as a single create does', async () => {
    // Each column of a bulk's rows is bound as one array and cast back to its kind
    // (`insertRows`); one row is Drizzle's insert. The same input both ways, but its unique fields.
    const input = sample.input(targets.records);
    const own = [...data.storage.uniqueFields, ...(ownPerRow[key] ?? [])];
    const varied = () => {
      const fresh = sample.input(targets.records);
      return { ...input, ...Object.fromEntries(own.map((field) => [field, fresh[field]])) };
    };
    const single = dataOf<{ id: string }>(await create(input));
    const bulk = dataOf<{ id: string }[]>(
      await api(t.app, { url: url('/bulk'), body: [varied(), varied()], cookie: admin.cookie }),
    );
    // A localized field is stored in two columns, `<field>En` and `<field>Ar`.
    const left = new Set([
      'id',
      'createdAt',
      'updatedAt',
      'searchText',
      ...own.flatMap((field) => [field, `${field}En`, `${field}Ar`]),
    ]);
    const storedRow = async (id: string) => {
      const [row] = (await t.db.select().from(table).where(eq(table.id, id))) as Record<string, unknown>[];
      return Object.fromEntries(Object.entries(row!).filter(([field]) => !left.has(field)));
    };
    const changes = async (id: string) => {
      const [entry] = await t.db
        .select({ action: auditLog.action, changes: auditLog.changes })
        .from(auditLog)
        .where(eq(auditLog.recordId, id));
      return {
        action: entry?.action,
        changes: Object.fromEntries(
          Object.entries(entry?.changes ?? {}).filter(([field]) => !left.has(field)),
        ),
      };
    };
    for (const record of bulk) {
      expect(await storedRow(record.id)).toEqual(await storedRow(single.id));
      expect(await changes(record.id)).toEqual(await changes(single.id));
    }
  });

  it.runIf(creatable && definition.codePrefix !== undefined)(
    `codes: left empty, the next free ${definition.codePrefix}- code; typed in another Unicode form, not unique`,
    async () => {
      const prefix = definition.codePrefix!;
      const numberOf = (code: unknown) => {
        expect(code).toMatch(new RegExp(`^${prefix}-[0-9]{4,}$`));
        return Number((code as string).slice(prefix.length + 1));
      };
      const withoutCode = () => {
        const { code: _, ...input } = sample.input(targets.records);
        return input;
      };
      const first = numberOf(dataOf<{ code: string }>(await create(withoutCode())).code);
      const blank = dataOf<{ id: string; code: string }>(
        await create({ ...sample.input(targets.records), code: ' \u200b ' }),
      );
      expect(numberOf(blank.code)).toBe(first + 1);
      // A code of the sequence typed by hand is skipped by the sequence.
      const typed = sequenceCode(prefix, first + 2);
      expect(
        dataOf<{ code: string }>(await create({ ...sample.input(targets.records), code: typed })).code,
      ).toBe(typed);
      let next = first + 3;
      if (has('bulk')) {
        const bulk = dataOf<{ code: string }[]>(
          await api(t.app, {
            url: url('/bulk'),
            body: [withoutCode(), { ...withoutCode(), code: '' }, withoutCode()],
            cookie: admin.cookie,
          }),
        );
        expect(bulk.map((record) => numberOf(record.code))).toEqual([next, next + 1, next + 2]);
        next += 3;
      }
      // Editable: the generated code changed by hand; emptied, it takes the next one.
      const edited = await api(t.app, {
        method: 'PATCH',
        url: url(`/${blank.id}`),
        body: { code: `\uff25\uff24-${blank.code}` },
        cookie: admin.cookie,
      });
      expect(dataOf<{ code: string }>(edited).code).toBe(`ED-${blank.code}`);
      const emptied = await api(t.app, {
        method: 'PATCH',
        url: url(`/${blank.id}`),
        body: { code: '' },
        cookie: admin.cookie,
      });
      expect(numberOf(dataOf<{ code: string }>(emptied).code)).toBe(next);
      // The same code in another form is the same code.
      const again = await create({ ...sample.input(targets.records), code: `E\u0301D-${blank.code}` });
      expect(again.status, again.text).toBe(201);
      const twin = await create({ ...sample.input(targets.records), code: `\u00c9D-${blank.code}\u200f` });
      expect(twin.status, twin.text).toBe(409);
      expect(errorOf(twin)).toMatchObject({
        code: 'DB',
        target: 'code',
        message: 'This code must be unique',
      });
    },
  );

  it('validation: an empty body, an unknown field, bad list parameters', async () => {
    if (creatable) {
      const empty = await create({});
      expect(errorOf(empty).code).toBe('VALIDATION');
      expect(errorOf(empty).issues?.length).toBeGreaterThan(0);
      expect(errorOf(await create({ ...sample.input(targets.records), workspaceId: other.id })).code).toBe(
        'VALIDATION',
      );
    }
    for (const query of [
      `&pageSize=${maxPageSize + 1}`,
      '&page=0',
      '&sort=nothing',
      '&colour=red',
      '&pageSize=x',
    ]) {
      const response = await api(t.app, { url: url('', query), cookie: admin.cookie });
      expect(response.status, `${query} → ${response.text}`).toBe(400);
      expect(errorOf(response).code).toBe('VALIDATION');
    }
    // An `id` filter takes any record's id as text (an upload's is its path): nothing is malformed.
    for (const filter of definition.filters.filter((candidate) => candidate.kind !== 'id')) {
      const bad = await api(t.app, { url: url('', `&${filter.field}=not-a-value`), cookie: admin.cookie });
      expect(bad.status, `${filter.field} → ${bad.text}`).toBe(400);
    }
  });

  it('pages: pageSize up to 100, meta.total, only this workspace', async () => {
    const page = await api(t.app, { url: url('', `&pageSize=${maxPageSize}`), cookie: admin.cookie });
    expect(page.status).toBe(200);
    const body = page.json as { data: { id: string }[]; meta: { total: number } };
    expect(body.meta.total).toBe(await rowCount());
    expect(body.data.map((row) => row.id)).not.toContain(otherTargets.records[key]);
    const one = (await api(t.app, { url: url('', '&pageSize=1&page=2'), cookie: admin.cookie })).json as {
      data: unknown[];
      meta: { total: number; page: number };
    };
    expect(one.data.length).toBe(Math.min(1, Math.max(0, body.meta.total - 1)));
    expect(one.meta).toMatchObject({ total: body.meta.total, page: 2 });
  });

  // Read-only resources (subscriptions, invoices) declare no search field: nothing to search.
  it.runIf(definition.search.length > 0)(
    'search: each declared search field finds a record by its own value, in either language',
    async () => {
      const record = dataOf<Record<string, unknown>>(
        await create({ ...sample.input(targets.records, 3), ...(await searchedExtras[key]?.(shop.id)) }),
      );
      for (const field of definition.search) {
        const terms = searchTerms(record, field);
        expect(terms.length, `the sample has a ${field}`).toBeGreaterThan(0);
        for (const term of terms) {
          // A term also in another searched field of the record would find it without this field.
          const elsewhere = definition.search.filter(
            (other) =>
              other !== field &&
              searchTerms(record, other).some((value) => value.toLowerCase().includes(term.toLowerCase())),
          );
          expect(elsewhere, `the sample's ${field} "${term}" also appears in`).toEqual([]);
          const found = await api(t.app, {
            url: url('', `&search=${encodeURIComponent(term)}&pageSize=100`),
            cookie: admin.cookie,
          });
          expect(
            (found.json as { data: { id: string }[] }).data.map((row) => row.id),
            `search ${field} = ${term}`,
          ).toContain(record.id);
        }
      }
      const none = await api(t.app, {
        url: url('', `&search=${encodeURIComponent('%_nothing')}`),
        cookie: admin.cookie,
      });
      expect((none.json as { data: unknown[]; meta: { total: number } }).data).toEqual([]);
      expect((none.json as { meta: { total: number } }).meta.total).toBe(0);
    },
  );

  // A searched list is one statement (decision 0040): its pages, its order and its total, also
  // past the last match, are those of the list.
  it.runIf(definition.search.length > 0)(
    'search pages: the matches in the sort order, the total on every page and past the last',
    async () => {
      for (let n = 0; n < 3; n += 1) await create({ ...sample.input(targets.records, 10 + n) });
      const first = definition.search[0]!;
      const sampleRecord = dataOf<Record<string, unknown>>(
        await create({ ...sample.input(targets.records, 13) }),
      );
      // One letter of the sample's own text: likely several matches, at least one.
      const term = searchTerms(sampleRecord, first)[0]!.slice(0, 1);
      type Page = { data: { id: string }[]; meta: { total: number } };
      const all = (
        await api(t.app, {
          url: url('', `&search=${encodeURIComponent(term)}&pageSize=100`),
          cookie: admin.cookie,
        })
      ).json as Page;
      expect(all.meta.total).toBe(all.data.length);
      expect(all.data.map((row) => row.id)).toContain(sampleRecord.id);
      const paged: string[] = [];
      for (let page = 1; page <= all.meta.total + 1; page += 1) {
        const one = (
          await api(t.app, {
            url: url('', `&search=${encodeURIComponent(term)}&pageSize=1&page=${page}`),
            cookie: admin.cookie,
          })
        ).json as Page;
        expect(one.meta.total, `page ${page}`).toBe(all.meta.total);
        paged.push(...one.data.map((row) => row.id));
      }
      expect(paged).toEqual(all.data.map((row) => row.id));
    },
  );

  describe('sort: each sortable field both ways, in the order of the collation the query uses', () => {
    let sorted: { id: string };
    let sortedAdmin: TestMember;
    beforeAll(async () => {
      // A workspace of its own: the list holds exactly these records, which differ in every field.
      sorted = await createWorkspace(t.db, unique('Sorted '));
      sortedAdmin = await addMember(t.db, sorted.id, { isAdmin: true });
      const records: Record<string, string> = {};
      for (const served of madeByEngine) {
        if (served === data) break;
        records[served.storage.definition.key] = await createSample(t.db, served, sorted.id, records);
      }
      const ids: string[] = [];
      for (let variant = 0; variant < 6; variant++)
        ids.push(await createSample(t.db, data, sorted.id, records, variant));
      await varyComputed[key]?.(sorted.id, ids);
    });

    it.each(
      definition.sort
        .flatMap((field) => [field, `-${field}`])
        .flatMap((sort) => [
          [sort, 'en'],
          [sort, 'ar'],
        ]),
    )('%s, read in %s', async (sort, language) => {
      const response = await api(t.app, {
        url: `/api/${definition.path}?workspaceId=${sorted.id}&sort=${sort}&pageSize=100`,
        cookie: sortedAdmin.cookie,
        headers: { 'accept-language': language === 'ar' ? 'ar-EG,ar;q=0.9' : 'en-US,en;q=0.9' },
      });
      expect(response.status, response.text).toBe(200);
      const field = sort.replace(/^-/, '');
      const values = (response.json as { data: Record<string, unknown>[] }).data.map((row) =>
        sortValue(row, field, language),
      );
      expect(new Set(values).size, `the records differ in ${field}`).toBeGreaterThan(2);
      expect(values).toEqual(sortedAsCollated(values, sort.startsWith('-')));
    });
  });

  it.runIf(has('filters'))(
    'filters: each declared filter narrows the list; /filters gives values with counts',
    async () => {
      const values = await api(t.app, { url: url('/filters'), cookie: admin.cookie });
      expect(values.status, values.text).toBe(200);
      const data = (values.json as { data: Record<string, { value: unknown; count: number }[]> }).data;
      const fields = [
        ...definition.filters.map((filter) => filter.field),
        ...(definition.hasStatus ? ['status'] : []),
      ];
      expect(Object.keys(data).sort()).toEqual([...fields].sort());
      for (const field of fields) {
        const entry = data[field]!.find((candidate) => candidate.value !== null);
        if (!entry) continue;
        const filtered = await api(t.app, {
          url: url('', `&${field}=${entry.value}&pageSize=100`),
          cookie: admin.cookie,
        });
        const body = filtered.json as { data: Record<string, unknown>[]; meta: { total: number } };
        expect(body.meta.total, `${field}=${entry.value}`).toBe(entry.count);
        expect(body.data.every((row) => row[field] === entry.value)).toBe(true);
      }
      expect(listQuerySchema(definition).safeParse({ workspaceId: shop.id }).success).toBe(true);
    },
  );

  it.runIf(has('filters') && definition.filters.some((filter) => filter.kind === 'reference'))(
    'reference filters: `none` lists the records that reference nothing, alone or beside an id',
    async () => {
      const counts = dataOf<Record<string, { value: string | null; count: number }[]>>(
        await api(t.app, { url: url('/filters'), cookie: admin.cookie }),
      );
      for (const filter of definition.filters.filter((candidate) => candidate.kind === 'reference')) {
        const nulls = counts[filter.field]!.find((entry) => entry.value === null)?.count ?? 0;
        const some = counts[filter.field]!.find((entry) => entry.value !== null);
        const alone = await api(t.app, {
          url: url('', `&${filter.field}=none&pageSize=100`),
          cookie: admin.cookie,
        });
        const aloneBody = alone.json as { data: Record<string, unknown>[]; meta: { total: number } };
        expect(aloneBody.meta.total, alone.text).toBe(nulls);
        expect(aloneBody.data.every((row) => row[filter.field] === null)).toBe(true);
        if (!some) continue;
        const both = await api(t.app, {
          url: url('', `&${filter.field}=${some.value},none&pageSize=100`),
          cookie: admin.cookie,
        });
        expect((both.json as { meta: { total: number } }).meta.total).toBe(nulls + some.count);
      }
    },
  );

  it.runIf(definition.form !== undefined)(
    'the declared form edits what the list shows: record → form values → input, saved unchanged',
    async () => {
      const form = definition.form!;
      const created = dataOf<Record<string, unknown>>(await create(sample.input(targets.records)));
      const parsed = form.schema.safeParse(form.values(created as never));
      expect(parsed.error).toBeUndefined();
      const saved = await api(t.app, {
        method: 'PATCH',
        url: url(`/${created.id}`),
        body: parsed.data,
        cookie: admin.cookie,
      });
      expect(saved.status, saved.text).toBe(200);
      const { updatedAt: _before, ...was } = created;
      const { updatedAt: _after, ...now } = dataOf<Record<string, unknown>>(saved);
      expect(now).toEqual(was);
    },
  );

  it.runIf(creatable && Object.keys(data.storage.references).length > 0)(
    "references: another workspace's record is refused like a missing one",
    async () => {
      for (const [field, referenced] of Object.entries(data.storage.references)) {
        const otherKey = testResources.served.find((candidate) => candidate.storage.table === referenced)!
          .storage.definition.key;
        const response = await create({
          ...sample.input(targets.records),
          [field]: otherTargets.records[otherKey],
        });
        expectValidation(response, field, validationCodes.REFERENCE_NOT_FOUND);
      }
    },
  );
});

/**
 * Computed fields (counts of related records) differ only once related records exist: the
 * `index`-th record gets `index % 3` of them.
 */
const varyComputed: Record<string, (workspaceId: string, ids: string[]) => Promise<void>> = {
  async brands(workspaceId, ids) {
    const locations = testResources.data('locations');
    for (const [index, brandId] of ids.entries())
      for (let n = 0; n < index % 3; n++)
        await createSample(t.db, locations, workspaceId, { brands: brandId });
  },
  /** The index-th product chooses index % 3 values of one type: 0, 1 or 2 variants. */
  async products(workspaceId, ids) {
    const types = testResources.data('variationTypes');
    const values = testResources.data('variationValues');
    const typeId = await createSample(t.db, types, workspaceId);
    const valueIds = [
      await createSample(t.db, values, workspaceId, { variationTypes: typeId }, 0),
      await createSample(t.db, values, workspaceId, { variationTypes: typeId }, 1),
    ];
    const products = testResources.data('products');
    for (const [index, id] of ids.entries()) {
      if (index % 3 === 0) continue;
      const options = [{ typeId, valueIds: valueIds.slice(0, index % 3) }];
      await products.update(t.db, systemCaller(workspaceId), id, { options });
    }
  },
  async authorityRoles(workspaceId, ids) {
    for (const [index, roleId] of ids.entries())
      for (let n = 0; n < index % 3; n++) await addMember(t.db, workspaceId, { roleId });
  },
};

/**
 * What a record needs beyond its sample for every searched field to have a value: a product is
 * found by a variant's SKU or barcode, so the searched one has a variant with both.
 */
const searchedExtras: Record<string, (workspaceId: string) => Promise<Record<string, unknown>>> = {
  async products(workspaceId) {
    const typeId = await createSample(t.db, testResources.data('variationTypes'), workspaceId);
    const valueId = await createSample(t.db, testResources.data('variationValues'), workspaceId, {
      variationTypes: typeId,
    });
    return {
      options: [{ typeId, valueIds: [valueId] }],
      variants: [{ key: valueId, sku: unique('SKU-'), barcode: '4006381333931' }],
    };
  },
};

/** The texts a search of `field` finds the record by: a name in each language, a phone, a variant's codes. */
function searchTerms(record: Record<string, unknown>, field: string): string[] {
  const value = record[field];
  if (field === 'variants' && Array.isArray(value))
    return (value as { sku: string | null; barcode: string | null }[])
      .flatMap((variant) => [variant.sku, variant.barcode])
      .filter((code): code is string => Boolean(code));
  if (Array.isArray(value))
    return value.map((entry) => (typeof entry === 'string' ? entry : (entry as { value: string }).value));
  return value === null || value === undefined ? [] : [String(value)];
}

/**
 * What a list sorted by `field` is ordered by for a reader of `language`: a localized text (a
 * name, a tax's title) in their language, else the other (§9).
 */
function sortValue(row: Record<string, unknown>, field: string, language: string): unknown {
  const value = row[field];
  const isLocalized =
    Array.isArray(value) && value.every((entry) => typeof entry === 'object' && entry && 'locale' in entry);
  if (!isLocalized) return value;
  const texts = value as { locale: string; value: string }[];
  return (texts.find((text) => text.locale === language) ?? texts[0])?.value;
}

/**
 * The values sorted as the query must: texts by ICU's root collation (`und-x-icu`, which both
 * databases have, and `Intl.Collator('und')` implements), dates and numbers by value, empty values
 * last either way.
 */
function sortedAsCollated(values: unknown[], descending: boolean): unknown[] {
  const collator = new Intl.Collator('und');
  const isoDate = /^\d{4}-\d{2}-\d{2}/;
  const compare = (a: unknown, b: unknown): number => {
    if (typeof a === 'number' && typeof b === 'number') return a - b;
    const [x, y] = [String(a), String(b)];
    if (isoDate.test(x) && isoDate.test(y)) return x < y ? -1 : x > y ? 1 : 0;
    return collator.compare(x, y);
  };
  const present = values.filter((value) => value !== null && value !== undefined);
  const empty = values.filter((value) => value === null || value === undefined);
  present.sort((a, b) => (descending ? compare(b, a) : compare(a, b)));
  return [...present, ...empty];
}

describe('bulk: the row limit', () => {
  it(`takes exactly ${maxBulkRows} rows, all in one transaction`, async () => {
    const data = testResources.data('productTags');
    const workspace = await createWorkspace(t.db, unique('Bulk '));
    const owner = await addMember(t.db, workspace.id, { isAdmin: true });
    const response = await api(t.app, {
      url: `/api/${data.storage.definition.path}/bulk?workspaceId=${workspace.id}`,
      body: Array.from({ length: maxBulkRows }, (_, index) => sampleOf('productTags')({}, index)),
      cookie: owner.cookie,
    });
    expect(response.status, response.text.slice(0, 300)).toBe(201);
    expect(dataOf<unknown[]>(response)).toHaveLength(maxBulkRows);
  });
});
