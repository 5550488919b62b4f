import { describe, expect, it } from 'vitest';
import { arrangeColumns } from './resource-table.tsx';

const keys = (columns: { key: string }[]) => columns.map((column) => column.key);

describe('arrangeColumns', () => {
  it("puts the status right after the record's name, the rest in their declared order", () => {
    const columns = [
      { key: 'code' },
      { key: 'name', primary: true },
      { key: 'brandId' },
      { key: 'workingHours' },
      { key: 'status' },
    ];
    expect(keys(arrangeColumns(columns))).toEqual(['code', 'name', 'status', 'brandId', 'workingHours']);
  });

  it('takes a column flagged as the status whatever its key, and not one flagged otherwise', () => {
    const columns = [
      { key: 'name', primary: true },
      { key: 'issuedAt' },
      { key: 'state', status: true },
      { key: 'status', status: false },
    ];
    expect(keys(arrangeColumns(columns))).toEqual(['name', 'state', 'issuedAt', 'status']);
  });

  it('leaves columns without a name or a status as declared', () => {
    expect(keys(arrangeColumns([{ key: 'a' }, { key: 'status' }, { key: 'b' }]))).toEqual([
      'a',
      'status',
      'b',
    ]);
    expect(keys(arrangeColumns([{ key: 'a', primary: true }, { key: 'b' }]))).toEqual(['a', 'b']);
  });
});
