/** Runs the HL7 orders listener as its own process (`npm run serve:hl7`). */
import { runAsProcess } from '@platform/server';
import { startHl7Listener } from './hl7-listener';

await runAsProcess(startHl7Listener, (config, running) => `HL7 orders listener on ${config.hl7Host}:${running.port} (MLLP)`);
