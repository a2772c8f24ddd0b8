/**
 * Queuing a text message to a patient, inside the caller's transaction (as queueEmail does for an
 * email): a `text_messages` row and its `send-sms` job through the outbox. Only a patient who gave
 * a mobile number and consented gets one; whether the number has since replied STOP is checked
 * when the job runs (the row then says why it was not sent).
 */
import type { Transaction } from 'sequelize';
import type { Db } from '@platform/db';
import type { EntityKind, Language } from '@platform/domain';
import { enqueueJob, type OutboxRelay } from '../jobs/outbox';
import type { TextContent } from './texts';

/** What of the patient decides whether and where they are texted. */
export interface TextablePatient {
  id: number;
  mobilePhone: string | null;
  smsConsent: boolean;
  preferredLanguage: Language;
}

/** True when the patient gave a mobile number and consents to texts. */
export const textsAllowed = (patient: TextablePatient) => patient.smsConsent && patient.mobilePhone !== null;

/** Queues one text to the patient when they consent; answers its row id, or null when they are not texted. */
export async function queueTextMessage(
  ctx: { db: Db; relay: OutboxRelay },
  transaction: Transaction,
  patient: TextablePatient,
  text: TextContent,
  options: { entity?: { kind: EntityKind; id: number | string }; createdByUserId?: number | null } = {},
): Promise<number | null> {
  if (!textsAllowed(patient)) return null;
  const row = await ctx.db.models.TextMessage.create({
    patientId: patient.id,
    toPhone: patient.mobilePhone!,
    kind: text.kind,
    language: patient.preferredLanguage,
    body: text.body,
    entityKind: options.entity?.kind ?? null,
    entityId: options.entity ? String(options.entity.id) : null,
    providerSid: null,
    error: null,
    sentAt: null,
  }, { transaction });
  await enqueueJob(ctx, transaction, 'send-sms', { textMessageId: row.id }, { idempotencyKey: `send-sms:${row.id}`, createdByUserId: options.createdByUserId ?? null });
  return row.id;
}
