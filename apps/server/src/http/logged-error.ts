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

/**
 * The logger's `err` serializer: an error's kind, code and message, never the values it was
 * handed. A failed query's message and `params` carry the statement's parameters (names, phones,
 * a session token's hash, a new password's hash), so it is logged as its driver error only; a
 * driver error's `detail`, `where` and the value a data exception quotes are left out too.
 */
export function loggedError(error: unknown, depth = 0): Record<string, unknown> {
  if (!(error instanceof Error) && (typeof error !== 'object' || error === null)) {
    return { type: typeof error, message: 'A non-error value was thrown' };
  }
  const source = error as Error & Record<string, unknown>;
  const logged: Record<string, unknown> = {
    type:
      source.constructor?.name && source.constructor.name !== 'Object'
        ? source.constructor.name
        : source.name,
  };
  if (error instanceof DrizzleQueryError || ('query' in source && 'params' in source)) {
    logged.message = 'Failed query';
  } else if (typeof source.message === 'string') {
    logged.message = isDataException(source.code)
      ? source.message.replace(/"[^"]*"/g, '"…"')
      : source.message;
  }
  for (const field of describedFields) {
    if (source[field] !== undefined && source[field] !== null) logged[field] = source[field];
  }
  const stack = framesOf(source.stack);
  if (stack) logged.stack = stack;
  if (source.cause !== undefined && depth < 3) logged.cause = loggedError(source.cause, depth + 1);
  return logged;
}
