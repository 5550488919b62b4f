import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeTransaction } from '../src/db/write-transaction.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const planCacheMode = async (db: TestApp['db']) => {
  const result = await db.execute(sql`show plan_cache_mode`);
  return (result as unknown as { rows: { plan_cache_mode: string }[] }).rows[0]?.plan_cache_mode;
};

// PGlite's connection keeps PostgreSQL's default: only the server's pool forces custom plans.
describe.runIf(process.env.DATABASE_URL)('writeTransaction (PostgreSQL only)', () => {
  it("runs with the default plan cache, and leaves the connection's forced custom plans outside", async () => {
    expect(await planCacheMode(t.db)).toBe('force_custom_plan');
    expect(await writeTransaction(t.db, (tx) => planCacheMode(tx))).toBe('auto');
    expect(await planCacheMode(t.db)).toBe('force_custom_plan');
  });
});
