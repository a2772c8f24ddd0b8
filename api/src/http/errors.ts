/**
 * The refusals only HTTP knows (sign-in, throttling, a malformed request); everything else is a
 * server error (`@platform/server` errors.ts). The error handler maps both to one answer shape:
 * { error: { code, message, fields? }, requestId }.
 */
import type { FieldError } from '@platform/server';

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

export const unauthorized = (message = 'Please sign in') => new AppError(401, 'unauthorized', message);
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new AppError(429, 'too_many_attempts', message, undefined, { 'Retry-After': String(retryAfterSeconds) });
