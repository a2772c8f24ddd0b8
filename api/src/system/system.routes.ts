import { Router } from 'express';
import { shapes } from '@platform/domain';
import type { AppContext } from '../context';
import { publicRoute } from '../http/route-policy';
import { answers } from '../http/answers';

/** GET system/get-build-id: the build the API runs (the SPA reloads when it changes). */
const BuildId = shapes.object({ buildId: shapes.string });
const serviceState = shapes.oneOf(['ok', 'down']);
/** GET system/health: 200 when both answer, 503 when either is down. */
const Health = shapes.object({ postgres: serviceState, redis: serviceState });

export function systemRouter(ctx: AppContext): Router {
  const router = Router();

  router.get('/get-build-id', publicRoute('the build id the SPA polls, before and after sign-in'), answers(200, BuildId), (_req, res) => {
    res.set('Cache-Control', 'no-store, max-age=0').json({ buildId: ctx.config.buildId });
  });

  router.get('/health', publicRoute('a load balancer\'s health check; it names no data'), answers(200, Health), answers(503, Health), async (_req, res) => {
    const [postgres, redis] = await Promise.all([
      ctx.db.sequelize.query('SELECT 1').then(() => 'ok', () => 'down'),
      ctx.redis.ping().then(() => 'ok', () => 'down'),
    ]);
    res.set('Cache-Control', 'no-store').status(postgres === 'ok' && redis === 'ok' ? 200 : 503).json({ postgres, redis });
  });

  return router;
}
