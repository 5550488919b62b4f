/**
 * What a benchmark's data takes on disk: each table's total, heap and index sizes and each of its
 * indexes, read after seeding (the same query on PGlite and on PostgreSQL).
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../../apps/server/src/db/client.ts';

export interface TableSize {
  table: string;
  rows: number;
  /** `pg_total_relation_size`: heap, indexes and TOAST. */
  totalBytes: number;
  /** `pg_relation_size`: the heap's main fork. */
  heapBytes: number;
  /** `pg_indexes_size`: all its indexes. */
  indexesBytes: number;
  /** Each index (`pg_relation_size(indexrelid)`), by name. */
  indexes: { name: string; bytes: number; definition: string }[];
}

export async function tableSizes(db: Database, tables: string[]): Promise<TableSize[]> {
  const sizes: TableSize[] = [];
  for (const table of tables) {
    const { rows } = (await db.execute(sql`
      SELECT pg_total_relation_size(c.oid)::float8 AS total, pg_relation_size(c.oid)::float8 AS heap,
        pg_indexes_size(c.oid)::float8 AS indexes, c.reltuples::float8 AS rows
      FROM pg_class c WHERE c.oid = to_regclass(${table})
    `)) as unknown as { rows: { total: number; heap: number; indexes: number; rows: number }[] };
    const row = rows[0];
    if (!row) continue;
    const { rows: indexes } = (await db.execute(sql`
      SELECT c.relname AS name, pg_relation_size(i.indexrelid)::float8 AS bytes,
        pg_get_indexdef(i.indexrelid) AS definition
      FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
      WHERE i.indrelid = to_regclass(${table})
      ORDER BY c.relname
    `)) as unknown as { rows: { name: string; bytes: number; definition: string }[] };
    sizes.push({
      table,
      rows: Number(row.rows),
      totalBytes: Number(row.total),
      heapBytes: Number(row.heap),
      indexesBytes: Number(row.indexes),
      indexes: indexes.map((index) => ({ ...index, bytes: Number(index.bytes) })),
    });
  }
  return sizes;
}

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

/** One line per table, as the benchmarks print them after seeding. */
export const sizesLine = (sizes: TableSize[]) =>
  sizes
    .map(
      (size) =>
        `${size.table} ${mib(size.totalBytes)} (heap ${mib(size.heapBytes)}, ${size.indexes.length} indexes ${mib(size.indexesBytes)})`,
    )
    .join('; ');
