/**
 * The lab's turnaround dashboard (issue 30, part 4; docs/turnaround.md), lab users only:
 *   GET /lab-toolbox/turnaround?from=&to=                  every figure over the range
 *   GET /lab-toolbox/turnaround/export.csv?table=&from=&to= one table of it as CSV
 */
import { Router, type Response } from 'express';
import { LabTurnaroundView, labTurnaroundExportQuery, turnaroundQuery, type LabTurnaroundExportQuery, type TurnaroundQuery } from '@platform/domain';
import { labTurnaround, labTurnaroundCsv } from '@platform/server';
import { requireUser } from '../auth/guards';
import type { AppContext } from '../context';
import { validateQuery } from '../http/validate';
import { answers, answersFile } from '../http/answers';

const BASE = '/lab-toolbox/turnaround';
const noStore = (res: Response) => res.set('Cache-Control', 'no-store');

export function labTurnaroundRouter(ctx: AppContext): Router {
  const router = Router();
  router.use(BASE, requireUser('lab'));
  router.get(BASE, validateQuery(turnaroundQuery), answers(200, LabTurnaroundView), async (_req, res) => {
    noStore(res).json(await labTurnaround(ctx, res.locals.query as TurnaroundQuery));
  });
  router.get(`${BASE}/export.csv`, validateQuery(labTurnaroundExportQuery), answersFile('text/csv'), async (_req, res) => {
    const query = res.locals.query as LabTurnaroundExportQuery;
    const { fileName, csv } = labTurnaroundCsv(await labTurnaround(ctx, query), query.table);
    noStore(res).set('Content-Type', 'text/csv; charset=utf-8').set('Content-Disposition', `attachment; filename="${fileName}"`).send(csv);
  });
  return router;
}
