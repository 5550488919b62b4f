import type { ProductReference } from '@dukkan/contract';
import { sql } from 'drizzle-orm';
import type { HookContext } from '../../resource-engine/storage.ts';

interface ReferenceRow {
  product_id: string;
  id: string;
  name_en: string | null;
  name_ar: string | null;
  symbol: string | null;
}

/**
 * The names of the records each product refers to — its unit (with its symbol), category, waste
 * category, tax (its title), tags, chosen types and values, and its recipe's brands and ingredients' units — by
 * id, in one query. A product's page shows them to a reader who may view products but not list
 * those resources (a cashier with only viewProducts would otherwise see blanks).
 */
export async function loadProductReferences(
  { db, workspaceId }: HookContext,
  productIds: readonly string[],
): Promise<Map<string, Record<string, ProductReference>>> {
  const byProduct = new Map<string, Record<string, ProductReference>>(productIds.map((id) => [id, {}]));
  if (productIds.length === 0) return byProduct;
  const found = await db.execute(sql`
    with p as (
      select id, measurement_unit_id, category_id, waste_category_id, tax_id, tag_ids, options
      from products where workspace_id = ${workspaceId} and id = any(${sql.param([...productIds])}::uuid[])
    ),
    chosen as (
      select p.id as product_id, (o ->> 'typeId')::uuid as type_id, o -> 'valueIds' as value_ids
      from p, jsonb_array_elements(p.options) o
    ),
    lines as (
      select line.product_id, line.brand_ids, ingredient.measurement_unit_id
      from recipe_lines line
      join products ingredient
        on ingredient.id = line.ingredient_product_id and ingredient.workspace_id = line.workspace_id
      where line.workspace_id = ${workspaceId} and line.product_id in (select id from p)
    ),
    refs (product_id, kind, id) as (
      select id, 'unit', measurement_unit_id from p
      union select id, 'category', category_id from p where category_id is not null
      union select id, 'wasteCategory', waste_category_id from p where waste_category_id is not null
      union select id, 'tax', tax_id from p where tax_id is not null
      union select p.id, 'tag', tag from p, unnest(p.tag_ids) tag
      union select product_id, 'type', type_id from chosen
      union select product_id, 'value', value::uuid from chosen, jsonb_array_elements_text(value_ids) value
      union select product_id, 'brand', brand from lines, unnest(lines.brand_ids) brand
      union select product_id, 'unit', measurement_unit_id from lines
    )
    select refs.product_id, refs.id, names.name_en, names.name_ar, names.symbol
    from refs cross join lateral (
      select name_en, name_ar, symbol from measurement_units where workspace_id = ${workspaceId} and refs.kind = 'unit' and id = refs.id
      union all select name_en, name_ar, null from categories where workspace_id = ${workspaceId} and refs.kind = 'category' and id = refs.id
      union all select name_en, name_ar, null from waste_categories where workspace_id = ${workspaceId} and refs.kind = 'wasteCategory' and id = refs.id
      union all select title_en, title_ar, null from taxes where workspace_id = ${workspaceId} and refs.kind = 'tax' and id = refs.id
      union all select name_en, name_ar, null from product_tags where workspace_id = ${workspaceId} and refs.kind = 'tag' and id = refs.id
      union all select name_en, name_ar, null from variation_types where workspace_id = ${workspaceId} and refs.kind = 'type' and id = refs.id
      union all select name_en, name_ar, null from variation_values where workspace_id = ${workspaceId} and refs.kind = 'value' and id = refs.id
      union all select name_en, name_ar, null from brands where workspace_id = ${workspaceId} and refs.kind = 'brand' and id = refs.id
    ) names`);
  for (const row of (found as unknown as { rows: ReferenceRow[] }).rows) {
    byProduct.get(row.product_id)![row.id] = {
      name: [
        ...(row.name_en ? [{ locale: 'en' as const, value: row.name_en }] : []),
        ...(row.name_ar ? [{ locale: 'ar' as const, value: row.name_ar }] : []),
      ],
      ...(row.symbol ? { symbol: row.symbol } : {}),
    };
  }
  return byProduct;
}
