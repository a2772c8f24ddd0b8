/** FHIR's error answer (R4 OperationOutcome), the one shape every /fhir/R4 failure takes. */
import type { ErrorRequestHandler, Response } from 'express';
import { DomainError } from '@platform/server';
import { fromDomain } from '../http/error-handler';

/** R4 IssueType codes this server answers with. */
export type IssueCode = 'login' | 'forbidden' | 'not-found' | 'invalid' | 'not-supported' | 'throttled' | 'exception';

export function sendOutcome(res: Response, status: number, code: IssueCode, diagnostics: string): void {
  res.status(status).type('application/fhir+json').json({
    resourceType: 'OperationOutcome',
    issue: [{ severity: 'error', code, diagnostics }],
  });
}

const CODE_OF_STATUS: Record<number, IssueCode> = { 400: 'invalid', 401: 'login', 403: 'forbidden', 404: 'not-found', 405: 'not-supported', 422: 'invalid', 429: 'throttled' };

/**
 * The FHIR router's error handler: a capability's refusal (bad search parameter, not found) with
 * its status and message; anything else a 500 whose details go to the log only.
 */
export function fhirErrors(logger: { error: (o: object, m: string) => void }): ErrorRequestHandler {
  return (err, _req, res, _next) => {
    if (err instanceof DomainError) {
      const { status, message } = fromDomain(err);
      return sendOutcome(res, status, CODE_OF_STATUS[status] ?? 'invalid', message);
    }
    if ((err as { type?: string }).type === 'entity.too.large') return sendOutcome(res, 413, 'invalid', 'The request is too large');
    logger.error({ err: (err as Error).message }, 'fhir request failed');
    sendOutcome(res, 500, 'exception', 'The server could not answer this request');
  };
}
