/** Every success answer is `{ data }`; lists add `meta`. */
export interface ApiData<T> {
  data: T;
}
export interface ListMeta {
  total: number;
  page: number;
  pageSize: number;
  /** The list counts at most `total` matches (its declaration's `countLimit`) and found as many. */
  totalCapped?: boolean;
}
export interface ApiList<T> {
  data: T[];
  meta: ListMeta;
}
/** The API base path: the client joins `${apiBase}/path`, so requests carry a double slash (spec §7). */
export const apiBase = '/api/';

/**
 * The header the app's API client adds to every request. It marks the app's own fetch where a
 * browser sends no Fetch Metadata: another origin cannot add it without a CORS preflight, which the
 * API never grants, and an image, a frame or a link cannot add it at all.
 */
export const appClientHeader = { name: 'x-dukkan-client', value: 'web' } as const;

/** `POST /files?workspaceId=…` (one `file` part) answers the file's address. */
export interface UploadedFile {
  url: string;
}

/** `POST /files/bulk?workspaceId=…` (repeated `files` parts) answers their addresses, in order. */
export interface UploadedFiles {
  urls: string[];
}

/** How many files one bulk upload may carry. */
export const maxFilesPerUpload = 10;
