/** Every success answer is `{ data }`; lists add `meta`. */
export interface ApiData<T> {
  data: T;
}
export interface ListMeta {
  total: number;
  page: number;
  pageSize: number;
}
export interface ApiList<T> {
  data: T[];
  meta: ListMeta;
}
/** The API base path: the client joins `${apiBase}/path`, so requests carry a double slash (spec §7). */
export const apiBase = '/api/';
