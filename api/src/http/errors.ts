/**
 * The refusals only HTTP knows (sign-in, a malformed request); everything else is a
 * server error (`@platform/server` errors.ts). The error handler maps both to one answer shape:
 * { error: { code, message, fields? }, requestId }.
 */
import { shapes, type Infer } from '@platform/domain';
import type { FieldError } from '@platform/server';

/**
 * The one error answer of every route, as error-handler.ts sends it (typed by it) and the OpenAPI
 * document publishes it. requestId is absent only where no request id was set.
 */
export const ErrorAnswer = shapes.object({
  error: shapes.object({
    code: shapes.string,
    message: shapes.string,
    fields: shapes.optional(shapes.array(shapes.object({ field: shapes.string, message: shapes.string }))),
  }),
  requestId: shapes.optional(shapes.string),
});
export type ErrorAnswer = Infer<typeof ErrorAnswer>;

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
