/** Runs the worker as its own process (`npm run serve:worker`); refuses the dev secrets when NODE_ENV=production. */
import { startWorker } from './index';
import { loadConfig, type Config } from '@platform/server';

let config: Config;
try {
  config = loadConfig();
} catch (err) {
  console.error((err as Error).message);
  process.exit(1);
}
const running = await startWorker(config);
console.log(`Worker running (${config.workerConcurrency} at a time)`);
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    running.close().then(() => process.exit(0), () => process.exit(1));
  });
}
