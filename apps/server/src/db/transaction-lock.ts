import { sql } from 'drizzle-orm';
import type { Database } from './client.ts';

/**
 * Waits until no other transaction holds the lock named by `scope` and `key`, and holds it until
 * this transaction ends (a PostgreSQL advisory lock; PGlite has one connection, so it never
 * waits there). A check that reads before it writes — no loop in a tree, no SKU taken twice —
 * takes it first, so two writers cannot both pass the check with what the other is writing.
 */
export async function lockUntilCommit(db: Database, scope: string, key: string): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtext(${scope}), hashtext(${key}))`);
}
