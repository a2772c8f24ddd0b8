/**
 * What a route answers, declared in its handler list next to validateBody (`answers(201, CreatedOrder)`),
 * from the domain's answer shapes: the same value is the TypeScript type the use case returns and the
 * JSON Schema the OpenAPI document publishes and the drift test checks real answers against.
 * Each declaration is a pass-through handler: it does nothing at run time but carry the tag.
 */
import type { RequestHandler } from 'express';
import type { Shape } from '@platform/domain';
import { declareAnswer, type RouteAnswer } from './route-policy';

const tagged = (answer: RouteAnswer): RequestHandler => declareAnswer((_req, _res, next) => next(), answer);

/** A JSON body of this shape, with this status. */
export function answers(status: number, shape: Shape<unknown>): RequestHandler {
  return tagged({ status, contentType: 'application/json', schema: shape.schema });
}

/** One page of a list (http/paging.ts sendPage): an array of rows, the total in x-total-count (and any other header named). */
export function answersPage(row: Shape<unknown>, ...headers: string[]): RequestHandler {
  return tagged({ status: 200, contentType: 'application/json', schema: { type: 'array', items: row.schema }, paged: true, headers: ['x-total-count', ...headers] });
}

/** A file (a PDF, a CSV, a page) rather than JSON. */
export function answersFile(contentType: string, status = 200): RequestHandler {
  return tagged({ status, contentType });
}

/** No body: 204 after a command, or a redirect (then the Location header). */
export function answersNothing(status = 204): RequestHandler {
  return tagged({ status, ...(status >= 300 && status < 400 ? { headers: ['location'] } : {}) });
}
