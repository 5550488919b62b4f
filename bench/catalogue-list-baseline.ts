/**
 * The bare baseline of catalogue-list.ts (list-baseline.ts): every request replays the statements
 * the real server sent for the benchmark's `GET /api/customers` on the same driver and settings,
 * and answers the same `{ data, meta }` JSON, the records from the statement that returns
 * customers rows.
 *
 * Environment: BASELINE_PLAN (a JSON file: statements, page, pageSize), DATABASE_URL or DATA_DIR,
 * DATABASE_POOL_SIZE (10), HOST, PORT. `GET /api/health` answers 200 for the start check.
 */
import { catalogueRecordHead, type Row, serveListBaseline } from './list-baseline.ts';

/** A customers row (snake_case, as selected) → the record of the contract, in its field order. */
function customerRecord(row: Row) {
  return {
    ...catalogueRecordHead(row),
    name: row.name,
    phones: row.phones,
    source: row.source,
    brandId: row.brand_id,
  };
}

await serveListBaseline({ isRecord: (row) => 'id' in row, record: customerRecord });
