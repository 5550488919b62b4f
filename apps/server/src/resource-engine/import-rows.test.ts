import { describe, expect, it } from 'vitest';
import { groupImportRows, type ParsedRow } from './import-rows.ts';

/** A parsed row: its number, key, a name in English and other fields' values. */
function row(
  number: number,
  key: string | null,
  name: string | null,
  values: Record<string, unknown> = {},
): ParsedRow {
  return {
    row: number,
    key,
    values: new Map(Object.entries(values)),
    localized: name === null ? new Map() : new Map([['name', new Map([['en' as const, name]])]]),
    errors: [],
    expansion: [{ row: number, cells: new Map([['sku', `S${number}`]]) }],
  };
}

const headerOf = (field: string, language?: string) => (language ? `${field} (${language})` : field);

describe('groupImportRows', () => {
  it("makes the rows of one key one record, wherever they are, with each row's expansion cells", () => {
    const records = groupImportRows(
      [row(2, 'A', 'Tea'), row(3, 'B', 'Juice'), row(4, 'A', null, { price: 5 })],
      'name',
      headerOf,
    );
    expect(
      records.map((record) => [record.row, record.key, record.expansion.map((cells) => cells.row)]),
    ).toEqual([
      [2, 'A', [2, 4]],
      [3, 'B', [3]],
    ]);
    // The fields given once are the record's; an empty cell on the other rows keeps them.
    expect(records[0]!.values.get('price')).toBe(5);
    expect(records[0]!.localized.get('name')?.get('en')).toBe('Tea');
    expect(records[0]!.errors).toEqual([]);
  });

  it('makes consecutive rows without a key and with the same name one new record, and no others', () => {
    const records = groupImportRows(
      [
        row(2, null, 'Tea'),
        row(3, null, 'Tea'),
        row(4, null, 'Juice'),
        row(5, 'K', 'Tea'),
        row(6, null, 'Tea'),
        row(7, null, null),
        row(8, null, null),
      ],
      'name',
      headerOf,
    );
    expect(records.map((record) => record.expansion.map((cells) => cells.row))).toEqual([
      [2, 3],
      [4],
      [5],
      [6],
      [7],
      [8],
    ]);
  });

  it('refuses a later row giving the record another value, naming the row, its column and the first row', () => {
    const [record] = groupImportRows(
      [row(2, 'A', 'Tea', { price: 5 }), row(3, 'A', 'Tee', { price: 5 }), row(4, 'A', 'Tea', { price: 6 })],
      'name',
      headerOf,
    );
    expect(record!.errors).toEqual([
      { row: 3, column: 'name (en)', code: 'IMPORT_ROW_CONFLICT', params: { row: 2 } },
      { row: 4, column: 'price', code: 'IMPORT_ROW_CONFLICT', params: { row: 2 } },
    ]);
  });
});
