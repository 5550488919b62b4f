import {
  type ApiErrorBody,
  type ErrorCode,
  errorNames,
  errorStatusCodes,
  type ValidationIssue,
} from '@dukkan/contract';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';

/** An error meant for the client: it becomes `{ error: { code, name, message, ... } }`. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly statusCode: number;
  readonly details: Pick<ApiErrorBody, 'key' | 'target' | 'issues' | 'retryAfter'>;

  constructor(code: ErrorCode, message: string, details: AppError['details'] = {}) {
    super(message);
    this.code = code;
    this.name = errorNames[code];
    this.statusCode = errorStatusCodes[code];
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

export function validationError(issues: ValidationIssue[], message = 'Validation failed'): AppError {
  return new AppError('VALIDATION', message, { key: issues[0]?.path, issues });
}

/** One issue per path, the first zod reports (spec §5: "one message per path"). */
export function issuesFromZod(error: z.ZodError): ValidationIssue[] {
  const byPath = new Map<string, string>();
  for (const issue of error.issues) {
    const path = issue.path.map(String).join('.');
    if (!byPath.has(path)) byPath.set(path, issue.message);
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
  constraint?: string;
  cause?: unknown;
}

/** A unique violation's field, read from an index named `<table>__<field>__unique`. */
export function uniqueViolationTarget(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth++) {
    const candidate = current as DriverError;
    if (candidate.code === '23505') {
      const match = candidate.constraint?.match(/__([a-z0-9_]+?)__unique$/i);
      return match?.[1] ?? 'unknown';
    }
    current = candidate.cause;
  }
  return undefined;
}

const camel = (snake: string) => snake.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

/** The one error handler: every failure leaves as the contract's error shape, never a stack or SQL. */
export function handleError(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) {
  let appError: AppError;
  if (error instanceof AppError) {
    appError = error;
  } else {
    const fastifyError = error as FastifyError;
    const target = uniqueViolationTarget(error);
    if (target) {
      const field = camel(target);
      appError = new AppError(
        'DB',
        field === 'code' ? 'This code must be unique' : `${field} already exists`,
        {
          target: field,
        },
      );
    } else if (fastifyError.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      appError = validationError(
        [{ path: '', message: 'Unsupported content type' }],
        'Unsupported content type',
      );
    } else if (
      fastifyError.code?.startsWith('FST_ERR_CTP') ||
      fastifyError.statusCode === 400 ||
      fastifyError.statusCode === 413 ||
      error instanceof SyntaxError
    ) {
      // Malformed JSON, empty JSON body, body too large: the client's mistake, reported as such.
      appError = validationError([{ path: '', message: 'Malformed request body' }], 'Malformed request body');
    } else if (fastifyError.statusCode === 404) {
      appError = notFound();
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
