import { asc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { variationTypes } from '../../db/schema/index.ts';

/**
 * The workspace's variation types in the order a products file gives them a column each (by
 * code): the export writes a column per type, and the import reads one back by the type's name.
 */
export function variationTypeColumns(db: Database, workspaceId: string) {
  return db
    .select({ id: variationTypes.id, nameEn: variationTypes.nameEn, nameAr: variationTypes.nameAr })
    .from(variationTypes)
    .where(eq(variationTypes.workspaceId, workspaceId))
    .orderBy(asc(variationTypes.code), asc(variationTypes.id));
}
