import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  codeAndNameColumns,
  codeAndNameFormFields,
  codeField,
  defineResource,
  fieldLabel,
  lazySchema,
  listQuerySchema,
  localizedNameField,
  localizedNameFormField,
  localizedNameFormValues,
  localizedNameRecordField,
  statusRecordFields,
} from '@dukkan/contract';
import { generateDrizzleJson, generateMigration } from 'drizzle-kit/api';
import { sql } from 'drizzle-orm';
import { pgTable, text } from 'drizzle-orm/pg-core';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { assertTablesExist } from '../src/db/missing-tables.ts';
import * as schema from '../src/db/schema/index.ts';
import { base, catalogueIndexes, localizedName, searchText, status } from '../src/db/schema/index.ts';
import { declaredRoutes, requireDeclaredAccess } from '../src/http/access.ts';
import { createLocalFileStore } from '../src/platform/storage/local-file-store.ts';
import { createImportJobEvents } from '../src/resource-engine/import-events.ts';
import { createImportWorker } from '../src/resource-engine/import-jobs.ts';
import { createResourceEngine } from '../src/resource-engine/registry.ts';
import { registerResources } from '../src/resource-engine/routes.ts';
import { systemCaller } from '../src/resource-engine/storage.ts';
import { sampleOf } from './helpers/route-scenarios.ts';
import { createTestApp } from './helpers/test-app.ts';
import { createTestDatabase, type TestDatabase } from './helpers/test-database.ts';
import { createWorkspace } from './helpers/workspaces.ts';

/*
 * A simple resource is written in four places: its declaration, its registry line, its table with
 * the generated migration, its texts. This is the server's half of the proof (the contract's is
 * `packages/contract/src/resources/registry.test.ts`, the web's
 * `apps/web/src/app/a-resource-in-four-places.test.ts`): a forgotten table or migration
 * stops the start with a message naming the place to fix, and with both, the storage, the routes
 * and the test sample follow from the declaration.
 */
const widgetInput = lazySchema(() =>
  z.object({ code: codeField, name: localizedNameField, note: z.string().trim().min(1).max(60) }),
);
const widgets = defineResource({
  key: 'widgets',
  path: 'widgets',
  // An existing permission resource: a new one would be a permission line in the contract's tags.
  permission: 'Brands',
  menu: { group: 'data', order: 990 },
  verbs: ['list', 'get', 'filters', 'create', 'bulk', 'update', 'delete'],
  schemas: {
    record: lazySchema(() =>
      z.object({ ...statusRecordFields, name: localizedNameRecordField, note: z.string() }),
    ),
    create: widgetInput,
    update: lazySchema(() => widgetInput.partial()),
  },
  search: ['code', 'name', 'note'],
  sort: ['code', 'name', 'note', 'createdAt'],
  defaultSort: 'code',
  filters: [],
  hasStatus: true,
  codePrefix: 'WID',
  columns: [...codeAndNameColumns, { field: 'note', kind: 'text' }, { field: 'status', kind: 'status' }],
  form: {
    fields: [
      ...codeAndNameFormFields,
      { name: 'note', type: 'text', required: true, label: fieldLabel('widgets', 'note') },
    ],
    schema: lazySchema(() => widgetInput.extend({ name: localizedNameFormField })),
    values: (widget) => ({
      code: widget.code,
      name: localizedNameFormValues(widget.name),
      note: widget.note,
    }),
  },
});
// Its table, as `db/schema/catalogue.ts` would export it under the key.
const widgetsTable = pgTable(
  'widgets',
  {
    ...base(),
    ...localizedName(),
    note: text('note').notNull(),
    status: status(),
    searchText: searchText('code', 'name_en', 'name_ar', 'note'),
  },
  (table) => catalogueIndexes('widgets', table, [table.note]),
);
const withTable = [{ key: 'widgets', table: widgetsTable }];

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

describe('a resource in four places, on the server', () => {
  it('the declaration without its table stops the start, naming db/schema', () => {
    expect(() => createResourceEngine([], { registry: [widgets] })).toThrow(
      'Resource widgets: no table. Export a Drizzle table named widgets (with id, workspaceId, createdAt, updatedAt) from apps/server/src/db/schema',
    );
  });

  it('its table without its migration stops the start, naming the table and how to generate it', async () => {
    // The engine binds the table: the declaration and the table agree.
    const engine = createResourceEngine(withTable, { registry: [widgets] });
    expect(engine.served[0]!.storage.uniqueFields).toContain('code');
    await expect(assertTablesExist(database.db, ['brands', 'widgets'])).rejects.toThrow(
      'The database has no table widgets, which the app uses: its migration is missing. Generate it from apps/server/src/db/schema with `npm run db:generate -w @dukkan/server -- --name <name>`',
    );
  });

  it('with its table and the migration generated from it, the storage, routes and sample are derived', async () => {
    // The migration drizzle-kit generates for the table added to the schema.
    const statements = await generateMigration(
      generateDrizzleJson(schema),
      generateDrizzleJson({ ...schema, widgets: widgetsTable }),
    );
    expect(statements.join('\n')).toContain('CREATE TABLE "widgets"');
    for (const statement of statements) await database.db.execute(sql.raw(statement));
    await assertTablesExist(database.db, ['widgets']);

    const engine = createResourceEngine(withTable, { registry: [widgets] });
    const app = Fastify();
    requireDeclaredAccess(app);
    const store = createLocalFileStore(mkdtempSync(join(tmpdir(), 'widgets-')));
    const worker = createImportWorker({
      db: database.db,
      store,
      dataOf: () => undefined,
      now: () => new Date(),
      log: console,
      embedded: true,
    });
    registerResources(app, database.db, engine, {
      store,
      worker,
      now: () => new Date(),
      events: createImportJobEvents(),
      eventsMaxMs: 0,
    });
    await app.ready();
    expect(declaredRoutes(app).map((route) => `${route.method} ${route.url}`)).toEqual(
      expect.arrayContaining([
        'GET /api/widgets',
        'GET /api/widgets/filters',
        'GET /api/widgets/:id',
        'POST /api/widgets',
        'POST /api/widgets/bulk',
        'PATCH /api/widgets/:id',
        'DELETE /api/widgets/:id',
      ]),
    );
    await app.close();

    // The sample the engine's tests use comes from the declared form; none is written for it.
    const workspace = await createWorkspace(database.db);
    const data = engine.served[0]!;
    const inputs = [sampleOf(widgets)({}, 0), { ...sampleOf(widgets)({}, 1), code: '' }];
    const created = await data.create(
      database.db,
      systemCaller(workspace.id),
      inputs.map((input) => widgets.schemas.create.parse(input)),
    );
    expect(created.map((record) => record.code)).toEqual([inputs[0]!.code, 'WID-0001']);
    const query = listQuerySchema(widgets).parse({
      workspaceId: workspace.id,
      search: String(inputs[1]!.note),
    });
    const found = await data.list(database.db, workspace.id, query, 'en');
    expect(found.records.map((record) => record.code)).toEqual(['WID-0001']);
  });

  it('a sample its form cannot make names the file to give it in', () => {
    expect(() => sampleOf({ ...widgets, form: undefined })({})).toThrow(
      'No sample for resource widgets: it declares no form to make one from; give one in apps/server/test/helpers/catalogue-samples.ts',
    );
  });

  it('the app refuses to start on a database without one of its tables, instead of answering 500', async () => {
    await database.db.execute(sql`drop table product_tags cascade`);
    await expect(createTestApp({ database })).rejects.toThrow(
      'The database has no table product_tags, which the app uses',
    );
  });
});
