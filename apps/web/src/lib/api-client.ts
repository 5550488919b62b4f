import { type ApiErrorBody, apiBase, type ErrorCode, isApiErrorBody } from '@dukkan/contract';

/** A failed API call: the contract's error body, or a stand-in when the server could not be reached. */
export class ApiError extends Error {
  readonly statusCode: number;
  readonly code: ErrorCode | 'NETWORK';
  readonly body: ApiErrorBody | undefined;

  constructor(statusCode: number, code: ErrorCode | 'NETWORK', message: string, body?: ApiErrorBody) {
    super(message);
    this.name = body?.name ?? 'ApiError';
    this.statusCode = statusCode;
    this.code = code;
    this.body = body;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

export interface ApiRequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
}

/** The spec joins base and path as they are: `/api/` + `/auth/user` → `/api//auth/user` (spec §7). */
export function apiUrl(path: string): string {
  return `${apiBase}${path.startsWith('/') ? path : `/${path}`}`;
}

/** Calls the API with the session cookie and returns `data` of the `{ data }` answer. */
export async function apiRequest<T>(path: string, options: ApiRequestOptions = {}): Promise<T> {
  const { method = 'GET', body, signal } = options;
  let response: Response;
  try {
    response = await fetch(apiUrl(path), {
      method,
      credentials: 'include',
      headers:
        body === undefined
          ? { accept: 'application/json' }
          : { accept: 'application/json', 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError(0, 'NETWORK', 'Network error');
  }
  const payload: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const errorBody = (payload as { error?: unknown } | undefined)?.error;
    if (isApiErrorBody(errorBody)) {
      throw new ApiError(errorBody.statusCode, errorBody.code, errorBody.message, errorBody);
    }
    throw new ApiError(response.status, 'INTERNAL', response.statusText || 'Request failed');
  }
  return (payload as { data: T }).data;
}
