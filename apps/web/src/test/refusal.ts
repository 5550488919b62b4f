/** The server's refusals, as a test's fake fetch answers them. */

export interface RefusedIssue {
  path: string;
  message: string;
  params?: Record<string, unknown>;
}

/**
 * A refused write as the server words it (`VALIDATION`), to spread into a route: its status and
 * body. `key` names the field the refusal is about, when the server names one.
 */
export function validationRefusal(
  issues: RefusedIssue[],
  {
    status = 400,
    message = 'Validation failed',
    key,
  }: { status?: number; message?: string; key?: string } = {},
) {
  return {
    status,
    body: {
      error: { statusCode: status, code: 'VALIDATION', name: 'ValidationError', message, key, issues },
    },
  };
}

/** A 401 as the server words it (`UNAUTHORIZED`), to spread into a route: its status and body. */
export function unauthorizedRefusal(message: string) {
  return {
    status: 401,
    body: { error: { statusCode: 401, code: 'UNAUTHORIZED', name: 'UnauthorizedError', message } },
  };
}
