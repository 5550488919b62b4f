import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, notFound, refusedValueError, uniqueViolationTarget, validationError } from '../errors.ts';
import { requestIdHeader } from './request-id.ts';

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

const camel = (snake: string) => snake.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

/**
 * The one error handler: every failure leaves as the contract's error shape, never a stack or SQL,
 * with the request's id (also in its log lines) for a report to be matched to them. Also
 * Fastify's `frameworkErrors` (a malformed URL, an over-long path parameter), which no hook sees.
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
  void reply.header(requestIdHeader, request.id);
  return reply.status(appError.statusCode).send({ error: { ...appError.toBody(), requestId: request.id } });
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
  // No request was made of it, so no id was given: a new one, for the answer to be told apart.
  const requestId = randomUUID();
  const body = JSON.stringify({ error: { ...appError.toBody(), requestId } });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${appError.statusCode} ${STATUS_CODES[appError.statusCode]}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${requestId}\r\n` +
        `Connection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
