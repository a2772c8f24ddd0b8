/**
 * The admin's job monitor (mounted at /api/admin by admin.routes.ts, behind requireUser('admin')):
 * BullMQ's counts beside the job rows', the rows, and retrying Failed ones.
 */
import { Router, type Response } from 'express';
import { JobSummary, JobRow, JobsRetried, jobsQuery, type JobsQuery } from '@platform/domain';
import { jobSummary, listJobs, retryFailedJobs, retryJob } from '@platform/server';
import type { AppContext } from '../context';
import { userCallerOf } from '../http/caller';
import { sendPage } from '../http/paging';
import { pathId } from '../http/path-id';
import { validateQuery } from '../http/validate';
import { answers, answersPage } from '../http/answers';

export function adminJobsRouter(ctx: AppContext): Router {
  const router = Router();
  const noStore = (res: Response) => res.set('Cache-Control', 'no-store');

  router.get('/jobs/summary', answers(200, JobSummary), async (_req, res) => {
    noStore(res).json(await jobSummary(ctx));
  });
  router.get('/jobs', validateQuery(jobsQuery), answersPage(JobRow), async (_req, res) => {
    sendPage(res, await listJobs(ctx.db, res.locals.query as JobsQuery));
  });
  router.post('/jobs/retry-failed', answers(200, JobsRetried), async (req, res) => {
    res.json(await retryFailedJobs(ctx, userCallerOf(req, res)));
  });
  router.post('/jobs/:jobId/retry', answers(200, JobsRetried), async (req, res) => {
    res.json(await retryJob(ctx, userCallerOf(req, res), pathId(req.params.jobId, 'Job')));
  });

  return router;
}
