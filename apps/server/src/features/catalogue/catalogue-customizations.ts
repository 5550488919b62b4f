import { validationCodes } from '@dukkan/contract';
import { and, eq, sql } from 'drizzle-orm';
import { getTableConfig } from 'drizzle-orm/pg-core';
import { recordAudit } from '../../db/audit-log.ts';
import {
  categories,
  customers,
  locations,
  products,
  recipeLines,
  wasteCategories,
} from '../../db/schema/index.ts';
import { lockUntilCommit } from '../../db/transaction-lock.ts';
import { validationError } from '../../errors.ts';
import { inUseNamesShown } from '../../resource-engine/data.ts';
import type {
  HookContext,
  RecordUsers,
  ResourceCustomization,
  ResourceHooks,
  ResourceRow,
} from '../../resource-engine/storage.ts';

/**
 * A tree of records linked by `parentId` (categories, waste categories): a record cannot move
 * under itself or any of its descendants, or the branch would leave the tree. One recursive
 * query walks up from the new parent, inside the workspace, and refuses the move if it meets the
 * record (UNION stops at a loop already stored). Moves in one workspace's tree wait for each
 * other first: two concurrent moves closing a loop (A under C while C's parent B goes under A)
 * would otherwise each pass the check. A new record has no descendants, so only an update is
 * checked.
 */
function treeParentHooks(table: typeof categories | typeof wasteCategories): ResourceHooks {
  const tableName = getTableConfig(table).name;
  return {
    async beforeWrite({ db, workspaceId }, input, existing) {
      const parentId = input.parentId;
      if (!existing || typeof parentId !== 'string') return;
      await lockUntilCommit(db, tableName, workspaceId);
      const found = await db.execute(sql`
        with recursive ancestors (id, parent_id) as (
          select id, parent_id from ${table} where workspace_id = ${workspaceId} and id = ${parentId}
          union
          select parent.id, parent.parent_id
          from ${table} parent join ancestors on parent.id = ancestors.parent_id
          where parent.workspace_id = ${workspaceId}
        )
        select 1 from ancestors where id = ${existing.id as string} limit 1`);
      // Both drivers answer `{ rows }`.
      if ((found as unknown as { rows: unknown[] }).rows.length > 0) {
        throw validationError([{ path: 'parentId', message: validationCodes.PARENT_IS_DESCENDANT }]);
      }
    },
  };
}

/** The users a query found: its rows' names (`name_en`, `name_ar`) and their `total`. */
function recordUsers(found: unknown): RecordUsers {
  const rows = (found as { rows: { name_en: string | null; name_ar: string | null; total: number }[] }).rows;
  return {
    count: Number(rows[0]?.total ?? 0),
    names: rows.map((row) => [
      ...(row.name_en ? [{ locale: 'en', value: row.name_en }] : []),
      ...(row.name_ar ? [{ locale: 'ar', value: row.name_ar }] : []),
    ]),
  };
}

/**
 * Who uses a brand: its locations, and the products whose recipe lines name it (a line's brands
 * are a list of ids, which no foreign key guards, so without this check a deleted brand would
 * stay behind in recipes).
 */
async function brandUsers({ db, workspaceId }: HookContext, brand: ResourceRow): Promise<RecordUsers> {
  const found = await db.execute(sql`
    with users as (
      select name_en, name_ar, code from ${locations}
      where workspace_id = ${workspaceId} and brand_id = ${brand.id as string}
      union all
      select distinct p.name_en, p.name_ar, p.code from ${recipeLines} line
      join ${products} p on p.id = line.product_id and p.workspace_id = line.workspace_id
      where line.workspace_id = ${workspaceId} and ${brand.id as string}::uuid = any(line.brand_ids)
    )
    select name_en, name_ar, count(*) over () as total from users order by code limit ${inUseNamesShown}`);
  return recordUsers(found);
}

/**
 * A deleted brand leaves its customers without a brand. The delete clears them itself: the
 * reference is keyed by workspace, where Citus refuses `ON DELETE SET NULL` (`workspace-keys.ts`).
 */
async function clearCustomersBrand({ db, workspaceId }: HookContext, brand: ResourceRow): Promise<void> {
  const cleared = await db
    .update(customers)
    .set({ brandId: null })
    .where(and(eq(customers.workspaceId, workspaceId), eq(customers.brandId, brand.id as string)))
    .returning({ id: customers.id });
  // Each customer changed: one row each, as if the brand had been cleared on its form.
  await recordAudit(
    db,
    cleared.map(({ id }) => ({
      workspaceId,
      action: 'update',
      resource: 'customers',
      recordId: id,
      changes: { brandId: [brand.id, null] },
    })),
  );
}

/**
 * Who uses a tax: the products that name it (`products.tax_id`, read on its index). The foreign
 * key alone would refuse the delete without saying which products.
 */
async function taxUsers({ db, workspaceId }: HookContext, tax: ResourceRow): Promise<RecordUsers> {
  const found = await db.execute(sql`
    select name_en, name_ar, count(*) over () as total from ${products}
    where workspace_id = ${workspaceId} and tax_id = ${tax.id as string}
    order by code limit ${inUseNamesShown}`);
  return recordUsers(found);
}

/**
 * What the catalogue's resources add to their declarations: a brand's count of locations, a
 * customer's phones kept as one text for search (array_to_string is not immutable, so a
 * generated column cannot hold it), the category trees' refusal of parent loops, and the products
 * a used tax names.
 */
export const catalogueCustomizations: readonly ResourceCustomization[] = [
  {
    key: 'brands',
    hooks: { usedBy: brandUsers, beforeDelete: clearCustomersBrand },
    // Written out qualified: an unqualified "id" inside the subquery would mean the location's own id.
    computed: {
      locationsCount: sql<number>`(select count(*) from "locations"
        where "locations"."brand_id" = "brands"."id" and "locations"."workspace_id" = "brands"."workspace_id")`.mapWith(
        Number,
      ),
    },
  },
  {
    key: 'customers',
    searchedAs: { phones: customers.phonesText },
    derivedValues: (input) =>
      Array.isArray(input.phones) ? { phonesText: (input.phones as string[]).join(' ') } : {},
  },
  { key: 'taxes', hooks: { usedBy: taxUsers } },
  { key: 'categories', hooks: treeParentHooks(categories) },
  { key: 'wasteCategories', hooks: treeParentHooks(wasteCategories) },
];
