/**
 * The audit trail's routes (issue 29), mounted twice: for the lab's admin at /api/admin/audit-trail
 * (every event, and "Verify the trail") and for an account's Super Admin at
 * /api/provider-clinic/{accountId}/audit-trail (that account's events). The scope comes from the
 * route, never from the client; the use cases check every filter against it.
 */
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import type { Request, RequestHandler, Response, Router } from 'express';
import {
  AuditExportView, auditFiltersQuery, AuditPatientOption, auditPatientSearchBody, auditPdfExportBody, AuditTrailPage, auditTrailQuery, AuditVerificationView,
  shapes, type AuditTrailFilters, type AuditTrailQuery,
} from '@platform/domain';
import {
  auditExportFile, exportAuditCsv, getAuditExport, listAuditTrail, requestAuditPdf, searchAuditPatients, verifyAuditTrail, type AuditScope,
} from '@platform/server';
import type { AppContext } from '../context';
import { validateBody, validateQuery } from './validate';
import { answers, answersFile } from './answers';
import { sendAttachment } from './send-file';
import { userCallerOf } from './caller';
import { pathId } from './path-id';

export interface AuditTrailMount {
  /** The trail's path under the router (`/audit-trail`, or the clinic's `/provider-clinic/:accountId/audit-trail`). */
  base: string;
  /** The guards every route of the trail runs first. */
  guards: RequestHandler[];
  scopeOf(res: Response): AuditScope;
  /** "Verify the trail" (the chain is the whole platform's: the lab's admin only). */
  verify: boolean;
}

export function mountAuditTrail(router: Router, ctx: AppContext, { base, guards, scopeOf, verify }: AuditTrailMount): void {
  const noStore = (res: Response) => res.set('Cache-Control', 'no-store');
  const jobIdOf = (req: Request) => pathId(req.params.jobId, 'Export');

  router.get(base, ...guards, validateQuery(auditTrailQuery), answers(200, AuditTrailPage), async (req, res) => {
    noStore(res).json(await listAuditTrail(ctx, userCallerOf(req, res), scopeOf(res), res.locals.query as AuditTrailQuery));
  });
  router.get(`${base}/export.csv`, ...guards, validateQuery(auditFiltersQuery), answersFile('text/csv'), async (req, res) => {
    const { fileName, lines } = await exportAuditCsv(ctx, userCallerOf(req, res), scopeOf(res), res.locals.query as AuditTrailFilters);
    noStore(res).set('Content-Type', 'text/csv; charset=utf-8').set('Content-Disposition', `attachment; filename="${fileName}"`);
    await pipeline(Readable.from(lines), res);
  });
  router.post(`${base}/exports`, ...guards, validateBody(auditPdfExportBody), answers(202, AuditExportView), async (req, res) => {
    res.status(202).json(await requestAuditPdf(ctx, userCallerOf(req, res), scopeOf(res), req.body as AuditTrailFilters));
  });
  router.get(`${base}/exports/:jobId`, ...guards, answers(200, AuditExportView), async (req, res) => {
    noStore(res).json(await getAuditExport(ctx, userCallerOf(req, res), scopeOf(res), jobIdOf(req)));
  });
  router.get(`${base}/exports/:jobId/file`, ...guards, answersFile('application/pdf'), async (req, res) => {
    const file = await auditExportFile(ctx, userCallerOf(req, res), scopeOf(res), jobIdOf(req));
    sendAttachment(res, file, 'application/pdf');
  });
  router.post(`${base}/patients/search`, ...guards, validateBody(auditPatientSearchBody), answers(200, shapes.array(AuditPatientOption)), async (req, res) => {
    noStore(res).json(await searchAuditPatients(ctx, userCallerOf(req, res), scopeOf(res), (req.body as { q: string }).q));
  });
  if (verify) {
    router.post(`${base}/verify`, ...guards, answers(200, AuditVerificationView), async (req, res) => {
      noStore(res).json(await verifyAuditTrail(ctx, userCallerOf(req, res)));
    });
  }
}
