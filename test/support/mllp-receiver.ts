/**
 * The far side of an HL7 interface in the test process (an EHR, a public-health agency): a real
 * MLLP listener that keeps every message and answers each as scripted for its key (a sample's
 * barcode, say), AA when nothing is scripted. Scripts by key keep one test's answers from ever
 * reaching another test's message. And the wait for the messages a command queued: their rows,
 * then every send-hl7 job of theirs settled (Completed or Failed).
 */
import { QueryTypes } from 'sequelize';
import { Hl7Message } from '@medplum/core';
import { buildAck, Hl7ErrorCode, startMllpListener, type MllpListener } from '@platform/server';
import type { TestApp } from './http';
import { jobsSettled } from './jobs';
import { until } from './wait';

export type ScriptedAnswer = 'AA' | 'AE' | 'AR' | 'silent';

export class MllpReceiver {
  /** Every message received, parsed again from its wire text. */
  readonly received: Hl7Message[] = [];
  private readonly scripts = new Map<string, ScriptedAnswer[]>();
  private listener: MllpListener | null = null;

  /** `keyOf` names what a message is about (the answers scripted for that key are its). */
  constructor(private readonly keyOf: (message: Hl7Message) => string, private readonly refusal = 'Unknown patient: call the lab') {}

  script(key: string, ...answers: ScriptedAnswer[]): void {
    this.scripts.set(key, answers);
  }

  async start(): Promise<number> {
    this.listener = await startMllpListener({
      port: 0,
      onMessage: (message) => {
        const parsed = Hl7Message.parse(message.toString());
        this.received.push(parsed);
        const code = this.scripts.get(this.keyOf(parsed))?.shift() ?? 'AA';
        if (code === 'silent') return null;
        return buildAck(message, code === 'AA' ? { code } : { code, error: { location: null, hl7Error: Hl7ErrorCode.ApplicationInternalError, reason: this.refusal } });
      },
    });
    return this.listener.port;
  }

  close = async (): Promise<void> => {
    await this.listener?.close();
  };

  /** The messages received about one key. */
  of = (key: string): Hl7Message[] => this.received.filter((m) => this.keyOf(m) === key);
}

/** OBR-3.1, the filler order number: the sample's barcode. */
export const barcodeOf = (message: Hl7Message): string => message.getSegment('OBR')?.getField(3).getComponent(1) ?? '';

/**
 * The rows `read` answers, once there are `count` of them and every send-hl7 job of theirs has
 * settled; read again then (their final state).
 */
export async function hl7MessagesSettled<R extends { id: string }>(t: TestApp, read: () => Promise<R[]>, count: number, what: string): Promise<R[]> {
  const rows = await until(async () => {
    const m = await read();
    return m.length >= count ? m : null;
  }, { what: `${count} ${what}` });
  const jobs = await t.ctx.db.sequelize.query<{ id: string }>(
    `SELECT (payload->>'jobRowId')::bigint AS id FROM outbox WHERE job_name = 'send-hl7' AND (payload->'payload'->>'messageId')::bigint IN (:ids)`,
    { replacements: { ids: rows.map((r) => Number(r.id)) }, type: QueryTypes.SELECT },
  );
  await jobsSettled(t.ctx, jobs.map((j) => Number(j.id)), { what });
  return read();
}
