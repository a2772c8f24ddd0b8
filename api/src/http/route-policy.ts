/**
 * What each route declares about who may call it, what input it takes and what it answers, kept on
 * the handlers that enforce it (the guards, validateBody, validateQuery) or beside them (answers(),
 * http/answers.ts), so the route table can be read back (http/route-table.ts):
 * test/api/access-matrix.test.ts calls every route as every kind of caller against its declaration,
 * and sends every schema's bad input; the OpenAPI document (api/src/openapi) is written from it, and
 * test/api/openapi.test.ts checks real answers against it. A route under /api with no declaration
 * fails those tests.
 */
import type { RequestHandler } from 'express';
import type Joi from 'joi';
import type { AccountRole, JsonSchema, UserKind } from '@platform/domain';

export type RoutePolicy =
  /** A signed-in user of one of these kinds (any kind when the list is empty). */
  | { type: 'user'; kinds: UserKind[] }
  /** A member of the URL's account, with that portal's access and one of those roles. */
  | { type: 'account'; portal?: 'clinic' | 'research'; roles?: AccountRole[] }
  /** Anyone: the route checks its own credential (a link's token, a webhook's signature, a password). */
  | { type: 'public'; because: string };

export interface RouteInput {
  where: 'body' | 'query';
  schema: Joi.Schema;
}

/** One answer a route may send (besides the error answers every route shares). */
export interface RouteAnswer {
  status: number;
  /** application/json, or a file's type (application/pdf, text/csv, text/html); none for an empty answer. */
  contentType?: string;
  /** The JSON body's schema (a domain answer shape's), for JSON answers. */
  schema?: JsonSchema;
  /** A list's page: the rows are the body, the whole list's size is in x-total-count (sendPage). */
  paged?: boolean;
  /** Headers the answer sets that a client reads (Location of a redirect…). */
  headers?: string[];
}

/** A request body read raw rather than as JSON (a lab file upload). */
export interface RouteRawBody {
  contentType: string;
  description: string;
  /** The schema the route checks the body against once it has read it (a webhook's event). */
  schema?: Joi.Schema;
}

/** Path parameters whose value is text, where the naming rule (`…Id` is a number, http/path-id.ts) would say otherwise. */
export type RouteTextParams = string[];

/** A check the request passes on its way that the route's caller must satisfy (a CSRF token on a state change). */
export type RouteCheck = 'csrf';

const POLICY = Symbol('routePolicy');
const INPUT = Symbol('routeInput');
const ANSWER = Symbol('routeAnswer');
const RAW_BODY = Symbol('routeRawBody');
const CHECK = Symbol('routeCheck');
const TEXT_PARAMS = Symbol('routeTextParams');

type Tagged = RequestHandler & {
  [POLICY]?: RoutePolicy; [INPUT]?: RouteInput; [ANSWER]?: RouteAnswer; [RAW_BODY]?: RouteRawBody; [CHECK]?: RouteCheck; [TEXT_PARAMS]?: RouteTextParams;
};

export function declarePolicy(handler: RequestHandler, policy: RoutePolicy): RequestHandler {
  (handler as Tagged)[POLICY] = policy;
  return handler;
}

export function declareInput(handler: RequestHandler, input: RouteInput): RequestHandler {
  (handler as Tagged)[INPUT] = input;
  return handler;
}

export function declareAnswer(handler: RequestHandler, answer: RouteAnswer): RequestHandler {
  (handler as Tagged)[ANSWER] = answer;
  return handler;
}

export function declareRawBody(handler: RequestHandler, body: RouteRawBody): RequestHandler {
  (handler as Tagged)[RAW_BODY] = body;
  return handler;
}

export function declareCheck(handler: RequestHandler, check: RouteCheck): RequestHandler {
  (handler as Tagged)[CHECK] = check;
  return handler;
}

export function declareTextParams(handler: RequestHandler, names: RouteTextParams): RequestHandler {
  (handler as Tagged)[TEXT_PARAMS] = names;
  return handler;
}

export function policyOf(handler: unknown): RoutePolicy | undefined {
  return typeof handler === 'function' ? (handler as Tagged)[POLICY] : undefined;
}

export function inputOf(handler: unknown): RouteInput | undefined {
  return typeof handler === 'function' ? (handler as Tagged)[INPUT] : undefined;
}

export function answerOf(handler: unknown): RouteAnswer | undefined {
  return typeof handler === 'function' ? (handler as Tagged)[ANSWER] : undefined;
}

export function rawBodyOf(handler: unknown): RouteRawBody | undefined {
  return typeof handler === 'function' ? (handler as Tagged)[RAW_BODY] : undefined;
}

export function checkOf(handler: unknown): RouteCheck | undefined {
  return typeof handler === 'function' ? (handler as Tagged)[CHECK] : undefined;
}

export function textParamsOf(handler: unknown): RouteTextParams | undefined {
  return typeof handler === 'function' ? (handler as Tagged)[TEXT_PARAMS] : undefined;
}

/** Declares a route open to anyone, saying what it checks instead of a session. */
export function publicRoute(because: string): RequestHandler {
  return declarePolicy((_req, _res, next) => next(), { type: 'public', because });
}
