/**
 * The bare baseline of products-list.ts, as catalogue-list-baseline.ts is the customers list's
 * (list-baseline.ts): every request replays the statements the real server sent for the
 * benchmark's `GET /api/products` on the same driver and settings, and answers the same
 * `{ data, meta }` JSON, the records from the statement that returns products rows.
 *
 * Environment: BASELINE_PLAN (a JSON file: statements, page, pageSize), DATABASE_URL or DATA_DIR,
 * DATABASE_POOL_SIZE (10), HOST, PORT. `GET /api/health` answers 200 for the start check.
 */
import { catalogueRecordHead, type Row, serveListBaseline } from './list-baseline.ts';

/** A products row (snake_case, as selected) → the record of the contract, in its field order. */
function productRecord(row: Row) {
  return {
    ...catalogueRecordHead(row),
    name: [
      ...(row.name_en ? [{ locale: 'en', value: row.name_en }] : []),
      ...(row.name_ar ? [{ locale: 'ar', value: row.name_ar }] : []),
    ],
    measurementUnitId: row.measurement_unit_id,
    categoryId: row.category_id,
    wasteCategoryId: row.waste_category_id,
    tagIds: row.tag_ids,
    images: row.images,
    options: row.options,
    variantsCount: row.variants_count,
  };
}

if (process.env.BASELINE_PLAN)
  void serveListBaseline({ isRecord: (row) => 'variants_count' in row, record: productRecord });
