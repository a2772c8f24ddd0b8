/** The lab's admin reads, exports and verifies the whole audit trail (mounted at /api/admin, behind requireUser('admin')). */
import { Router } from 'express';
import { LAB_AUDIT_SCOPE } from '@platform/server';
import type { AppContext } from '../context';
import { mountAuditTrail } from '../http/audit-trail-routes';

export function adminAuditTrailRouter(ctx: AppContext): Router {
  const router = Router();
  mountAuditTrail(router, ctx, { base: '/audit-trail', guards: [], scopeOf: () => LAB_AUDIT_SCOPE, verify: true });
  return router;
}
