import type { ResourceDefinition, WorkspaceGrant } from '@dukkan/contract';
import type { SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { Database } from '../db/client.ts';
import type { AppContext } from '../http/context.ts';

/** Who is asking, in which workspace: handed to every hook. */
export interface ResourceRequestContext {
  app: AppContext;
  /** The request's transaction when the hook runs inside one (writes), else the database. */
  db: Database;
  workspaceId: string;
  userId: string;
  grant: WorkspaceGrant;
}

/** The columns every resource table has. */
export interface ResourceTable extends PgTable {
  id: AnyPgColumn;
  workspaceId: AnyPgColumn;
  createdAt: AnyPgColumn;
  updatedAt: AnyPgColumn;
}

/** A stored row as the engine selects it: the table's columns plus the binding's extra selection. */
export type ResourceRow = Record<string, unknown>;

/**
 * How a declared resource is stored: its table, the column or expression behind each record
 * field the definition searches, sorts or filters on, and hooks for the rules the engine cannot
 * express. A new simple resource needs no hooks.
 */
export interface ResourceBinding<Def extends ResourceDefinition = ResourceDefinition> {
  definition: Def;
  table: ResourceTable;
  /** Record field → column or SQL expression (searched, sorted, filtered). */
  fields: Record<string, AnyPgColumn | SQL>;
  /**
   * The column `search` looks in instead of the declared fields one by one: a text kept from all
   * of them (both languages of localized names) under a trigram index. Default: each field.
   */
  searchColumn?: AnyPgColumn;
  /**
   * Input fields that name another record (`brandId`, `parentId`) → that record's table: a given
   * id must be a record of the same workspace, else `VALIDATION` with REFERENCE_NOT_FOUND.
   */
  references?: Record<string, ResourceTable>;
  /** Input fields unique per workspace besides `code` (checked across a bulk's rows). */
  uniqueFields?: readonly string[];
  /** Extra selected values beside the table's columns, e.g. a count of related rows. */
  extraSelection?: Record<string, SQL.Aliased | SQL>;
  /** Input → row values. Default: the input as is. */
  toRow?(input: Record<string, unknown>): Record<string, unknown>;
  /** Row (with extra selection) → the record of the contract. Default: the row, dates as ISO strings. */
  toRecord?(row: ResourceRow): z.infer<Def['schemas']['record']>;
  hooks?: {
    /**
     * Before create and update (after validation, inside the write's transaction): refuse or
     * adjust the input. On update `existing` is the stored row, already known to belong to the
     * request's workspace, and `input` holds only the fields the request names.
     */
    beforeWrite?(
      context: ResourceRequestContext,
      input: Record<string, unknown>,
      existing?: ResourceRow,
    ): Promise<void> | void;
    /** Before delete, in its transaction, with the row known to be the workspace's: refuse a delete the data still depends on. */
    beforeDelete?(context: ResourceRequestContext, existing: ResourceRow): Promise<void> | void;
  };
}

/** Checks that every field the definition searches, sorts or filters on has a column. */
export function bindResource<Def extends ResourceDefinition>(
  binding: ResourceBinding<Def>,
): ResourceBinding<Def> {
  for (const field of [
    ...binding.definition.search,
    ...binding.definition.sort,
    ...binding.definition.filters.map((f) => f.field),
  ]) {
    if (!(field in binding.fields)) {
      throw new Error(`Resource ${binding.definition.key}: field ${field} has no column binding`);
    }
  }
  return binding;
}
