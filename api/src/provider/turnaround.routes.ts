/**
 * A clinic's turnaround (issue 30, part 4; docs/turnaround.md): its own account's samples only
 * (requireAccountAccess: another account's id answers 404 like one that does not exist).
 *   GET /provider-clinic/:accountId/turnaround?from=&to=
 *   GET /provider-clinic/:accountId/turnaround/export.csv?table=&from=&to=
 */
import { Router, type RequestHandler, type Response } from 'express';
import { ClinicTurnaroundView, clinicTurnaroundExportQuery, turnaroundQuery, type ClinicTurnaroundExportQuery, type TurnaroundQuery } from '@platform/domain';
import { clinicTurnaround, clinicTurnaroundCsv } from '@platform/server';
import type { AppContext } from '../context';
import { requireAccountAccess, requireUser } from '../auth/guards';
import { validateQuery } from '../http/validate';
import { accountCallerOf } from '../http/caller';
import { CLINIC_API_BASE } from '../http/portal-bases';
import { answers, answersFile } from '../http/answers';

const noStore = (res: Response) => res.set('Cache-Control', 'no-store');

export function clinicTurnaroundRouter(ctx: AppContext): Router {
  const router = Router();
  const clinic: RequestHandler[] = [requireUser('provider'), requireAccountAccess(ctx, { portal: 'clinic' })];
  const path = `${CLINIC_API_BASE}/turnaround`;
  router.get(path, ...clinic, validateQuery(turnaroundQuery), answers(200, ClinicTurnaroundView), async (req, res) => {
    noStore(res).json(await clinicTurnaround(ctx, accountCallerOf(req, res), res.locals.query as TurnaroundQuery));
  });
  router.get(`${path}/export.csv`, ...clinic, validateQuery(clinicTurnaroundExportQuery), answersFile('text/csv'), async (req, res) => {
    const query = res.locals.query as ClinicTurnaroundExportQuery;
    const { fileName, csv } = clinicTurnaroundCsv(await clinicTurnaround(ctx, accountCallerOf(req, res), query), query.table);
    noStore(res).set('Content-Type', 'text/csv; charset=utf-8').set('Content-Disposition', `attachment; filename="${fileName}"`).send(csv);
  });
  return router;
}
