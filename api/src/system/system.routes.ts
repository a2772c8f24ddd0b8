import { Router } from 'express';
import type { AppContext } from '../context';
import { publicRoute } from '../http/route-policy';

export function systemRouter(ctx: AppContext): Router {
  const router = Router();

  router.get('/get-build-id', publicRoute('the build id the SPA polls, before and after sign-in'), (_req, res) => {
    res.set('Cache-Control', 'no-store, max-age=0').json({ buildId: ctx.config.buildId });
  });

  router.get('/health', publicRoute('a load balancer\'s health check; it names no data'), async (_req, res) => {
    const [postgres, redis] = await Promise.all([
      ctx.db.sequelize.query('SELECT 1').then(() => 'ok', () => 'down'),
      ctx.redis.ping().then(() => 'ok', () => 'down'),
    ]);
    res.set('Cache-Control', 'no-store').status(postgres === 'ok' && redis === 'ok' ? 200 : 503).json({ postgres, redis });
  });

  return router;
}
