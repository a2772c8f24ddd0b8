/** Runs the worker as its own process: `tsx worker/src/main.ts`. */
import { loadConfig } from '@platform/api/config';
import { startWorker } from './index';

const running = await startWorker(loadConfig());
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    running.close().then(() => process.exit(0), () => process.exit(1));
  });
}
