import { Router } from 'express';
import type { AppContext } from '../context';

export function systemRouter(ctx: AppContext): Router {
  const router = Router();

  router.get('/get-build-id', (_req, res) => {
    res.set('Cache-Control', 'no-store, max-age=0').json({ buildId: ctx.config.buildId });
  });

  router.get('/health', async (_req, res) => {
    const [postgres, redis] = await Promise.all([
      ctx.db.sequelize.query('SELECT 1').then(() => 'ok', () => 'down'),
      ctx.redis.ping().then(() => 'ok', () => 'down'),
    ]);
    res.set('Cache-Control', 'no-store').status(postgres === 'ok' && redis === 'ok' ? 200 : 503).json({ postgres, redis });
  });

  return router;
}
