import { is, sql } from 'drizzle-orm';
import {
  foreignKey,
  getTableConfig,
  IndexedColumn,
  index,
  integer,
  PgTable,
  pgTable,
  primaryKey,
  text,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import * as schema from '../src/db/schema/index.ts';
import { brands, workspaces } from '../src/db/schema/index.ts';

/*
 * The rules a distributed PostgreSQL (Citus) sets for a schema sharded by `workspace_id`
 * (`src/db/schema/workspace-keys.ts`), held over the Drizzle schema so that the next table cannot
 * slip: every table is either a workspace table (it has `workspace_id`) or a named global one.
 */

/** The tables without `workspace_id`: reference or local tables on Citus (docs/running-on-citus.md). */
const globalTables = new Set([
  'users',
  'workspaces',
  'sessions',
  'password_tokens',
  'access_requests',
  'applications',
  'oauth_models',
  'oauth_signing_keys',
  'app_meta',
  'used_captchas',
  'rate_limits',
  'sign_in_events',
  'user_factors',
  'recovery_codes',
  'auth_challenges',
  // A provider's event ids are its own, global: an event is looked up before its invoice is known.
  'payment_events',
]);

const isWorkspaceTable = (table: PgTable) =>
  getTableConfig(table).columns.some((column) => column.name === 'workspace_id');

/** Every rule a table breaks, each naming the table and the constraint. */
function workspaceKeyViolations(tables: readonly PgTable[]): string[] {
  const workspaceTables = new Set(tables.filter(isWorkspaceTable));
  const violations: string[] = [];
  for (const table of tables) {
    const config = getTableConfig(table);
    const name = config.name;
    if (!workspaceTables.has(table)) {
      if (!globalTables.has(name))
        violations.push(`${name}: has no workspace_id and is not named among the global tables`);
      for (const reference of config.foreignKeys) {
        const { foreignTable } = reference.reference();
        if (workspaceTables.has(foreignTable))
          violations.push(
            `${name}: foreign key ${reference.getName()} points at the workspace table ${getTableConfig(foreignTable).name} from a global table`,
          );
      }
      continue;
    }

    const columnKeys = config.columns.filter((column) => column.primary).map((column) => column.name);
    const keys = [
      ...config.primaryKeys.map((key) => key.columns.map((column) => column.name)),
      ...(columnKeys.length ? [columnKeys] : []),
    ];
    if (keys.length === 0) violations.push(`${name}: has no primary key`);
    for (const key of keys)
      if (key[0] !== 'workspace_id')
        violations.push(`${name}: primary key (${key.join(', ')}) does not lead with workspace_id`);

    for (const { config: indexConfig } of config.indexes) {
      if (!indexConfig.unique) continue;
      const first = indexConfig.columns[0];
      if (!(first instanceof IndexedColumn) || first.name !== 'workspace_id')
        violations.push(`${name}: unique index ${indexConfig.name} does not lead with workspace_id`);
    }
    for (const constraint of config.uniqueConstraints)
      if (constraint.columns[0]?.name !== 'workspace_id')
        violations.push(`${name}: unique constraint ${constraint.getName()} does not lead with workspace_id`);
    for (const column of config.columns)
      if (column.isUnique && column.name !== 'workspace_id')
        violations.push(`${name}: unique column ${column.name} is unique without workspace_id`);

    for (const reference of config.foreignKeys) {
      const { columns, foreignColumns, foreignTable } = reference.reference();
      if (!workspaceTables.has(foreignTable)) continue;
      const constraint = `foreign key ${reference.getName()} to ${getTableConfig(foreignTable).name}`;
      const at = columns.findIndex((column) => column.name === 'workspace_id');
      if (at === -1 || foreignColumns[at]?.name !== 'workspace_id')
        violations.push(`${name}: ${constraint} does not pair workspace_id with workspace_id`);
      if (reference.onDelete === 'set null' || reference.onDelete === 'set default')
        violations.push(`${name}: ${constraint} sets columns on delete (${reference.onDelete})`);
      if (reference.onUpdate && reference.onUpdate !== 'no action' && reference.onUpdate !== 'restrict')
        violations.push(`${name}: ${constraint} acts on update (${reference.onUpdate})`);
    }
  }
  return violations;
}

const schemaTables = Object.values(schema as Record<string, unknown>).filter((value): value is PgTable =>
  is(value, PgTable),
);

describe('the schema can be sharded by workspace', () => {
  it('finds every table: the workspace ones and the global ones', () => {
    const names = schemaTables.map((table) => getTableConfig(table).name);
    expect(names).toEqual(expect.arrayContaining([...globalTables]));
    expect(schemaTables.filter(isWorkspaceTable).length).toBeGreaterThanOrEqual(24);
  });

  it('keys, unique indexes and references of every workspace table include workspace_id', () => {
    expect(workspaceKeyViolations(schemaTables)).toEqual([]);
  });
});

// Broken tables, one rule each, beside a sound one: what the rules must catch.
const base = () => ({
  id: uuid('id').notNull(),
  workspaceId: uuid('workspace_id')
    .notNull()
    .references(() => workspaces.id),
});
const sound = pgTable('sound_notes', { ...base(), brandId: uuid('brand_id') }, (table) => [
  primaryKey({ columns: [table.workspaceId, table.id] }),
  uniqueIndex('sound_notes__id__unique').on(table.workspaceId, table.brandId),
  foreignKey({
    columns: [table.workspaceId, table.brandId],
    foreignColumns: [brands.workspaceId, brands.id],
  }),
]);
const broken = [
  pgTable('keyed_by_id', { id: uuid('id').primaryKey(), workspaceId: uuid('workspace_id').notNull() }),
  pgTable('unique_without_workspace', { ...base(), code: text('code') }, (table) => [
    primaryKey({ columns: [table.workspaceId, table.id] }),
    uniqueIndex('unique_without_workspace__code__unique').on(table.code, table.workspaceId),
  ]),
  pgTable('unique_expression', { ...base(), code: text('code') }, (table) => [
    primaryKey({ columns: [table.workspaceId, table.id] }),
    uniqueIndex('unique_expression__code__unique').on(sql`lower(${table.code})`),
  ]),
  pgTable('unique_constraint', { ...base(), code: text('code') }, (table) => [
    primaryKey({ columns: [table.workspaceId, table.id] }),
    unique('unique_constraint_code').on(table.code),
  ]),
  pgTable('unique_column', { ...base(), code: text('code').unique() }, (table) => [
    primaryKey({ columns: [table.workspaceId, table.id] }),
  ]),
  pgTable(
    'reference_by_id',
    { ...base(), brandId: uuid('brand_id').references(() => brands.id) },
    (table) => [primaryKey({ columns: [table.workspaceId, table.id] })],
  ),
  pgTable('reference_set_null', { ...base(), brandId: uuid('brand_id') }, (table) => [
    primaryKey({ columns: [table.workspaceId, table.id] }),
    foreignKey({
      name: 'reference_set_null_brand_fk',
      columns: [table.workspaceId, table.brandId],
      foreignColumns: [brands.workspaceId, brands.id],
    }).onDelete('set null'),
  ]),
  pgTable('no_key', { ...base(), position: integer('position') }, (table) => [
    index('no_key_idx').on(table.id),
  ]),
  pgTable('global_pointing_in', {
    id: uuid('id').primaryKey(),
    brandId: uuid('brand_id').references(() => brands.id),
  }),
];

describe('the rules fail a broken table, naming it and its constraint', () => {
  it('passes a sound table', () => {
    expect(workspaceKeyViolations([...schemaTables, sound])).toEqual([]);
  });

  it('names each broken table and constraint', () => {
    expect(workspaceKeyViolations([...schemaTables, ...broken])).toEqual([
      'keyed_by_id: primary key (id) does not lead with workspace_id',
      'unique_without_workspace: unique index unique_without_workspace__code__unique does not lead with workspace_id',
      'unique_expression: unique index unique_expression__code__unique does not lead with workspace_id',
      'unique_constraint: unique constraint unique_constraint_code does not lead with workspace_id',
      'unique_column: unique column code is unique without workspace_id',
      'reference_by_id: foreign key reference_by_id_brand_id_brands_id_fk to brands does not pair workspace_id with workspace_id',
      'reference_set_null: foreign key reference_set_null_brand_fk to brands sets columns on delete (set null)',
      'no_key: has no primary key',
      'global_pointing_in: has no workspace_id and is not named among the global tables',
      'global_pointing_in: foreign key global_pointing_in_brand_id_brands_id_fk points at the workspace table brands from a global table',
    ]);
  });
});
