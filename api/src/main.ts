/**
 * The API as its own process, for production (`npm run serve:api`): nothing started beside it (no
 * embedded services, no demo data, no mail catcher), the built SPA from WEB_DIST or web/dist.
 * Stops gracefully: open requests finish, then the pools close.
 */
import path from 'node:path';
import { runAsProcess } from '@platform/server';
import { startApi } from './server';

await runAsProcess(
  async (config) => {
    const api = await startApi(config, process.env.HOST ?? '0.0.0.0');
    return { url: api.url, close: () => api.stop() };
  },
  (config, api) => `API listening on ${api.url} (${config.env})`,
  { webDist: path.resolve(import.meta.dirname, '../../web/dist') },
);
