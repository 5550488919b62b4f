import { type SQL, sql } from 'drizzle-orm';
import { products } from '../../db/schema/index.ts';
import type { SearchPatterns } from '../../resource-engine/storage.ts';

/** Whether a folded text holds the search: its words in their order, within one field. */
const holds = (text: SQL, { pattern, within }: SearchPatterns) =>
  sql`(${text} like ${pattern} and (${within} is null or ${text} ~ ${within}))`;

/**
 * The variant a searched list found a product by, for its record's `matchedVariant`: null where
 * the product's own fields (its code and names: `search_text` without `variant_codes`) hold the
 * search, else the first variant whose SKU or barcode holds it — one that is the typed words
 * before one that only contains them, then in the product's order — as
 * `{ id, title, sku, barcode }`, its title made as a variant's is (`variantTitle`: the values'
 * names in type order, each locale by its comma, a value without a name in it by its other one).
 * Another workspace's variant cannot be one: the variant is the product's, in the product's
 * workspace. A page's rows alone compute it, and a product found by its own fields reads no
 * variant (the `case` reaches the subquery only for the others).
 */
export function matchedVariant(search: SearchPatterns): SQL {
  const own = sql`search_fold(coalesce(${products.code}, '') || chr(31) || coalesce(${products.nameEn}, '') || chr(31) || coalesce(${products.nameAr}, ''))`;
  // The words alone, without the pattern's leading and trailing `%`: a code that is them.
  const exact = sql`substr(${search.pattern}, 2, length(${search.pattern}) - 2)`;
  const sku = sql`search_fold(variant.sku)`;
  const barcode = sql`search_fold(variant.barcode)`;
  return sql`(case when ${holds(own, search)} then null else (
    select json_build_object(
      'id', variant.id,
      'title', (
        select coalesce(json_agg(json_build_object('locale', part.locale, 'value', part.value) order by part.n), '[]'::json)
        from (
          select
            string_agg(coalesce(value.name_en, value.name_ar), ', ' order by link.position) as en,
            bool_or(value.name_en is not null) as has_en,
            string_agg(coalesce(value.name_ar, value.name_en), '، ' order by link.position) as ar,
            bool_or(value.name_ar is not null) as has_ar
          from "product_variant_values" link
          join "variation_values" value on value.workspace_id = link.workspace_id and value.id = link.value_id
          where link.workspace_id = variant.workspace_id and link.variant_id = variant.id
        ) names,
        lateral (values (1, 'en', names.en, names.has_en), (2, 'ar', names.ar, names.has_ar)) part(n, locale, value, present)
        where part.present
      ),
      'sku', variant.sku,
      'barcode', variant.barcode
    )
    from "product_variants" variant
    where variant.workspace_id = ${products.workspaceId} and variant.product_id = ${products.id}
      and (${holds(sku, search)} or ${holds(barcode, search)})
    order by coalesce(${sku} like ${exact} or ${barcode} like ${exact}, false) desc, variant.position
    limit 1
  ) end)`;
}
