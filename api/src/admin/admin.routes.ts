import { Router } from 'express';
import type { AppContext } from '../context';
import { requireUser } from '../auth/guards';
import { adminEmailsRouter } from './emails.routes';
import { adminJobsRouter } from './jobs.routes';

/** The admin API (/api/admin/…): admin users only. */
export function adminRouter(ctx: AppContext): Router {
  const r = Router();
  r.use(requireUser('admin'));
  r.use(adminEmailsRouter(ctx));
  r.use(adminJobsRouter(ctx));
  return r;
}
