/**
 * Typed errors mapped to status codes in one place (the error handler in app.ts). Every error
 * the API sends has one shape: { error: { code, message, fields? }, requestId }.
 */
export interface FieldError {
  field: string;
  message: string;
}

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields?: FieldError[],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string, fields?: FieldError[]) => new AppError(400, 'bad_request', message, fields);
export const validationFailed = (fields: FieldError[]) =>
  new AppError(400, 'validation_failed', fields.map((f) => f.message).join('; '), fields);
export const unauthorized = (message = 'Please sign in') => new AppError(401, 'unauthorized', message);
export const forbidden = (message = 'You do not have access to this') => new AppError(403, 'forbidden', message);
export const notFound = (message = 'Not found') => new AppError(404, 'not_found', message);
export const conflict = (message: string, fields?: FieldError[]) => new AppError(409, 'conflict', message, fields);
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new AppError(429, 'too_many_attempts', message, undefined, { 'Retry-After': String(retryAfterSeconds) });
