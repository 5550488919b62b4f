/** The error codes every API answer uses; the web maps them to translated messages. */
export const errorCodes = [
  'VALIDATION',
  'DB',
  'UNAUTHORIZED',
  'FORBIDDEN',
  /** The workspace requires a second factor and the session has not used one: enrol or step up. */
  'SECOND_FACTOR_REQUIRED',
  'NOT_FOUND',
  'RATE_LIMITED',
  'CAPTCHA',
  'INTERNAL',
] as const;
export type ErrorCode = (typeof errorCodes)[number];

/** The `name` that goes with each code; the spec reads `UnauthorizedError` and `NotFoundError`. */
export const errorNames: Record<ErrorCode, string> = {
  VALIDATION: 'ValidationError',
  DB: 'DBError',
  UNAUTHORIZED: 'UnauthorizedError',
  FORBIDDEN: 'ForbiddenError',
  SECOND_FACTOR_REQUIRED: 'SecondFactorRequiredError',
  NOT_FOUND: 'NotFoundError',
  RATE_LIMITED: 'RateLimitedError',
  CAPTCHA: 'CaptchaError',
  INTERNAL: 'InternalError',
};

export const errorStatusCodes: Record<ErrorCode, number> = {
  VALIDATION: 400,
  DB: 409,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  SECOND_FACTOR_REQUIRED: 403,
  NOT_FOUND: 404,
  RATE_LIMITED: 429,
  CAPTCHA: 400,
  INTERNAL: 500,
};

export interface ValidationIssue {
  /** Dotted path of the offending field, e.g. `email` or `phones.0.number`. */
  path: string;
  /** A validation code from `validationCodes` (translated by the web), or zod's own English text. */
  message: string;
  /** Values for the translated message's placeholders, e.g. `{ count: 2049, max: 2048 }`. */
  params?: Record<string, string | number>;
}

/** The body of every error answer: `{ error: ApiErrorBody }`. */
export interface ApiErrorBody {
  statusCode: number;
  code: ErrorCode;
  name: string;
  message: string;
  /** VALIDATION: the first offending field. */
  key?: string;
  /** DB: the field whose unique constraint was violated. */
  target?: string;
  issues?: ValidationIssue[];
  /** RATE_LIMITED: seconds until another attempt is accepted. */
  retryAfter?: number;
  /**
   * The request's id, as in the server's log lines and the `X-Request-Id` answer header: what a
   * report of the failure quotes. Every error answer of the server carries it.
   */
  requestId?: string;
}

export function isApiErrorBody(value: unknown): value is ApiErrorBody {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<ApiErrorBody>;
  return typeof candidate.code === 'string' && typeof candidate.statusCode === 'number';
}
