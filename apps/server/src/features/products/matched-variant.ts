import { type SQL, sql } from 'drizzle-orm';
import { products } from '../../db/schema/index.ts';
import type { SearchPatterns } from '../../resource-engine/storage.ts';

/** Whether a folded text holds the search: its words in their order, within one field. */
const holds = (text: SQL, { pattern, within }: SearchPatterns) =>
  sql`(${text} like ${pattern} and (${within} is null or ${text} ~ ${within}))`;

/**
 * The variant a searched list found a product by, for its record's `matchedVariant`: null where
 * the product's own fields (its code and names: `search_text` without `variant_codes`) hold the
 * search, else the variant of the first code that holds it — one that is the typed words before
 * one that only contains them, then in the product's order — as `{ id, title, sku, barcode }`,
 * its title made as a variant's is (`variantTitle`: the values' names in type order, each locale
 * by its comma, a value without a name in it by its other one).
 *
 * The codes are read from the product's row, not folded again per variant: `variant_codes` is its
 * variants' SKUs and barcodes in position order parted by spaces, and `search_text` ends with it
 * folded (`search_fold` maps characters one by one and leaves spaces alone, so the i-th word of
 * each is the same code). The first folded word that holds the search names the code; the variant
 * is the product's that has it. (Folding every variant's codes instead: a page of 20 products of
 * 2,048 variants, every code holding the search, took 3.3–6.4 s against 50–124 ms, PostgreSQL 15
 * at a load average of 13–14.) A code with a space in it is found by a word of it, so a search whose words
 * span that space names no variant. Another workspace's variant cannot be one: the variant is the
 * product's, in the product's workspace. Only a page's rows compute it, and a product found by its
 * own fields reads no code (the `case` reaches the subquery only for the others).
 */
export function matchedVariant(search: SearchPatterns): SQL {
  const own = sql`search_fold(coalesce(${products.code}, '') || chr(31) || coalesce(${products.nameEn}, '') || chr(31) || coalesce(${products.nameAr}, ''))`;
  // The words alone, without the pattern's leading and trailing `%`: a code that is them.
  const exact = sql`substr(${search.pattern}, 2, length(${search.pattern}) - 2)`;
  // `variant_codes` folded: the last field of `search_text` (db/schema/products.ts).
  const foldedCodes = sql`split_part(${products.searchText}, chr(31), -1)`;
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
    from (
      select code.n
      from unnest(string_to_array(${foldedCodes}, ' ')) with ordinality code(folded, n)
      where ${holds(sql`code.folded`, search)}
      order by code.folded like ${exact} desc, code.n
      limit 1
    ) word
    -- The code as stored, cut once (\`offset 0\`: pulled up, it was cut again for every variant).
    cross join lateral (select split_part(${products.variantCodes}, ' ', word.n::int) as code offset 0) found
    cross join lateral (
      select variant.id, variant.workspace_id, variant.sku, variant.barcode
      from "product_variants" variant
      where variant.workspace_id = ${products.workspaceId} and variant.product_id = ${products.id}
        and (strpos(variant.sku, found.code) > 0 or strpos(variant.barcode, found.code) > 0)
      order by coalesce(variant.sku = found.code or variant.barcode = found.code, false) desc, variant.position
      limit 1
    ) variant
  ) end)`;
}
