/**
 * The HL7 orders listener (issue 28, item 3): MLLP on HL7_PORT; each ORM^O01 goes to the orders
 * capability (receiveHl7Order) and its ACK back. A process of its own in production
 * (`npm run serve:hl7`), part of `npm start`. Its outbox relay sends the jobs an order writes (the
 * requisition form) at once; its sweeper what a crash left.
 */
import { closeServerContext, createServerContext, receiveHl7Order, startMllpListener, type Config } from '@platform/server';

export interface RunningHl7Listener {
  port: number;
  close(): Promise<void>;
}

export async function startHl7Listener(config: Config, port = config.hl7Port, host = config.hl7Host): Promise<RunningHl7Listener> {
  const ctx = createServerContext(config, 'hl7');
  const listener = await startMllpListener({
    port,
    host,
    onMessage: async (message) => {
      try {
        return await receiveHl7Order(ctx, message);
      } catch (err) {
        // The listener answers AE without the details (they could name a patient); the log keeps the error, not the message.
        ctx.logger.error({ err: (err as Error).message }, 'hl7 order failed');
        throw err;
      }
    },
  }).catch(async (err: unknown) => {
    await closeServerContext(ctx); // the port was taken: nothing of this listener stays open
    throw err;
  });
  ctx.relay.start();
  return {
    port: listener.port,
    close: async () => {
      await listener.close();
      await closeServerContext(ctx);
    },
  };
}
