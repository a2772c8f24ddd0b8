/**
 * What each route declares about who may call it and what input it takes, kept on the handlers
 * that enforce it (the guards, validateBody, validateQuery), so the route table can be read back:
 * test/api/access-matrix.test.ts calls every route as every kind of caller against its declaration,
 * and sends every schema's bad input. A route under /api with no declaration fails that test.
 */
import type { RequestHandler } from 'express';
import type Joi from 'joi';
import type { AccountRole, UserKind } from '@platform/domain';

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

const POLICY = Symbol('routePolicy');
const INPUT = Symbol('routeInput');

type Tagged = RequestHandler & { [POLICY]?: RoutePolicy; [INPUT]?: RouteInput };

export function declarePolicy(handler: RequestHandler, policy: RoutePolicy): RequestHandler {
  (handler as Tagged)[POLICY] = policy;
  return handler;
}

export function declareInput(handler: RequestHandler, input: RouteInput): RequestHandler {
  (handler as Tagged)[INPUT] = input;
  return handler;
}

export function policyOf(handler: unknown): RoutePolicy | undefined {
  return typeof handler === 'function' ? (handler as Tagged)[POLICY] : undefined;
}

export function inputOf(handler: unknown): RouteInput | undefined {
  return typeof handler === 'function' ? (handler as Tagged)[INPUT] : undefined;
}

/** Declares a route open to anyone, saying what it checks instead of a session. */
export function publicRoute(because: string): RequestHandler {
  return declarePolicy((_req, _res, next) => next(), { type: 'public', because });
}
