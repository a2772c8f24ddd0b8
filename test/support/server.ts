/** The real API (and, when asked, a real worker) on the run's database, Redis prefix and catcher. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startApi } from '@platform/api';
import { type Config, loadConfig } from '@platform/server';
import { startWorker, type RunningWorker } from '@platform/worker';

export const WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');

export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({ ...process.env, PORT: '0', ...overrides }, { webDist: WEB_DIST });
}

export async function startServer(overrides: Record<string, string> = {}): Promise<{ baseUrl: string; stop(): Promise<void> }> {
  const api = await startApi(testConfig(overrides));
  return { baseUrl: api.url, stop: () => api.stop() };
}

export function startTestWorker(overrides: Record<string, string> = {}): Promise<RunningWorker> {
  return startWorker(testConfig(overrides));
}
