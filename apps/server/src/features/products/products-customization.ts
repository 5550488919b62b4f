import { sql } from 'drizzle-orm';
import { products } from '../../db/schema/index.ts';
import type { ResourceCustomization } from '../../resource-engine/storage.ts';

/**
 * What products add to their declaration: the variants and recipe the feature writes with the
 * product, a search that finds a product by a variant's SKU or barcode, a tag filter that finds
 * a tag among a product's tags, and a category filter that takes in the sub-categories.
 */
export const productsCustomization: ResourceCustomization = {
  key: 'products',
  writtenByFeature: ['variants', 'recipe'],
  searchedAs: { variants: products.variantCodes },
  filteredAs: {
    tagIds: (ids) => sql`${products.tagIds} && (${ids})::uuid[]`,
    categoryId: (ids, workspaceId) => sql`${products.categoryId} in (
      with recursive tree (id) as (
        select id from "categories" where workspace_id = ${workspaceId} and id = any((${ids})::uuid[])
        union
        select child.id from "categories" child join tree on child.parent_id = tree.id
      )
      select id from tree)`,
  },
};
