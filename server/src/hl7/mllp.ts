/**
 * HL7 v2 over MLLP, on @medplum/hl7 (its framing, its Hl7Connection matching an ACK to the message
 * by MSA-2): send one message and wait for its ACK, and listen for messages and answer each.
 *
 * Sending opens a connection per message and closes it after the answer: an outbox job sends one
 * message, and a connection left open to a clinic's EHR would only go stale between jobs.
 * The listener runs Hl7Connection over a net.Server of its own rather than Hl7Server: Hl7Server
 * 4.5.2 cannot bind to a host (it listens on every interface), does not say when it listens nor
 * which port it got, and on EADDRINUSE retries forever instead of failing.
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Hl7Message } from '@medplum/core';
import { Hl7Client, Hl7Connection, type Hl7MessageEvent } from '@medplum/hl7';
import { buildAck, Hl7ErrorCode, readAck, type Ack } from './ack';
import { componentText } from './fields';

/** Why no ACK came: the deadline passed, the peer closed the connection, or it could not be reached. */
export type NoAnswerReason = 'timeout' | 'closed' | 'unreachable';

/** No acknowledgement for the message within the time allowed: the sender retries later. */
export class Hl7NoAnswer extends Error {
  readonly reason: NoAnswerReason;
  readonly controlId: string;

  constructor(reason: NoAnswerReason, controlId: string, detail: string, options?: { cause?: unknown }) {
    super(`No HL7 acknowledgement for message ${controlId}: ${detail}`, options);
    this.name = 'Hl7NoAnswer';
    this.reason = reason;
    this.controlId = controlId;
  }
}

export interface MllpSendOptions {
  host: string;
  port: number;
  message: Hl7Message;
  /** For connecting, sending and the ACK together. */
  timeoutMs?: number;
}

const controlIdOf = (message: Hl7Message): string => componentText(message.getSegment('MSH'), 10);

/** Rejects with Hl7NoAnswer('closed') when the connection closes before its answer came. */
function closedBeforeAnswer(connection: Hl7Connection, controlId: string): { promise: Promise<never>; stop: () => void } {
  let onClose = () => {};
  const promise = new Promise<never>((_, reject) => {
    onClose = () => reject(new Hl7NoAnswer('closed', controlId, 'the peer closed the connection before answering'));
    connection.addEventListener('close', onClose);
  });
  return { promise, stop: () => connection.removeEventListener('close', onClose) };
}

/** Connects, sends and waits for the ACK whose MSA-2 is the message's control id. */
async function exchange(client: Hl7Client, message: Hl7Message, controlId: string): Promise<Hl7Message> {
  const connection = await client.connect().catch((err: unknown) => {
    throw new Hl7NoAnswer('unreachable', controlId, `cannot connect to ${client.host}:${client.port}`, { cause: err });
  });
  const closed = closedBeforeAnswer(connection, controlId);
  try {
    return await Promise.race([connection.sendAndWait(message), closed.promise]);
  } finally {
    closed.stop();
  }
}

/** Rejects with Hl7NoAnswer('timeout') after `ms`; `clear` stops the timer. */
function deadline(ms: number, controlId: string): { promise: Promise<never>; clear: () => void } {
  let timer: NodeJS.Timeout | undefined;
  const promise = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Hl7NoAnswer('timeout', controlId, `no answer within ${ms} ms`)), ms);
  });
  return { promise, clear: () => clearTimeout(timer) };
}

/**
 * Sends one message over MLLP and answers its ACK (AA, AE, AR...: what to do with it is the
 * caller's). No answer in time, a closed connection or an unreachable peer: Hl7NoAnswer.
 */
export async function sendOverMllp({ host, port, message, timeoutMs = 30_000 }: MllpSendOptions): Promise<Ack> {
  const controlId = controlIdOf(message);
  if (!controlId) throw new RangeError('the message has no control id (MSH-10)');
  // Our own deadline rather than sendAndWait's timeoutMs: the library does not clear its timer on an answer.
  const client = new Hl7Client({ host, port, connectTimeout: timeoutMs });
  const limit = deadline(timeoutMs, controlId);
  try {
    return readAck(await Promise.race([exchange(client, message, controlId), limit.promise]));
  } finally {
    limit.clear();
    await client.close();
  }
}

/** What the listener does with a message: the answer to send (an ACK), or null to send none. */
export type MllpMessageHandler = (message: Hl7Message) => Promise<Hl7Message | null> | Hl7Message | null;

export interface MllpListenerOptions {
  /** 0 lets the system choose (the port is in the answer). */
  port: number;
  /** The address to listen on; the loopback interface unless given. */
  host?: string;
  onMessage: MllpMessageHandler;
}

export interface MllpListener {
  port: number;
  /** Stops listening and closes the open connections. */
  close(): Promise<void>;
}

/** A handler's failure answers AE 207 without its detail: the error may name patient data. */
async function answer(connection: Hl7Connection, message: Hl7Message, onMessage: MllpMessageHandler): Promise<void> {
  let reply: Hl7Message | null;
  try {
    reply = await onMessage(message);
  } catch {
    reply = buildAck(message, {
      code: 'AE',
      error: { location: null, hl7Error: Hl7ErrorCode.ApplicationInternalError, reason: 'The message could not be processed.' },
    });
  }
  if (reply && !connection.isClosed()) connection.send(reply);
}

function listen(server: net.Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** Listens for HL7 messages over MLLP and answers each with what onMessage returns. */
export async function startMllpListener({ port, host = '127.0.0.1', onMessage }: MllpListenerOptions): Promise<MllpListener> {
  const connections = new Set<Hl7Connection>();
  const server = net.createServer((socket) => {
    const connection = new Hl7Connection(socket);
    connections.add(connection);
    connection.addEventListener('close', () => connections.delete(connection));
    connection.addEventListener('message', (event: Hl7MessageEvent) => {
      void answer(connection, event.message, onMessage);
    });
  });
  await listen(server, port, host);
  const closed = new Promise<void>((resolve) => server.once('close', () => resolve()));
  return {
    port: (server.address() as AddressInfo).port,
    async close() {
      server.close();
      await Promise.all([...connections].map((c) => c.close()));
      await closed;
    },
  };
}
