import { defaultPageSize, type FilterSource, listFilters, type ResourceDefinition } from '@dukkan/contract';

/** The page sizes offered; the server accepts up to 100. */
export const pageSizeOptions = [10, 20, 50, 100] as const;

/** What a list shows: kept in the address bar so links, reloads and back/forward restore it. */
export interface ListParams {
  page: number;
  pageSize: number;
  search: string;
  /**
   * `field` ascending or `-field` descending, one of the definition's sort fields; '' for none
   * chosen: the server ranks a search's matches by relevance, and sorts by `defaultSort` otherwise.
   */
  sort: string;
  /** Declared filters only: field → selected values. */
  filters: Record<string, string[]>;
}

/** What the list state reads of a declaration. */
export type ListDefinition = Pick<ResourceDefinition, 'sort' | 'defaultSort'> & FilterSource;

function allowedSorts(definition: ListDefinition): Set<string> {
  return new Set(definition.sort.flatMap((field) => [field, `-${field}`]));
}

/** Reads the list state from a query string; anything unknown or out of range falls back to the default. */
export function readListParams(search: URLSearchParams, definition: ListDefinition): ListParams {
  const page = Number(search.get('page'));
  const pageSize = Number(search.get('pageSize'));
  const sort = search.get('sort') ?? '';
  const filters: Record<string, string[]> = {};
  for (const filter of listFilters(definition)) {
    const values = (search.get(filter.field) ?? '')
      .split(',')
      .map((value) => value.trim())
      .filter(Boolean)
      .filter((value) => (filter.values ? filter.values.includes(value) : value.length <= 100));
    if (values.length > 0) filters[filter.field] = [...new Set(values)];
  }
  return {
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    pageSize: (pageSizeOptions as readonly number[]).includes(pageSize) ? pageSize : defaultPageSize,
    search: (search.get('search') ?? '').trim().slice(0, 100),
    sort: allowedSorts(definition).has(sort) ? sort : '',
    filters,
  };
}

/**
 * Writes the list state into a query string, leaving defaults out so plain links stay plain;
 * parameters that are not the list's own are kept.
 */
export function writeListParams(
  current: URLSearchParams,
  params: ListParams,
  definition: ListDefinition,
): URLSearchParams {
  const next = new URLSearchParams(current);
  const set = (name: string, value: string | null) => {
    if (value === null || value === '') next.delete(name);
    else next.set(name, value);
  };
  set('search', params.search || null);
  set('page', params.page > 1 ? String(params.page) : null);
  set('pageSize', params.pageSize !== defaultPageSize ? String(params.pageSize) : null);
  set('sort', params.sort || null);
  for (const filter of listFilters(definition))
    set(filter.field, params.filters[filter.field]?.join(',') ?? null);
  return next;
}

/** The query of `GET {resource}`: the workspace first, then only what differs from nothing. */
export function listRequestQuery(workspaceId: string, params: ListParams) {
  return {
    workspaceId,
    page: params.page,
    pageSize: params.pageSize,
    search: params.search || undefined,
    sort: params.sort || undefined,
    ...params.filters,
  };
}

/** The sort a column header click asks for: ascending first, then the other way round. */
export function nextSort(current: string, field: string): string {
  return current === field ? `-${field}` : field;
}

/** 'ascending' / 'descending' for the column sorted now, else 'none' (for aria-sort). */
export function sortDirection(current: string, field: string): 'ascending' | 'descending' | 'none' {
  if (current === field) return 'ascending';
  if (current === `-${field}`) return 'descending';
  return 'none';
}

/** Page numbers to show around the current one, with null for a gap: 1 … 4 5 6 … 20. */
export function pageWindow(page: number, pageCount: number): (number | null)[] {
  if (pageCount <= 7) return Array.from({ length: pageCount }, (_, index) => index + 1);
  const around = [page - 1, page, page + 1].filter((value) => value > 1 && value < pageCount);
  if (page <= 3) around.push(2, 3, 4);
  if (page >= pageCount - 2) around.push(pageCount - 3, pageCount - 2, pageCount - 1);
  const middle = [...new Set(around)].filter((value) => value > 1 && value < pageCount).sort((a, b) => a - b);
  const result: (number | null)[] = [1];
  for (const value of middle) {
    const previous = result.at(-1);
    if (typeof previous === 'number' && value - previous > 1) result.push(null);
    result.push(value);
  }
  if (pageCount - (middle.at(-1) ?? 1) > 1) result.push(null);
  result.push(pageCount);
  return result;
}
