import type { RequestHandler } from 'express';
import type Joi from 'joi';
import { validate } from '@platform/domain';
import { validationFailed } from '@platform/server';
import { declareInput } from './route-policy';

/** Validates req.body against a domain schema; unknown keys are refused, the value is replaced by the converted one. */
export function validateBody(schema: Joi.Schema): RequestHandler {
  return declareInput((req, _res, next) => {
    const result = validate(schema, req.body ?? {});
    if ('fields' in result) return next(validationFailed(result.fields));
    req.body = result.value;
    next();
  }, { where: 'body', schema });
}

/** Validates req.query; the converted value is kept on res.locals.query (Express 5's req.query is read-only). */
export function validateQuery(schema: Joi.Schema): RequestHandler {
  return declareInput((req, res, next) => {
    const result = validate(schema, { ...req.query });
    if ('fields' in result) return next(validationFailed(result.fields));
    res.locals.query = result.value;
    next();
  }, { where: 'query', schema });
}
