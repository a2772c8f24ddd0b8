/** Starts the API (and its outbox sweeper) and shuts it down gracefully on SIGTERM / SIGINT. */
import type { Server } from 'node:http';
import { createApp } from './app';
import { closeContext, createContext } from './context';
import type { Config } from '@platform/server';

export interface RunningApi {
  server: Server;
  url: string;
  stop(): Promise<void>;
}

export async function startApi(config: Config, host = '127.0.0.1'): Promise<RunningApi> {
  const ctx = await createContext(config, 'api');
  const app = createApp(ctx);
  ctx.relay.start();
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(config.port, host, () => resolve(s));
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  let stopping: Promise<void> | null = null;
  return {
    server,
    url: `http://${host === '0.0.0.0' ? 'localhost' : host}:${port}`,
    stop() {
      stopping ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        await closeContext(ctx);
      })();
      return stopping;
    },
  };
}
