import { defaultTimeZone } from '@dukkan/contract';
import { eq } from 'drizzle-orm';
import type { Database } from './client.ts';
import { workspaces } from './schema/index.ts';

/**
 * A workspace's IANA time zone (its settings): what its "today", its due dates and the dates of
 * its mails are reckoned in. The default zone for a workspace that no longer exists.
 */
export async function workspaceTimeZone(db: Database, workspaceId: string): Promise<string> {
  const [row] = await db
    .select({ timeZone: workspaces.timeZone })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId));
  return row?.timeZone ?? defaultTimeZone;
}
