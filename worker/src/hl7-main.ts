/** Runs the HL7 orders listener as its own process (`npm run serve:hl7`); refuses the dev secrets when NODE_ENV=production. */
import { startHl7Listener } from './hl7-listener';
import { loadConfig, type Config } from '@platform/server';

let config: Config;
try {
  config = loadConfig();
} catch (err) {
  console.error((err as Error).message);
  process.exit(1);
}
const running = await startHl7Listener(config);
console.log(`HL7 orders listener on ${config.hl7Host}:${running.port} (MLLP)`);
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    running.close().then(() => process.exit(0), () => process.exit(1));
  });
}
