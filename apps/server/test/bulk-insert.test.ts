import { asc, getTableColumns, sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  date,
  integer,
  jsonb,
  numeric,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRows } from '../src/db/bulk-insert.ts';
import { timeOfId, timeOrderedId } from '../src/db/ids.ts';
import { captureStatements, type StatementCapture } from './helpers/sql-capture.ts';
import { createTestDatabase, type TestDatabase } from './helpers/test-database.ts';

/**
 * The bulk insert (`insertRows`: one text array per column, unnested and cast back per column)
 * answers and stores what Drizzle's multi-row insert does, for every kind of column the schema
 * has — uuid, text and text enums, integer, bigint, numeric, boolean, timestamptz, date, jsonb,
 * arrays of text, uuid and enum texts — and a database enum, with the texts an array literal or
 * JSON must escape. A wrong cast or a wrong literal fails the comparison or the insert.
 */
const mood = pgEnum('bulk_insert_mood', ['calm', 'busy']);
const kinds = pgTable(
  'bulk_insert_kinds',
  {
    id: uuid('id').notNull().defaultRandom().primaryKey(),
    batch: text('batch').notNull(),
    place: integer('place').notNull(),
    label: text('label').notNull(),
    source: text('source', { enum: ['walkIn', 'phone'] })
      .notNull()
      .default('walkIn'),
    mood: mood('mood'),
    count: integer('count'),
    big: bigint('big', { mode: 'number' }),
    rate: numeric('rate', { precision: 7, scale: 4, mode: 'number' }),
    amount: numeric('amount', { precision: 12, scale: 2 }),
    flag: boolean('flag'),
    at: timestamp('at', { withTimezone: true }),
    day: date('day', { mode: 'string' }),
    data: jsonb('data'),
    list: jsonb('list').notNull().default([]),
    texts: text('texts').array(),
    ids: uuid('ids').array().notNull().default(sql`'{}'::uuid[]`),
    kindsOf: text('kinds_of', { enum: ['dineIn', 'takeAway'] }).array(),
    short: varchar('short', { length: 5 }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    folded: text('folded').notNull().generatedAlwaysAs(sql`lower(label)`),
  },
  (table) => [uniqueIndex('bulk_insert_kinds__label__unique').on(table.batch, table.label)],
);

/** A table whose id the server makes (`$defaultFn`), as the engine's records' (decision 0058). */
const made = pgTable('bulk_insert_made', {
  id: uuid('id')
    .notNull()
    .defaultRandom()
    .primaryKey()
    .$defaultFn(() => timeOrderedId()),
  label: text('label').notNull(),
});

let database: TestDatabase;
let capture: StatementCapture;

beforeAll(async () => {
  database = await createTestDatabase({ migrated: false });
  await database.db.execute(sql`create type bulk_insert_mood as enum ('calm', 'busy')`);
  await database.db.execute(sql`create table bulk_insert_kinds (
    id uuid primary key default gen_random_uuid(),
    batch text not null,
    place integer not null,
    label text not null,
    source text not null default 'walkIn',
    mood bulk_insert_mood,
    count integer,
    big bigint,
    rate numeric(7, 4),
    amount numeric(12, 2),
    flag boolean,
    at timestamp with time zone,
    day date,
    data jsonb,
    list jsonb not null default '[]'::jsonb,
    texts text[],
    ids uuid[] not null default '{}'::uuid[],
    kinds_of text[],
    short varchar(5),
    created_at timestamp with time zone not null default now(),
    folded text not null generated always as (lower(label)) stored,
    constraint bulk_insert_kinds_count_positive check (count is null or count > 0)
  )`);
  await database.db.execute(
    sql`create unique index bulk_insert_kinds__label__unique on bulk_insert_kinds (batch, label)`,
  );
  await database.db.execute(
    sql`create table bulk_insert_made (id uuid primary key default gen_random_uuid(), label text not null)`,
  );
  capture = captureStatements(database);
});
afterAll(async () => {
  await database?.close();
});

/** Texts an array literal or JSON must escape, and Arabic. */
const awkward = ['a "quoted", {braced} \\ text', 'NULL', '', ' spaced ', 'سلام', 'comma,semi;'];

/** Rows giving every column, and rows leaving the nullable ones null. */
function sampleRows(): Record<string, unknown>[] {
  return [
    {
      label: awkward[0],
      source: 'phone',
      mood: 'busy',
      count: 7,
      big: 9_007_199_254_740_991,
      rate: 12.34567,
      amount: '1234.5',
      flag: true,
      at: new Date('2026-11-30T10:11:12.345Z'),
      day: '2026-02-28',
      data: { text: awkward[0], nested: [1, 'two', null, { three: true }], arabic: 'سلام' },
      list: [{ day: 'mon', from: '09:00' }],
      texts: awkward,
      ids: ['5f0c1d2e-3a4b-4c5d-8e6f-7a8b9c0d1e2f', '00000000-0000-4000-8000-000000000001'],
      kindsOf: ['dineIn', 'takeAway'],
      short: 'abcde',
    },
    {
      label: 'Nulls',
      source: 'walkIn',
      mood: null,
      count: null,
      big: null,
      rate: null,
      amount: null,
      flag: false,
      at: null,
      day: null,
      data: null,
      list: [],
      texts: null,
      ids: [],
      kindsOf: null,
      short: null,
    },
    {
      label: 'Empty arrays, scalars in JSON',
      source: 'walkIn',
      mood: 'calm',
      count: 1,
      big: -1,
      rate: 0,
      amount: '-0.01',
      flag: null,
      at: new Date('1999-12-31T23:59:59.999Z'),
      day: '2000-01-01',
      data: 'just a "string"',
      list: [1, 2.5, 'x'],
      texts: [],
      ids: [],
      kindsOf: [],
      short: 'ab',
    },
  ];
}

const ofBatch = (batch: string, rows: Record<string, unknown>[]) =>
  rows.map((row, place) => ({ ...row, batch, place }));

/** A row without what differs between two inserts of the same values (its id, its time). */
const comparable = ({ id: _id, createdAt: _createdAt, batch: _batch, ...row }: Record<string, unknown>) =>
  row;

const stored = async (batch: string) =>
  (
    await database.db.select().from(kinds).where(sql`${kinds.batch} = ${batch}`).orderBy(asc(kinds.place))
  ).map(comparable);

describe('insertRows', () => {
  it('answers and stores every column kind as Drizzle’s multi-row insert does, in order', async () => {
    const byDrizzle = (await database.db
      .insert(kinds)
      .values(ofBatch('drizzle', sampleRows()) as (typeof kinds.$inferInsert)[])
      .returning()) as Record<string, unknown>[];
    capture.statements.length = 0;
    const byUnnest = await insertRows(database.db, kinds, ofBatch('unnest', sampleRows()));
    // One statement, one array per column: not a value bound per row and column.
    expect(capture.statements.map((statement) => statement.text)).toEqual([
      expect.stringMatching(
        /^insert into "bulk_insert_kinds" \(.*\) select .* from unnest\(\$1::text\[\], .*\$18::text\[\]\) with ordinality/,
      ),
    ]);
    expect(byUnnest.map(comparable)).toEqual(byDrizzle.map(comparable));
    expect(byUnnest.map((row) => row.place)).toEqual([0, 1, 2]);
    expect(Object.keys(byUnnest[0]!)).toEqual(Object.keys(getTableColumns(kinds)));
    expect(await stored('unnest')).toEqual(await stored('drizzle'));
    // What the database holds, not only what both read back the same way.
    const [first] = await stored('unnest');
    expect(first).toMatchObject({
      rate: 12.3457,
      amount: '1234.50',
      texts: awkward,
      folded: awkward[0]!.toLowerCase(),
      at: new Date('2026-11-30T10:11:12.345Z'),
    });
    const types = (await database.db.execute(
      sql`select pg_typeof(data)::text as data, pg_typeof(mood)::text as mood, array_length(texts, 1) as texts,
        jsonb_typeof(data) as shape from bulk_insert_kinds where batch = 'unnest' and place = 0`,
    )) as unknown as { rows: Record<string, unknown>[] };
    expect(types.rows[0]).toEqual({
      data: 'jsonb',
      mood: 'bulk_insert_mood',
      texts: awkward.length,
      shape: 'object',
    });
  });

  it('answers many rows in the order given', async () => {
    const rows = Array.from({ length: 1_200 }, (_, place) => ({
      batch: 'many',
      place,
      label: `row ${String(1_200 - place).padStart(4, '0')}`,
      texts: Array.from({ length: place % 4 }, (__, index) => `t${index}`),
    }));
    const inserted = await insertRows(database.db, kinds, rows);
    expect(inserted.map((row) => row.place)).toEqual(rows.map((row) => row.place));
    expect(inserted.map((row) => row.texts)).toEqual(rows.map((row) => row.texts));
  });

  it('leaves a column no row gives to its default, and a column some rows leave out as Drizzle does', async () => {
    const rows = [
      { label: 'defaults one', place: 0 },
      { label: 'defaults two', place: 1, source: 'phone', list: [1], short: 'x' },
      { label: 'defaults three', place: 2, short: 'y' },
    ];
    const byDrizzle = (await database.db
      .insert(kinds)
      .values(ofBatch('drizzle defaults', rows) as (typeof kinds.$inferInsert)[])
      .returning()) as Record<string, unknown>[];
    const byUnnest = await insertRows(database.db, kinds, ofBatch('unnest defaults', rows));
    expect(byUnnest.map(comparable)).toEqual(byDrizzle.map(comparable));
    expect(byUnnest.map((row) => [row.source, row.list, row.ids, row.short])).toEqual([
      ['walkIn', [], [], null],
      ['phone', [1], [], 'x'],
      ['walkIn', [], [], 'y'],
    ]);
  });

  it('is refused as Drizzle’s insert is: a too long text, a check, a unique index', async () => {
    const refusal = async (rows: Record<string, unknown>[]) => {
      const codeOf = async (insert: () => Promise<unknown>) => {
        try {
          await insert();
        } catch (error) {
          const cause = (error as { cause?: { code?: string; constraint?: string } }).cause;
          return [cause?.code, cause?.constraint];
        }
        return undefined;
      };
      const drizzle = await codeOf(() =>
        database.db.insert(kinds).values(rows as (typeof kinds.$inferInsert)[]),
      );
      const unnest = await codeOf(() => insertRows(database.db, kinds, rows));
      expect(unnest).toEqual(drizzle);
      return unnest;
    };
    const row = (label: string, extra: Record<string, unknown> = {}) => ({
      batch: 'refused',
      place: 0,
      label,
      ...extra,
    });
    expect(await refusal([row('a'), row('b', { short: 'abcdef' })])).toEqual(['22001', undefined]);
    expect(await refusal([row('c'), row('d', { count: 0 })])).toEqual([
      '23514',
      'bulk_insert_kinds_count_positive',
    ]);
    expect(await refusal([row('e'), row('e')])).toEqual(['23505', 'bulk_insert_kinds__label__unique']);
  });

  it('gives each row that leaves it out a default made in JavaScript, in the one statement', async () => {
    const before = Date.now();
    capture.statements.length = 0;
    const given = '00000000-0000-4000-8000-00000000000a';
    const rows = [{ label: 'one' }, { label: 'two', id: given }, { label: 'three' }];
    const inserted = await insertRows(database.db, made, rows);
    // Not left to Drizzle's insert (which makes them too): one unnest statement.
    expect(capture.statements.map((statement) => statement.text)).toEqual([
      expect.stringMatching(/^insert into "bulk_insert_made" .* from unnest\(/s),
    ]);
    expect(inserted.map((row) => row.label)).toEqual(['one', 'two', 'three']);
    expect(inserted[1]!.id).toBe(given);
    for (const row of [inserted[0]!, inserted[2]!]) {
      const id = row.id as string;
      // The database's default would be a random UUID (version 4), with no time in it.
      expect(id[14]).toBe('7');
      expect(timeOfId(id)).toBeGreaterThanOrEqual(before);
      expect(timeOfId(id)).toBeLessThanOrEqual(Date.now());
    }
    expect(inserted[0]!.id).not.toBe(inserted[2]!.id);
  });
});
