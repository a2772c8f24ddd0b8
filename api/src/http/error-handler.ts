import type { ErrorRequestHandler } from 'express';
import type { Logger } from 'pino';
import { Conflict, DomainError, Forbidden, Gone, Invalid, Locked, NotFound, TooManyAttempts, Unprocessable } from '@platform/server';
import { JSON_MAX_DEPTH } from '@platform/domain';
import { AppError, type ErrorAnswer } from './errors';

interface BodyParserError extends Error {
  type?: string;
  status?: number;
  limit?: number;
}

const megabytes = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;

/** Translates what Express's body parser throws into our own errors. */
function fromBodyParser(err: BodyParserError): AppError | null {
  switch (err.type) {
    case 'entity.parse.failed':
      return new AppError(400, 'malformed_json', 'The request body is not valid JSON');
    case 'entity.too.deep':
      return new AppError(400, 'body_too_deep', `The request body is nested too deeply (the limit is ${JSON_MAX_DEPTH} levels of objects and arrays)`);
    case 'entity.too.large':
      return new AppError(413, 'body_too_large', `The request body is too large${err.limit ? ` (the limit is ${megabytes(err.limit)})` : ''}`);
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new AppError(415, 'unsupported_encoding', 'The request body encoding is not supported');
    default:
      return null;
  }
}

/** The status code of each server refusal: the one place they meet HTTP. */
export function fromDomain(err: DomainError): AppError {
  if (err instanceof TooManyAttempts) return new AppError(429, err.code, err.message, undefined, { 'Retry-After': String(err.retryAfterSeconds) });
  const status = err instanceof NotFound ? 404 : err instanceof Conflict ? 409 : err instanceof Forbidden ? 403 : err instanceof Invalid ? 400
    : err instanceof Gone ? 410 : err instanceof Unprocessable ? 422 : err instanceof Locked ? 423 : 400;
  return new AppError(status, err.code, err.message, err.fields);
}

const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', '57P01', '57P02', '57P03', '08000', '08001', '08003', '08006']);
const UNAVAILABLE_NAMES = new Set([
  'SequelizeConnectionError', 'SequelizeConnectionRefusedError', 'SequelizeConnectionAcquireTimeoutError', 'SequelizeConnectionTimedOutError',
  'SequelizeHostNotFoundError', 'SequelizeHostNotReachableError', 'MaxRetriesPerRequestError',
]);

/** PostgreSQL or Redis out of reach (restarting, failing over): a 503 the caller may retry, not a 500. */
function serviceUnavailable(err: unknown): AppError | null {
  const chain = [err, (err as { parent?: unknown })?.parent, (err as { original?: unknown })?.original].filter(Boolean) as { name?: string; code?: string; message?: string }[];
  const down = chain.some((e) =>
    UNAVAILABLE_NAMES.has(e.name ?? '') || UNAVAILABLE_CODES.has(e.code ?? '') ||
    /^Connection (is closed|terminated)/.test(e.message ?? '') || /^Stream isn't writeable/.test(e.message ?? '') ||
    // pg's client whose connection broke (PostgreSQL restarting) refuses further queries with this message.
    /^Client has encountered a connection error and is not queryable/.test(e.message ?? ''),
  );
  return down
    ? new AppError(503, 'unavailable', 'The service is briefly unavailable. Please try again in a moment.', undefined, { 'Retry-After': '5' })
    : null;
}

/** The one error handler: every failure leaves as { error: { code, message, fields? }, requestId }. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err, _req, res, _next) => {
    const requestId = res.locals.requestId as string | undefined;
    let appError = err instanceof AppError ? err : err instanceof DomainError ? fromDomain(err) : fromBodyParser(err as BodyParserError);
    if (!appError && (err as { code?: string }).code === 'EBADCSRFTOKEN') {
      appError = new AppError(403, 'csrf', 'The form has expired. Reload the page and try again.');
    }
    appError ??= serviceUnavailable(err);
    const status = (err as { status?: unknown; statusCode?: unknown }).status ?? (err as { statusCode?: unknown }).statusCode;
    if (!appError && typeof status === 'number' && status >= 400 && status < 500) {
      // Express's own refusals, e.g. a path with broken percent-encoding.
      appError = new AppError(status, 'bad_request', 'The request is malformed');
    }
    if (!appError) {
      logger.error({ requestId, err: { name: (err as Error).name, message: (err as Error).message, stack: (err as Error).stack } }, 'unhandled error');
      appError = new AppError(500, 'internal', 'Something went wrong on our side. Please try again.');
    }
    if (res.headersSent) return;
    res.set(appError.headers);
    res.status(appError.status).json({
      error: { code: appError.code, message: appError.message, ...(appError.fields ? { fields: appError.fields } : {}) },
      requestId,
    } satisfies ErrorAnswer);
  };
}
