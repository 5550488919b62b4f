import { sql } from 'drizzle-orm';
import type { Database } from '../../src/db/client.ts';

/**
 * The kind of lock (`advisory`, `transactionid`, …) a session of this database is first seen
 * waiting for while `pending` runs, or 'none' if `pending` settles without anyone waiting. A
 * test of two writes at once holds the first one's transaction open, starts the second, and asks
 * this what the second waited for (PostgreSQL only: PGlite has one connection).
 */
export async function firstLockWait(db: Database, pending: Promise<unknown>): Promise<string> {
  let settled = false;
  const done = () => {
    settled = true;
  };
  pending.then(done, done);
  while (!settled) {
    const waiting = await db.execute(sql`
      select lock.locktype from pg_locks lock join pg_stat_activity activity on activity.pid = lock.pid
      where activity.datname = current_database() and not lock.granted limit 1`);
    const [row] = (waiting as unknown as { rows: { locktype: string }[] }).rows;
    if (row) return row.locktype;
  }
  return 'none';
}
