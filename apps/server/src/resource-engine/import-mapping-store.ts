import { type ImportMapping, importMappingLimits } from '@dukkan/contract';
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { importMappings } from '../db/schema/index.ts';

/*
 * The column mapping a workspace remembers for each list (decision 0046, `import_mappings`):
 * saved when a check or an import with a mapping is accepted, read by the preview. Every read and
 * write names the caller's workspace: another workspace's mapping is never read.
 */

/** The mapping a workspace last imported a list with, or an empty one. */
export async function rememberedImportMapping(
  db: Database,
  workspaceId: string,
  resource: string,
): Promise<ImportMapping> {
  const [row] = await db
    .select({ mapping: importMappings.mapping })
    .from(importMappings)
    .where(and(eq(importMappings.workspaceId, workspaceId), eq(importMappings.resource, resource)));
  return row?.mapping ?? {};
}

/**
 * Remembers the columns a file's headers filled, over what was remembered before (a header named
 * again takes its new column; the headers of earlier files stay), in one statement so that two
 * saves at once lose nothing. Past `importMappingLimits.headers` headers, only the new file's are
 * kept.
 */
export async function rememberImportMapping(
  db: Database,
  saved: { workspaceId: string; resource: string; mapping: ImportMapping; userId: string; now: Date },
): Promise<void> {
  const merged = sql`${importMappings.mapping} || excluded.mapping`;
  await db
    .insert(importMappings)
    .values({
      workspaceId: saved.workspaceId,
      resource: saved.resource,
      mapping: saved.mapping,
      updatedBy: saved.userId,
      updatedAt: saved.now,
    })
    .onConflictDoUpdate({
      target: [importMappings.workspaceId, importMappings.resource],
      set: {
        mapping: sql`case when (select count(*) from jsonb_object_keys(${merged})) <= ${importMappingLimits.headers}
          then ${merged} else excluded.mapping end`,
        updatedBy: saved.userId,
        updatedAt: saved.now,
      },
    });
}
