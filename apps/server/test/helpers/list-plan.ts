import { asc, sql } from 'drizzle-orm';
import { type AnyPgColumn, PgDialect, type PgTable } from 'drizzle-orm/pg-core';
import type { Database } from '../../src/db/client.ts';
import type { ReaderLocale } from '../../src/resource-engine/storage.ts';
import { createAppResources } from '../../src/resources.ts';

/**
 * The plan PostgreSQL chooses for a page of a resource's list in one workspace, sorted by `sort`
 * for a reader in `locale`: the list's page statement (data.ts), its parameters written in. A test
 * has a handful of rows, which the planner would rightly read all and sort: without table scans
 * and with a full sort made dear, only an index in the list's order wins.
 */
export async function listPagePlan(
  db: Database,
  resourceKey: string,
  table: PgTable & { id: AnyPgColumn; workspaceId: AnyPgColumn },
  workspaceId: string,
  { sort, locale }: { sort: string; locale: ReaderLocale },
): Promise<string> {
  const { storage } = createAppResources().served.find(
    (served) => served.storage.definition.key === resourceKey,
  )!;
  const { sql: statement } = new PgDialect().sqlToQuery(
    db
      .select({ id: table.id })
      .from(table as PgTable)
      .where(sql`${table.workspaceId} = ${sql.raw(`'${workspaceId}'`)}`)
      .orderBy(...storage.sortTerms(sort, locale), asc(table.id))
      .getSQL(),
  );
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local enable_seqscan = off`);
    await tx.execute(sql`set local enable_bitmapscan = off`);
    await tx.execute(sql`set local enable_sort = off`);
    const result = await tx.execute(sql.raw(`explain ${statement} limit 25`));
    return (result as unknown as { rows: Record<string, string>[] }).rows
      .map((row) => Object.values(row)[0])
      .join('\n');
  });
}
