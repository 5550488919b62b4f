import { DrizzleQueryError } from 'drizzle-orm';

/** What a driver error says about itself without the values involved (PostgreSQL and PGlite alike). */
const describedFields = [
  'code',
  'statusCode',
  'severity',
  'table',
  'column',
  'constraint',
  'routine',
] as const;

/** PostgreSQL's data exceptions (SQLSTATE class 22) quote the value they refused in their message. */
const isDataException = (code: unknown) => typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code);

/** A stack's frames only: its first line repeats the message, which may carry a value. */
function framesOf(stack: unknown): string | undefined {
  if (typeof stack !== 'string') return undefined;
  const frames = stack.split('\n').filter((line) => /^\s+at /.test(line));
  return frames.length > 0 ? frames.join('\n') : undefined;
}

/** The shape pino and Fastify expect of a serialized error. */
interface LoggedError {
  type: string;
  message: string;
  stack: string;
  [field: string]: unknown;
}

/**
 * The logger's `err` serializer: an error's kind, code and message, never the values it was
 * handed. A failed query's message and `params` carry the statement's parameters (names, phones,
 * a session token's hash, a new password's hash), so it is logged as its driver error only; a
 * driver error's `detail`, `where` and the value a data exception quotes are left out too.
 */
export function loggedError(error: unknown): LoggedError {
  return describe(error, 0);
}

function describe(error: unknown, depth: number): LoggedError {
  if (typeof error !== 'object' || error === null) {
    return { type: typeof error, message: 'A value that is not an error was thrown', stack: '' };
  }
  const source = error as Partial<Error> & Record<string, unknown>;
  const kind = source.constructor?.name;
  const failedQuery = error instanceof DrizzleQueryError || ('query' in source && 'params' in source);
  let message = typeof source.message === 'string' ? source.message : '';
  if (failedQuery) message = 'Failed query';
  else if (isDataException(source.code)) message = message.replace(/"[^"]*"/g, '"…"');
  const logged: LoggedError = {
    type: kind && kind !== 'Object' ? kind : String(source.name ?? 'Error'),
    message,
    stack: framesOf(source.stack) ?? '',
  };
  for (const field of describedFields) {
    if (source[field] !== undefined && source[field] !== null) logged[field] = source[field];
  }
  if (source.cause !== undefined && depth < 3) logged.cause = describe(source.cause, depth + 1);
  return logged;
}
