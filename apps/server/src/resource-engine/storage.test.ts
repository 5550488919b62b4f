import {
  codeField,
  defineResource,
  localizedNameField,
  localizedNameRecordField,
  recordStatusField,
  taxesResource,
  workspaceUsersResource,
} from '@dukkan/contract';
import { sql } from 'drizzle-orm';
import { PgDialect, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { named } from '../../test/helpers/api.ts';
import { brands, taxes, workspaces } from '../db/schema/index.ts';
import { requireDeclaredAccess } from '../http/access.ts';
import { createResourceEngine } from './registry.ts';
import { assertResourcesServed } from './routes.ts';
import { bindStorage, type ResourceTable } from './storage.ts';

/*
 * A simple resource as a developer adds one — its declaration and its table, nothing else — and
 * what happens when a step is forgotten or done wrong: the server refuses to start, naming it.
 */
const supplierRecord = z.object({
  id: z.uuid(),
  code: z.string(),
  name: localizedNameRecordField,
  phone: z.string(),
  brandId: z.string().nullable(),
  status: recordStatusField,
  createdAt: z.string(),
  updatedAt: z.string(),
});
const supplierInput = z.object({
  code: codeField,
  name: localizedNameField,
  phone: z.string(),
  brandId: z.uuid().nullable().default(null),
});
const suppliersResource = defineResource({
  key: 'suppliers',
  path: 'suppliers',
  permission: 'Brands',
  menu: { group: 'data', order: 999 },
  verbs: ['list', 'get', 'create', 'update', 'delete'],
  schemas: { record: supplierRecord, create: supplierInput, update: supplierInput.partial() },
  search: ['code', 'name', 'phone'],
  sort: ['code', 'name', 'createdAt'],
  defaultSort: 'code',
  filters: [{ field: 'brandId', kind: 'reference', resource: 'brands' }],
  hasStatus: true,
});

function suppliersTable(
  searched = `lower(coalesce(code, '') || ' ' || coalesce(name_en, '') || ' ' || coalesce(name_ar, '') || ' ' || coalesce(phone, ''))`,
) {
  return pgTable(
    'suppliers',
    {
      id: uuid('id').primaryKey().defaultRandom(),
      workspaceId: uuid('workspace_id')
        .notNull()
        .references(() => workspaces.id),
      code: text('code').notNull(),
      nameEn: text('name_en').notNull(),
      nameAr: text('name_ar'),
      phone: text('phone').notNull(),
      brandId: uuid('brand_id').references(() => brands.id),
      status: text('status').notNull().default('active'),
      searchText: text('search_text').notNull().generatedAlwaysAs(sql.raw(searched)),
      createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
      updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    },
    (table) => [uniqueIndex('suppliers__code__unique').on(table.workspaceId, table.code)],
  ) as unknown as ResourceTable;
}

describe('a resource bound from its table alone', () => {
  it('maps fields, the localized name, references, unique fields and the search column', () => {
    const storage = bindStorage(suppliersResource, suppliersTable());
    expect(Object.keys(storage.references)).toEqual(['brandId']);
    expect(storage.references.brandId).toBe(brands);
    expect(storage.uniqueFields).toEqual(['code']);
    expect(storage.searchedColumns('name')).toEqual(['name_en', 'name_ar']);
    expect(storage.toRow({ name: [{ locale: 'en', value: 'Acme' }], phone: '0100' })).toEqual({
      nameEn: 'Acme',
      nameAr: null,
      phone: '0100',
    });
    const created = new Date('2026-01-02T03:04:05Z');
    expect(
      storage.toRecord({
        id: 'i',
        code: 'S1',
        nameEn: 'Acme',
        nameAr: 'أكمي',
        phone: '0100',
        brandId: null,
        status: 'active',
        createdAt: created,
        updatedAt: created,
        searchText: 'ignored',
      }),
    ).toEqual({
      id: 'i',
      code: 'S1',
      name: named('Acme', 'أكمي'),
      phone: '0100',
      brandId: null,
      status: 'active',
      createdAt: created.toISOString(),
      updatedAt: created.toISOString(),
    });
  });

  it('binds any localized text as it binds a name: a tax title in title_en and title_ar', () => {
    const storage = bindStorage(taxesResource, taxes as unknown as ResourceTable);
    expect(storage.searchedColumns('title')).toEqual(['title_en', 'title_ar']);
    expect(storage.toRow({ title: [{ locale: 'ar', value: 'رسوم' }] })).toEqual({
      titleEn: null,
      titleAr: 'رسوم',
    });
    expect(storage.toRecord({ titleEn: 'Fee', titleAr: null }).title).toEqual([
      { locale: 'en', value: 'Fee' },
    ]);
    expect(Object.keys(storage.selection)).toEqual(expect.arrayContaining(['titleEn', 'titleAr']));
    const order = (locale: 'en' | 'ar') =>
      new PgDialect().sqlToQuery(sql.join(storage.sortTerms('-title', locale), sql`, `)).sql;
    expect(order('en')).toBe('coalesce("taxes"."title_en", "taxes"."title_ar") collate "und-x-icu" desc');
    expect(order('ar')).toBe('coalesce("taxes"."title_ar", "taxes"."title_en") collate "und-x-icu" desc');
  });

  it('refuses a search column that leaves out a declared search field, naming both sides', () => {
    expect(() =>
      bindStorage(
        suppliersResource,
        suppliersTable(`lower(coalesce(code, '') || ' ' || coalesce(name_en, ''))`),
      ),
    ).toThrow(
      'Resource suppliers: search_text holds code, name_en but the declared search fields are stored in code, name_ar, name_en, phone',
    );
  });

  it('refuses a search column holding a field nobody declared searchable', () => {
    const narrow = defineResource({ ...suppliersResource, search: ['code', 'name'] });
    expect(() => bindStorage(narrow, suppliersTable())).toThrow(/search_text holds .*phone/);
  });

  it('refuses a record field without a column', () => {
    const wider = defineResource({
      ...suppliersResource,
      schemas: { ...suppliersResource.schemas, record: supplierRecord.extend({ rating: z.number() }) },
    });
    expect(() => bindStorage(wider, suppliersTable())).toThrow(
      'Resource suppliers: record field rating has no column rating in table suppliers and is not computed',
    );
  });

  it('leaves the fields a feature writes itself out of the row and the record', () => {
    const withContacts = defineResource({
      ...suppliersResource,
      schemas: {
        record: supplierRecord.extend({ contacts: z.array(z.string()).optional() }),
        create: supplierInput.extend({ contacts: z.array(z.string()) }),
        update: supplierInput.partial(),
      },
    });
    expect(() => bindStorage(withContacts, suppliersTable())).toThrow(/contacts has no column/);
    const storage = bindStorage(withContacts, suppliersTable(), {
      key: 'suppliers',
      writtenByFeature: ['contacts'],
    });
    expect(storage.toRow({ phone: '0100', contacts: ['Sara'] })).toEqual({ phone: '0100' });
    expect(storage.toRecord({ id: 'i', contacts: ['ignored'] })).not.toHaveProperty('contacts');
  });
});

describe('the served set is the contract registry', () => {
  it('a declared resource without a table stops the start, saying what to add', () => {
    // Named so that no real table answers to it (a real `suppliers` resource may come one day).
    const undeclared = defineResource({ ...suppliersResource, key: 'tablelessThings' });
    expect(() => createResourceEngine([], { registry: [undeclared] })).toThrow(
      /Resource tablelessThings: no table\. Export a Drizzle table named tablelessThings/,
    );
  });

  it('a declaration sorting by a field its record lacks stops the start, naming both', () => {
    const missorted = defineResource({ ...suppliersResource, sort: ['code', 'rating'] });
    expect(() => createResourceEngine([], { registry: [missorted] })).toThrow(
      'Resource suppliers: rating is not a field of its record',
    );
  });

  it('a customization of a resource the contract does not declare stops the start', () => {
    expect(() => createResourceEngine([{ key: 'supplier' }], { registry: [] })).toThrow(
      "A customization names supplier, which the contract's registry does not declare",
    );
  });

  it('a resource a feature should serve, without its routes, stops the start listing each verb', async () => {
    const app = Fastify();
    requireDeclaredAccess(app);
    const engine = createResourceEngine(
      [{ key: 'workspaceUsers', featureVerbs: workspaceUsersResource.verbs }],
      {
        registry: [workspaceUsersResource],
      },
    );
    await app.ready();
    expect(() => assertResourcesServed(app, engine)).toThrow(
      'Resources declared in the contract but not served: workspaceUsers: list (GET /api/workspaces/users needing viewUsers)',
    );
    await app.close();
  });
});
