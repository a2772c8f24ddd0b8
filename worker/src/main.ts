/** Runs the worker as its own process (`npm run serve:worker`). */
import { runAsProcess } from '@platform/server';
import { startWorker } from './index';

await runAsProcess((config) => startWorker(config), (config) => `Worker running (${config.workerConcurrency} at a time)`);
