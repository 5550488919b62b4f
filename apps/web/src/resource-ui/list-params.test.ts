import { describe, expect, it } from 'vitest';
import { entityFromPath } from './entity-name.ts';
import { listRequestQuery, nextSort, pageWindow, readListParams, writeListParams } from './list-params.ts';

const definition = {
  sort: ['code', 'title'],
  defaultSort: 'code',
  filters: [
    { field: 'status', kind: 'enum' as const, values: ['active', 'inactive', 'invited'] },
    { field: 'role', kind: 'reference' as const },
  ],
};

describe('list state in the address bar', () => {
  it('reads page, size, search, sort and declared filters; falls back to defaults for anything else', () => {
    const params = readListParams(
      new URLSearchParams(
        'page=3&pageSize=50&search=%20tea%20&sort=-title&status=active,bogus&role=r1,r2&x=1',
      ),
      definition,
    );
    expect(params).toEqual({
      page: 3,
      pageSize: 50,
      search: 'tea',
      sort: '-title',
      filters: { status: ['active'], role: ['r1', 'r2'] },
    });
    // No sort chosen ('' — the server ranks a search, else sorts by the default), as for an unknown one.
    expect(readListParams(new URLSearchParams('page=-2&pageSize=33&sort=password'), definition)).toEqual({
      page: 1,
      pageSize: 20,
      search: '',
      sort: '',
      filters: {},
    });
  });

  it('writes only what differs from the defaults and keeps foreign parameters', () => {
    const written = writeListParams(
      new URLSearchParams('tab=2&page=4'),
      { page: 1, pageSize: 20, search: 'x', sort: '', filters: { status: ['invited'] } },
      definition,
    );
    expect(written.toString()).toBe('tab=2&search=x&status=invited');
    // A sort chosen stays in the address, the default's too: while searching it wins over relevance.
    expect(
      writeListParams(
        new URLSearchParams(),
        { page: 1, pageSize: 20, search: 'x', sort: 'code', filters: {} },
        definition,
      ).toString(),
    ).toBe('search=x&sort=code');
  });

  it('asks the server with the workspace first and leaves an empty search out', () => {
    expect(
      listRequestQuery('w1', { page: 2, pageSize: 10, search: '', sort: '-code', filters: { role: ['r1'] } }),
    ).toEqual({ workspaceId: 'w1', page: 2, pageSize: 10, search: undefined, sort: '-code', role: ['r1'] });
    expect(
      listRequestQuery('w1', { page: 1, pageSize: 20, search: 'tea', sort: '', filters: {} }).sort,
    ).toBeUndefined();
  });

  it('toggles sort direction on the same column, ascending on a new one', () => {
    expect(nextSort('code', 'code')).toBe('-code');
    expect(nextSort('-code', 'code')).toBe('code');
    expect(nextSort('-code', 'title')).toBe('title');
  });

  it('shows page numbers around the current page with gaps', () => {
    expect(pageWindow(1, 5)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(1, 20)).toEqual([1, 2, 3, 4, null, 20]);
    expect(pageWindow(10, 20)).toEqual([1, null, 9, 10, 11, null, 20]);
    expect(pageWindow(20, 20)).toEqual([1, null, 17, 18, 19, 20]);
  });
});

describe('entityFromPath (spec §8)', () => {
  it('takes the last segment, singular, upper-cased', () => {
    expect(entityFromPath('workspaces/users')).toBe('USER');
    expect(entityFromPath('authority-roles')).toBe('AUTHORITY ROLE');
    expect(entityFromPath('waste-categories')).toBe('WASTE CATEGORY');
    expect(entityFromPath('taxes')).toBe('TAX');
    expect(entityFromPath('exchange-rates')).toBe('EXCHANGE RATE');
  });
});
