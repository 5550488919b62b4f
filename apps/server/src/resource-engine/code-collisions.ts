import { invisibleInCodes, normalizeCode } from '@dukkan/contract';
import { sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Database } from '../db/client.ts';
import { appMeta, memberships, productVariants, workspaces } from '../db/schema/index.ts';
import type { ResourceEngine } from './registry.ts';

/** A column of codes unique per workspace, compared as `normalizeCode` makes them. */
interface StoredCodes {
  /** What the codes are, as the report names them: a resource's key, or another table's codes. */
  name: string;
  table: PgTable;
  workspaceId: AnyPgColumn;
  column: AnyPgColumn;
}

/**
 * Every column of codes: the code of each resource the engine serves, the members' staff codes
 * and the variants' SKUs. (A barcode has always been stored as ASCII digits: nothing to compare.)
 */
export function storedCodeColumns(engine: ResourceEngine): StoredCodes[] {
  return [
    ...engine.served.flatMap(({ storage }) =>
      storage.columns.code
        ? [
            {
              name: storage.definition.key,
              table: storage.table,
              workspaceId: storage.table.workspaceId,
              column: storage.columns.code,
            },
          ]
        : [],
    ),
    {
      name: 'staff codes',
      table: memberships,
      workspaceId: memberships.workspaceId,
      column: memberships.code,
    },
    {
      name: 'SKUs',
      table: productVariants,
      workspaceId: productVariants.workspaceId,
      column: productVariants.sku,
    },
  ];
}

/** Codes of one workspace stored apart that are one code under the rule (or no code at all). */
interface CodeCollision {
  workspaceId: string;
  workspaceName: string;
  /** `StoredCodes.name`. */
  codes: string;
  /** The stored codes, as they are. */
  stored: string[];
  /** What they all normalize to; empty for codes made of invisible characters only. */
  normalized: string;
}

/**
 * The stored codes that migration 0013 left as they were because normalizing them would have
 * made two records share a code (or left a record without one): per workspace and column, the
 * codes that normalize alike. Codes written since are normalized, so no group forms among them
 * (though a code typed equal to what a group normalizes to joins it: the unique index is on the
 * stored value). Each column is read once, grouped in SQL by `normalize_code` (migration 0013),
 * the contract's rule.
 */
export async function findCodeCollisions(db: Database, columns: readonly StoredCodes[]) {
  const found: CodeCollision[] = [];
  for (const { name, table, workspaceId, column } of columns) {
    const normalized = sql`normalize_code(${column})`;
    const { rows } = (await db.execute(sql`
      select ${workspaceId} as workspace_id, w.name as workspace_name, ${normalized} as normalized,
        array_agg(${column} order by ${column}) as stored
      from ${table} join ${workspaces} w on w.id = ${workspaceId}
      where ${column} is not null
      group by ${workspaceId}, w.name, ${normalized}
      having count(*) > 1 or ${normalized} = ''`)) as unknown as {
      rows: { workspace_id: string; workspace_name: string; normalized: string; stored: string[] }[];
    };
    for (const row of rows) {
      found.push({
        workspaceId: row.workspace_id,
        workspaceName: row.workspace_name,
        codes: name,
        stored: row.stored,
        normalized: row.normalized,
      });
    }
  }
  return found.sort(
    (a, b) =>
      a.workspaceName.localeCompare(b.workspaceName) ||
      a.workspaceId.localeCompare(b.workspaceId) ||
      a.codes.localeCompare(b.codes) ||
      a.normalized.localeCompare(b.normalized),
  );
}

const isInvisible = (codePoint: number) =>
  invisibleInCodes.some(([first, last]) => codePoint >= first && codePoint <= last);

/**
 * A stored code written so that what tells it apart shows: each character the rule changes or
 * removes (invisible, full-width, a combining accent, a space other than the plain one) as
 * `\u{…}`, the rest as it is. `"Z\u{200b}W"`, `"CAFE\u{301}"`, `"\u{ff21}BC"`.
 */
export function visibleCode(code: string): string {
  let shown = '';
  for (const character of code) {
    const codePoint = character.codePointAt(0)!;
    const changed =
      character !== ' ' &&
      (isInvisible(codePoint) || /\p{M}/u.test(character) || normalizeCode(character) !== character);
    shown += changed ? `\\u{${codePoint.toString(16)}}` : character;
  }
  return `"${shown}"`;
}

/** The collisions as lines for the operator: per workspace, each group of codes with what they become. */
export function describeCodeCollisions(collisions: readonly CodeCollision[]): string[] {
  const lines: string[] = [];
  let workspace: string | undefined;
  for (const collision of collisions) {
    if (collision.workspaceId !== workspace) {
      workspace = collision.workspaceId;
      lines.push(`Workspace "${collision.workspaceName}" (${collision.workspaceId}):`);
    }
    const becomes = collision.normalized === '' ? 'no code at all' : visibleCode(collision.normalized);
    lines.push(`  ${collision.codes}: ${collision.stored.map(visibleCode).join(', ')} → ${becomes}`);
  }
  return lines;
}

/**
 * The stored codes' check at the first start after migration 0013 (an `app_meta` row, taken
 * first, makes it once per database): the collisions it left, for the server to log; undefined
 * when an earlier start has checked. Once, because the check reads every code (1–3 s per 100,000
 * on either database: bench/README.md) and codes written since are normalized: `check-codes`
 * lists what is left at any time.
 */
export async function checkStoredCodesOnce(
  db: Database,
  engine: ResourceEngine,
  now: Date,
): Promise<CodeCollision[] | undefined> {
  const marker = await db
    .insert(appMeta)
    .values({ key: 'codes_checked', value: now.toISOString() })
    .onConflictDoNothing()
    .returning({ key: appMeta.key });
  if (marker.length === 0) return undefined;
  return findCodeCollisions(db, storedCodeColumns(engine));
}
