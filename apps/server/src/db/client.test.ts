import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { openDatabase } from './client.ts';

const rowsOf = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows;

// The embedded database whatever the suite's: skipped in the PostgreSQL run, which would repeat it.
it.skipIf(process.env.DATABASE_URL)(
  'an in-memory database opened from a dump holds what the dumped one held, with the settings of every open',
  async () => {
    const first = await openDatabase({ kind: 'pglite' });
    let dump: Blob;
    try {
      await first.db.execute(sql`create table kept (name text)`);
      await first.db.execute(sql`insert into kept values ('from the dump')`);
      dump = await (first.db as unknown as { $client: PGlite }).$client.dumpDataDir('none');
    } finally {
      await first.close();
    }
    const second = await openDatabase({ kind: 'pglite', dump });
    try {
      expect(rowsOf(await second.db.execute(sql`select name from kept`))).toEqual([
        { name: 'from the dump' },
      ]);
      const setting = rowsOf(await second.db.execute(sql`show pg_trgm.word_similarity_threshold`));
      expect(Number(Object.values(setting[0]!)[0])).toBeLessThan(0.6);
    } finally {
      await second.close();
    }
  },
);
