import { sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Database } from '../db/client.ts';
import { codeCounters } from '../db/schema/index.ts';
import { sortCollation } from '../db/schema/sorting.ts';
import type { ResourceTable } from './storage.ts';

/** A code of a sequence: the prefix, a hyphen and the number in at least four digits (`BR-0001`, `BR-10000`). */
export function sequenceCode(prefix: string, number: number): string {
  return `${prefix}-${String(number).padStart(4, '0')}`;
}

/**
 * Whether a typed code has the shape of its resource's sequence (`BR-` and digits): the sequence
 * may be about to give it, so its write takes the sequence's lock too.
 */
function looksSequenced(prefix: string, code: string): boolean {
  return code.startsWith(`${prefix}-`) && /^[0-9]{4,}$/.test(code.slice(prefix.length + 1));
}

/** How many numbers the first look for free codes tries at least; each look after a full one tries twice as many. */
const firstWindow = 16;

/**
 * The codes one write (a create, a bulk, an update) assigns from its resource's sequence in a
 * workspace. The sequence's counter row (`code_counters`) is locked by the write's transaction
 * from `lock()` until it ends, so writes that assign codes, or type one the sequence could give
 * (`looksSequenced`), queue: two never take the same number, and a typed `BR-0005` cannot slip in
 * between the look and the insert. `next()` skips codes a record already has (typed by hand, or
 * older data) and the codes the write itself types (`reserved`); `finish()` records how far the
 * sequence got, so a rolled-back write gives its numbers back.
 */
export class CodeSequence {
  /** The highest number looked at: the counter's as this transaction read it, then each look's last. Undefined until locked. */
  private looked: number | undefined;
  /** The number of the last code handed out, if any. */
  private handedOut: number | undefined;
  /** Codes found free by the last look and not handed out yet, in order. */
  private free: { code: string; number: number }[] = [];

  constructor(
    private readonly db: Database,
    private readonly table: ResourceTable,
    private readonly codeColumn: AnyPgColumn,
    private readonly resource: string,
    private readonly workspaceId: string,
    private readonly prefix: string,
    private readonly reserved: ReadonlySet<string> = new Set(),
  ) {}

  /** Takes the counter row's lock (once per write), creating the row at 0 for a first code. */
  async lock(): Promise<void> {
    if (this.looked !== undefined) return;
    const [counter] = await this.db
      .insert(codeCounters)
      .values({ workspaceId: this.workspaceId, resource: this.resource, lastNumber: 0 })
      .onConflictDoUpdate({
        target: [codeCounters.workspaceId, codeCounters.resource],
        set: { lastNumber: sql`${codeCounters.lastNumber}` },
      })
      .returning({ lastNumber: codeCounters.lastNumber });
    this.looked = counter!.lastNumber;
  }

  /** Whether `code` has the shape of this sequence's codes. */
  looksSequenced(code: string): boolean {
    return looksSequenced(this.prefix, code);
  }

  /**
   * The next free code. `expected`: how many codes the write will still ask for, this one
   * included, so a bulk's codes are found with one look.
   */
  async next(expected = 1): Promise<string> {
    await this.lock();
    let window = Math.max(expected, firstWindow);
    while (this.free.length === 0) {
      const from = this.looked! + 1;
      const candidates = Array.from({ length: window }, (_, index) => ({
        number: from + index,
        code: sequenceCode(this.prefix, from + index),
      }));
      const taken = await this.takenAmong(candidates.map((candidate) => candidate.code));
      this.looked = from + window - 1;
      this.free = candidates.filter(
        (candidate) => !taken.has(candidate.code) && !this.reserved.has(candidate.code),
      );
      window *= 2;
    }
    const chosen = this.free.shift()!;
    this.handedOut = chosen.number;
    return chosen.code;
  }

  /** Records the number of the last code handed out on the counter (nothing when none was). */
  async finish(): Promise<void> {
    if (this.handedOut === undefined) return;
    await this.db
      .update(codeCounters)
      .set({ lastNumber: this.handedOut })
      .where(
        sql`${codeCounters.workspaceId} = ${this.workspaceId} and ${codeCounters.resource} = ${this.resource}`,
      );
  }

  /** The candidates some record of the workspace already has, read through the unique code index. */
  private async takenAmong(codes: string[]): Promise<Set<string>> {
    const collated = sql`${this.codeColumn} collate ${sql.identifier(sortCollation)}`;
    const rows = await this.db
      .select({ code: this.codeColumn })
      .from(this.table)
      .where(
        sql`${this.table.workspaceId} = ${this.workspaceId} and ${collated} = any(${sql.param(codes)}::text[])`,
      );
    return new Set(rows.map((row) => row.code as string));
  }
}
