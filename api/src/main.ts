/**
 * The API as its own process, for production (`npm run serve:api`): the configuration from the
 * environment, nothing started beside it (no embedded services, no demo data, no mail catcher), the
 * built SPA from WEB_DIST or web/dist. Refuses to start on the dev secrets when NODE_ENV=production.
 * Stops gracefully on SIGTERM / SIGINT: open requests finish, then the pools close.
 */
import path from 'node:path';
import { loadConfig, type Config } from '@platform/server';
import { startApi } from './server';

let config: Config;
try {
  config = loadConfig(process.env, { webDist: path.resolve(import.meta.dirname, '../../web/dist') });
} catch (err) {
  console.error((err as Error).message);
  process.exit(1);
}
const api = await startApi(config, process.env.HOST ?? '0.0.0.0');
console.log(`API listening on ${api.url} (${config.env})`);
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    api.stop().then(() => process.exit(0), () => process.exit(1));
  });
}
