import {
  type ApiErrorBody,
  type ApiList,
  apiBase,
  appClientHeader,
  type ErrorCode,
  isApiErrorBody,
} from '@dukkan/contract';
import { readStarted } from './reads-in-flight.ts';
import { reportSecondFactorRequired } from './second-factor-required.ts';

/** A failed API call: the contract's error body, or a stand-in when the server could not be reached. */
export class ApiError extends Error {
  readonly statusCode: number;
  readonly code: ErrorCode | 'NETWORK';
  readonly body: ApiErrorBody | undefined;
  /** The whole answer as sent, for calls whose refusals have another shape (OAuth's `{ error, error_description }`). */
  readonly payload: unknown;
  /** The server's id of the failed request (its logs name it too); absent when no answer came. */
  readonly requestId: string | undefined;

  constructor(
    statusCode: number,
    code: ErrorCode | 'NETWORK',
    message: string,
    body?: ApiErrorBody,
    payload?: unknown,
  ) {
    super(message);
    this.name = body?.name ?? 'ApiError';
    this.statusCode = statusCode;
    this.code = code;
    this.body = body;
    this.payload = payload;
    this.requestId = body?.requestId;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/**
 * A change refused before sending because the browser is offline: nothing left this device, and
 * nothing waits to be sent later (a save the user cancelled must never arrive when the line returns).
 */
export class OfflineError extends ApiError {
  constructor() {
    super(0, 'NETWORK', 'Offline: nothing was sent');
    this.name = 'OfflineError';
  }
}

export function isOfflineError(error: unknown): error is OfflineError {
  return error instanceof OfflineError;
}

/** `navigator.onLine` is only trusted when it says offline (true may still mean no route). */
const isOffline = () => typeof navigator !== 'undefined' && navigator.onLine === false;

type QueryParams = Record<string, string | number | readonly string[] | null | undefined>;

interface ApiRequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  body?: unknown;
  /** Added to the query string; empty values and empty lists are left out, lists are comma-joined. */
  query?: QueryParams;
  signal?: AbortSignal;
  /** The reader's language, sent as `Accept-Language`: lists sort names in it. */
  language?: string;
}

/** `?a=1&b=x,y` from the parameters that have a value, in the order given. */
function queryString(query: QueryParams | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) {
      if (value.length > 0) params.set(name, value.join(','));
    } else params.set(name, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The spec joins base and path as they are: `/api/` + `/auth/user` → `/api//auth/user` (spec §7). */
function apiUrl(path: string, query?: QueryParams): string {
  return `${apiBase}${path.startsWith('/') ? path : `/${path}`}${queryString(query)}`;
}

/**
 * A stream of the API's server-sent events (an import's progress, decision 0052), with the
 * session cookie as every same-origin request; null where the browser has no `EventSource` (the
 * caller polls as well). The browser opens it again after the `retry` the server names when it
 * ends, and gives up on a refusal (401, 403) or a 204. Its caller closes it.
 */
export function apiEventSource(path: string, query?: QueryParams): EventSource | null {
  if (typeof EventSource === 'undefined') return null;
  return new EventSource(apiUrl(path, query));
}

/** Calls the API with the session cookie and returns `data` of the `{ data }` answer. */
export async function apiRequest<T>(path: string, options: ApiRequestOptions = {}): Promise<T> {
  return (await send<{ data: T }>(path, options)).data;
}

/** A list call: the whole `{ data, meta }` answer, for pagination. */
export function apiRequestList<T>(path: string, options: ApiRequestOptions = {}): Promise<ApiList<T>> {
  return send<ApiList<T>>(path, options);
}

/** A multipart upload: each file as a part named `field` (the browser sets the content type). */
export async function apiUpload<T>(
  path: string,
  field: string,
  files: readonly File[],
  query?: QueryParams,
  method: 'POST' | 'PUT' = 'POST',
  { fields = {}, language }: { fields?: Record<string, string>; language?: string } = {},
): Promise<T> {
  const form = new FormData();
  // Text fields first: a server reading the parts in order has them before the files.
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const file of files) form.append(field, file, file.name);
  return (await send<{ data: T }>(path, { method, body: form, query, language })).data;
}

async function send<Payload>(path: string, options: ApiRequestOptions): Promise<Payload> {
  const { method = 'GET', body, query, signal, language } = options;
  const isForm = body instanceof FormData;
  // The client's header lets the server tell its own fetch from an image or a link (`GET auth/logout`).
  const headers: Record<string, string> = {
    accept: 'application/json',
    [appClientHeader.name]: appClientHeader.value,
  };
  if (body !== undefined && !isForm) headers['content-type'] = 'application/json';
  if (language) headers['accept-language'] = language;
  // Reads fail by themselves offline (and their queries wait for the network); a write is refused here.
  if (method !== 'GET' && isOffline()) throw new OfflineError();
  // A read is counted until its body has arrived: what waits for the page to show waits for it.
  const answered = method === 'GET' ? readStarted() : undefined;
  try {
    let response: Response;
    try {
      response = await fetch(apiUrl(path, query), {
        method,
        credentials: 'include',
        headers,
        body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
        signal,
      });
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new ApiError(0, 'NETWORK', 'Network error');
    }
    const payload: unknown = await response.json().catch(() => undefined);
    if (!response.ok) {
      throw errorOfAnswer(response, payload);
    }
    return payload as Payload;
  } finally {
    answered?.();
  }
}

/** The `ApiError` of an answer that is not ok: the contract's error in its body, else INTERNAL. */
function errorOfAnswer(response: Response, payload: unknown): ApiError {
  const errorBody = (payload as { error?: unknown } | undefined)?.error;
  if (isApiErrorBody(errorBody)) {
    // The workspace wants a second factor this session has not used: the shell asks for it.
    if (errorBody.code === 'SECOND_FACTOR_REQUIRED') reportSecondFactorRequired();
    return new ApiError(errorBody.statusCode, errorBody.code, errorBody.message, errorBody, payload);
  }
  return new ApiError(
    response.status,
    'INTERNAL',
    response.statusText || 'Request failed',
    undefined,
    payload,
  );
}

/** A file the API answered with, and the name its `Content-Disposition` gives it. */
export interface ApiFile {
  blob: Blob;
  fileName: string;
}

/**
 * Downloads a file (`GET`, e.g. a list's export) with the session cookie: the whole file as a
 * blob once it has arrived, or the contract's error as `ApiError`.
 */
export async function apiDownload(path: string, options: Omit<ApiRequestOptions, 'method' | 'body'> = {}) {
  const { query, signal, language } = options;
  const headers: Record<string, string> = { [appClientHeader.name]: appClientHeader.value };
  if (language) headers['accept-language'] = language;
  let response: Response;
  try {
    response = await fetch(apiUrl(path, query), { credentials: 'include', headers, signal });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError(0, 'NETWORK', 'Network error');
  }
  if (!response.ok) {
    const payload: unknown = await response.json().catch(() => undefined);
    throw errorOfAnswer(response, payload);
  }
  const disposition = response.headers.get('content-disposition') ?? '';
  const fileName = /filename="([^"]+)"/.exec(disposition)?.[1] ?? 'export';
  return { blob: await response.blob(), fileName } satisfies ApiFile;
}
