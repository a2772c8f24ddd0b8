import type { RequestHandler } from 'express';
import { notFound } from '@platform/server';
import { declareTextParams } from './route-policy';

/** A positive whole-number id from the path, or the 404 of something that does not exist. */
export function pathId(value: unknown, what: string): number {
  const n = Number(value);
  if (typeof value !== 'string' || !/^\d{1,15}$/.test(value) || !Number.isSafeInteger(n) || n <= 0) throw notFound(`${what} not found`);
  return n;
}

/**
 * How the OpenAPI document describes a path parameter: by this API's naming, `id` and `…Id` are the
 * ids pathId reads (a positive whole number); any other (a barcode, a campaign's name) is text, and
 * so is an `…Id` the route declares text with textParams (an API client's id).
 */
export function pathParamSchema(name: string, text: readonly string[] = []): { type: 'integer'; minimum: 1 } | { type: 'string' } {
  return (name === 'id' || name.endsWith('Id')) && !text.includes(name) ? { type: 'integer', minimum: 1 } : { type: 'string' };
}

/** Declares path parameters named like ids whose values are text (`textParams('clientId')`): a pass-through handler. */
export function textParams(...names: string[]): RequestHandler {
  return declareTextParams((_req, _res, next) => next(), names);
}
