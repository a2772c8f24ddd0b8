/** An account's Super Admin reads and exports its account's audit trail (Clinical Portal, issue 29). */
import { Router, type Response } from 'express';
import { AccountRole } from '@platform/domain';
import type { AppContext } from '../context';
import { requireAccountAccess, requireUser } from '../auth/guards';
import { CLINIC_API_BASE } from '../http/portal-bases';
import { mountAuditTrail } from '../http/audit-trail-routes';

export function clinicAuditTrailRouter(ctx: AppContext): Router {
  const router = Router();
  mountAuditTrail(router, ctx, {
    base: `${CLINIC_API_BASE}/audit-trail`,
    guards: [requireUser('provider'), requireAccountAccess(ctx, { portal: 'clinic', roles: [AccountRole.SuperAdmin] })],
    scopeOf: (res: Response) => ({ kind: 'account', accountId: (res.locals.account as { id: number }).id }),
    verify: false,
  });
  return router;
}
