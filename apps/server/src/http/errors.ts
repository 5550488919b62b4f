import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import {
  type ApiErrorBody,
  type ErrorCode,
  errorNames,
  errorStatusCodes,
  type ValidationIssue,
  validationCodes,
} from '@dukkan/contract';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
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

/** A request the HTTP layer refuses as a whole (its body, URL or headers): `VALIDATION` with its status. */
const requestRefused = (message: string, statusCode = 400) =>
  validationError([{ path: '', message }], message, statusCode);

/** The contract's code for a client error (4xx) raised by Fastify or a plugin rather than by Dukkan. */
function clientErrorFor(statusCode: number): AppError {
  switch (statusCode) {
    case 401:
      return new AppError('UNAUTHORIZED', 'You are not signed in');
    case 403:
      return new AppError('FORBIDDEN', 'You are not authorized to perform this action');
    case 404:
      return notFound();
    case 429:
      return new AppError('RATE_LIMITED', 'Too many attempts, please try again later');
    default:
      return requestRefused(STATUS_CODES[statusCode] ?? 'Bad request', statusCode);
  }
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

const camel = (snake: string) => snake.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

/**
 * The one error handler: every failure leaves as the contract's error shape, never a stack or SQL.
 * Also Fastify's `frameworkErrors` (a malformed URL, an over-long path parameter).
 */
export function handleError(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) {
  let appError: AppError;
  if (error instanceof AppError) {
    appError = error;
  } else {
    const fastifyError = error as FastifyError;
    const target = uniqueViolationTarget(error);
    const refusedValue = refusedValueError(error);
    if (target) {
      const field = camel(target);
      appError = new AppError(
        'DB',
        field === 'code' ? 'This code must be unique' : `${field} already exists`,
        {
          target: field,
        },
      );
    } else if (refusedValue) {
      // The client's value, but one the contract should have refused: logged so the gap is seen.
      request.log.warn({ err: error }, 'database refused a value');
      appError = refusedValue;
    } else if (fastifyError.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || fastifyError.statusCode === 413) {
      appError = requestRefused('Request body too large', 413);
    } else if (fastifyError.code === 'FST_ERR_MAX_PARAM_LENGTH') {
      appError = requestRefused('Request URL too long', 414);
    } else if (fastifyError.code === 'FST_ERR_BAD_URL') {
      appError = requestRefused('Malformed request URL');
    } else if (fastifyError.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      appError = validationError(
        [{ path: '', message: 'Unsupported content type' }],
        'Unsupported content type',
      );
    } else if (
      fastifyError.code?.startsWith('FST_ERR_CTP') ||
      fastifyError.statusCode === 400 ||
      error instanceof SyntaxError
    ) {
      // Malformed JSON, an empty JSON body: the client's mistake, reported as such.
      appError = requestRefused('Malformed request body');
    } else if (isClientErrorStatus(fastifyError.statusCode)) {
      // A plugin's refusal (a file path `send` will not serve…): the client's, not logged as a failure.
      request.log.info({ code: fastifyError.code, statusCode: fastifyError.statusCode }, 'request refused');
      appError = clientErrorFor(fastifyError.statusCode);
    } else {
      request.log.error({ err: error }, 'unhandled error');
      appError = new AppError('INTERNAL', 'Something went wrong');
    }
  }
  if (appError.code === 'RATE_LIMITED' && appError.details.retryAfter) {
    void reply.header('retry-after', String(appError.details.retryAfter));
  }
  return reply.status(appError.statusCode).send({ error: appError.toBody() });
}

const isClientErrorStatus = (status: unknown): status is number =>
  typeof status === 'number' && status >= 400 && status < 500;

/**
 * Fastify's `clientErrorHandler`: what Node's HTTP parser refuses before there is a request
 * (headers over the size limit → 431, a request that took too long → 408, bytes that are not
 * HTTP → 400) is answered in the contract's shape, then the connection is closed.
 */
export function handleClientError(error: NodeJS.ErrnoException, socket: Socket) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const appError =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? requestRefused('Request headers too large', 431)
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? requestRefused('Request timed out', 408)
        : requestRefused('Malformed request');
  const body = JSON.stringify({ error: appError.toBody() });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${appError.statusCode} ${STATUS_CODES[appError.statusCode]}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Connection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
