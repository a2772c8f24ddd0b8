/** Runs the worker as its own process: `tsx worker/src/main.ts`. */
import { startWorker } from './index';
import { loadConfig } from '@platform/server';

const running = await startWorker(loadConfig());
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    running.close().then(() => process.exit(0), () => process.exit(1));
  });
}
