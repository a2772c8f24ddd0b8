import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';

const REQUEST_ID = /^[\w-]{8,64}$/;

/** Gives every request an id (the caller's if well-formed) and logs its outcome: no bodies, no patient data. */
export function requestContext(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const incoming = req.get('x-request-id');
    const id = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    res.locals.requestId = id;
    res.setHeader('x-request-id', id);
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      logger.info({ requestId: id, method: req.method, path: req.path, status: res.statusCode, ms: Math.round(ms), userId: (req.user as { id?: number } | undefined)?.id }, 'request');
    });
    next();
  };
}
