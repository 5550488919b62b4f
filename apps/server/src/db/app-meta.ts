import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Database } from './client.ts';
import { appMeta } from './schema/index.ts';

/**
 * A secret generated on first use and kept in the database, so every instance on the same
 * database agrees on it and nothing has to be configured.
 */
export async function getOrCreateSecret(db: Database, key: string): Promise<string> {
  await db
    .insert(appMeta)
    .values({ key, value: randomBytes(32).toString('base64url') })
    .onConflictDoNothing();
  const [row] = await db.select({ value: appMeta.value }).from(appMeta).where(eq(appMeta.key, key)).limit(1);
  if (!row) throw new Error(`Secret ${key} could not be stored`);
  return row.value;
}
