import { sql } from 'drizzle-orm';
import type { Database } from './client.ts';

/**
 * A transaction that writes rows, with PostgreSQL's plan cache as it is by default: the
 * connections force a custom plan for every statement (design brief §6: generic plans defeat the
 * lists' trigram indexes), and PostgreSQL checks each written row's foreign keys through cached
 * plans, which that setting re-plans on every row. A product's 2,048 variants and 6,144 value
 * links took 180 and 500 ms to insert so, 65 and 120 ms with the default (PostgreSQL 15, EXPLAIN
 * ANALYZE: the foreign key triggers).
 */
export function writeTransaction<T>(db: Database, work: (tx: Database) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local plan_cache_mode = auto`);
    return work(tx);
  });
}
