/**
 * The errors every layer may raise for the client (`AppError` and its common shapes) and the
 * readings of a database refusal. Below `http/` and `platform/` alike: the HTTP layer turns them
 * into answers (`http/errors.ts`), and a platform service (the rate limiter, the captcha) raises
 * them without importing the HTTP layer.
 */
import {
  type ApiErrorBody,
  type ErrorCode,
  errorNames,
  errorStatusCodes,
  type ValidationIssue,
  validationCodes,
} from '@dukkan/contract';
import type { z } from 'zod';

/** An error meant for the client: it becomes `{ error: { code, name, message, ... } }`. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly statusCode: number;
  readonly details: Pick<ApiErrorBody, 'key' | 'target' | 'issues' | 'retryAfter'>;

  /** `statusCode`: the code's own status unless the HTTP answer needs a closer one (413, 414, 431). */
  constructor(
    code: ErrorCode,
    message: string,
    details: AppError['details'] = {},
    statusCode = errorStatusCodes[code],
  ) {
    super(message);
    this.code = code;
    this.name = errorNames[code];
    this.statusCode = statusCode;
    this.details = details;
  }

  toBody(): ApiErrorBody {
    return {
      statusCode: this.statusCode,
      code: this.code,
      name: this.name,
      message: this.message,
      ...this.details,
    };
  }
}

export const unauthorized = (message = 'Invalid Credentials') => new AppError('UNAUTHORIZED', message);
export const forbidden = (message = 'You are not authorized to perform this action') =>
  new AppError('FORBIDDEN', message);
export const notFound = (message = 'Not found') => new AppError('NOT_FOUND', message);

export function validationError(
  issues: ValidationIssue[],
  message = 'Validation failed',
  statusCode?: number,
): AppError {
  return new AppError('VALIDATION', message, { key: issues[0]?.path, issues }, statusCode);
}

const contractCodes = new Set<string>(Object.values(validationCodes));

/**
 * One issue per path, the first zod reports (spec §5: "one message per path"). A message is one
 * of the contract's codes, which the web translates; what no schema names (a wrong type, an
 * unknown field) is `VALUE_IS_INVALID`, never zod's own English text.
 */
export function issuesFromZod(error: z.ZodError): ValidationIssue[] {
  const byPath = new Map<string, string>();
  for (const issue of error.issues) {
    const path = issue.path.map(String).join('.');
    const message = contractCodes.has(issue.message) ? issue.message : validationCodes.VALUE_IS_INVALID;
    if (!byPath.has(path)) byPath.set(path, message);
  }
  return [...byPath].map(([path, message]) => ({ path, message }));
}

/** Parses untrusted input with a contract schema, or throws a `VALIDATION` error. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (!result.success) throw validationError(issuesFromZod(result.error));
  return result.data;
}

interface DriverError {
  code?: string;
  severity?: string;
  constraint?: string;
  cause?: unknown;
}

/**
 * The database's own error in a failure's chain (Drizzle's failed query keeps it as `cause`):
 * PostgreSQL's and PGlite's both carry the SQLSTATE as `code` beside a `severity`, which tells
 * it from Node's error codes (`EPIPE`).
 */
function databaseErrorOf(error: unknown): DriverError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth++) {
    const candidate = current as DriverError;
    if (typeof candidate.severity === 'string' && /^[0-9A-Z]{5}$/.test(candidate.code ?? ''))
      return candidate;
    current = candidate.cause;
  }
  return undefined;
}

/** A unique violation's field, read from an index named `<table>__<field>__unique`. */
export function uniqueViolationTarget(error: unknown): string | undefined {
  const found = databaseErrorOf(error);
  if (found?.code !== '23505') return undefined;
  return found.constraint?.match(/__([a-z0-9_]+?)__unique$/i)?.[1] ?? 'unknown';
}

/**
 * A value the database would not store, answered as the client's mistake rather than a failure:
 * a data exception (SQLSTATE class 22: a number beyond its column's precision, a text too long, a
 * malformed number or date) or a check constraint (23514: a quantity that rounds to 0 at its
 * column's scale). The contract bounds the values it knows of; one that slips past it is still
 * the request's. Neither the column nor the statement is named (PostgreSQL names no column for
 * most of these, and the statement is the server's), so the issue is the request's as a whole.
 */
export function refusedValueError(error: unknown): AppError | undefined {
  const code = databaseErrorOf(error)?.code;
  if (code === '22003') {
    return validationError(
      [{ path: '', message: validationCodes.VALUE_OUT_OF_RANGE }],
      'A number is too large or too small to be stored',
    );
  }
  // Division by zero (22012) is a fault of the server's own arithmetic, not of a value sent.
  if ((code?.startsWith('22') && code !== '22012') || code === '23514') {
    return validationError(
      [{ path: '', message: validationCodes.VALUE_CANNOT_BE_STORED }],
      'A value cannot be stored',
    );
  }
  return undefined;
}
