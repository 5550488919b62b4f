import { type AnyPgColumn, foreignKey, primaryKey, uuid } from 'drizzle-orm/pg-core';
import { timeOrderedId } from '../ids.ts';

/*
 * Every table whose rows belong to a workspace is keyed and referenced by the workspace first, so
 * a distributed PostgreSQL (Citus) can shard the schema by `workspace_id` and keep a workspace's
 * rows on one node (decision 0030, docs/running-on-citus.md):
 *
 * - its primary key is `(workspace_id, <key>)`, and every unique index leads with `workspace_id`;
 * - a reference to another workspace table's record is `(workspace_id, <column>)` →
 *   `(workspace_id, id)`, so a record can only ever point inside its own workspace;
 * - no reference sets a column to null on delete: a distribution column is part of each key, and
 *   Citus refuses `ON DELETE SET NULL` there, with or without PostgreSQL 15's column list. The
 *   delete clears the column itself (a brand's customers, `catalogue-customizations.ts`).
 *
 * The global tables (users, sessions, password tokens, access requests, applications, the OAuth
 * models and signing keys, app meta, used captchas, rate limits, sign-in events and the workspaces
 * themselves) are reference or local tables there; none of them references a workspace table.
 * `test/workspace-keys.test.ts` holds the schema to these rules.
 */

/**
 * The id of a workspace table's record, made by the server when a row is inserted without one:
 * time-ordered (`timeOrderedId`), so that a new record's key, and the History index of its audit
 * row, grow at their end rather than anywhere (decision 0058). The database's random default
 * stays for rows written by SQL alone.
 */
export const recordId = () =>
  uuid('id')
    .notNull()
    .defaultRandom()
    .$defaultFn(() => timeOrderedId());

/** The primary key of a workspace table: `(workspace_id, key)`, named as PostgreSQL names one. */
export const workspaceKey = (table: string, workspaceId: AnyPgColumn, key: AnyPgColumn) =>
  primaryKey({ name: `${table}_pkey`, columns: [workspaceId, key] });

/**
 * A reference from `table.column` to a record of `target` in the same workspace, named
 * `<table>_<column>_fk`; chain `.onDelete('cascade')` where the record goes with its target.
 */
export const workspaceReference = (
  table: string,
  from: { workspaceId: AnyPgColumn; column: AnyPgColumn },
  target: { workspaceId: AnyPgColumn; id: AnyPgColumn },
) =>
  foreignKey({
    name: `${table}_${from.column.name}_fk`,
    columns: [from.workspaceId, from.column],
    foreignColumns: [target.workspaceId, target.id],
  });
