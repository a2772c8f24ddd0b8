/**
 * One product process run on its own (`npm run serve:api`, `serve:worker`, `serve:hl7`): the
 * configuration from the environment (a bad one, or the dev secrets when NODE_ENV=production, ends
 * it with the reason), the part started, a line saying where it runs, and a graceful stop on
 * SIGTERM / SIGINT (the part finishes what it holds, then the process exits).
 */
import { loadConfig, type Config } from './config';

export interface RunningPart {
  /** Finishes the work in hand and closes the part's connections. */
  close(): Promise<void>;
}

export async function runAsProcess<P extends RunningPart>(
  start: (config: Config) => Promise<P>,
  describe: (config: Config, running: P) => string,
  defaults?: Parameters<typeof loadConfig>[1],
): Promise<void> {
  let config: Config;
  try {
    config = loadConfig(process.env, defaults);
  } catch (err) {
    console.error((err as Error).message);
    process.exit(1);
  }
  const running = await start(config);
  console.log(describe(config, running));
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      running.close().then(() => process.exit(0), () => process.exit(1));
    });
  }
}
