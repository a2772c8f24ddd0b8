/**
 * Kit notices by text (docs/sms.md): when a kit shipment to a patient (a patient order's kit) moves
 * on the shipping service's word (shipped; delivered to them), the patient who consents gets a text
 * in their language: the carrier's tracking link when the shipment has one, nothing about the test
 * or the patient. Called in the shipping webhook's transaction.
 */
import type { Transaction } from 'sequelize';
import type { Language } from '@platform/domain';
import type { Db } from '@platform/db';
import type { Config } from '../config';
import type { OutboxRelay } from '../jobs/outbox';
import { queueTextMessage } from './queue-sms';
import { kitDeliveredText, kitShippedText, type TextContent } from './texts';

/** What of a shipment the notice needs: whose kit it is, and its tracking link when the shipment keeps one. */
export interface KitShipment {
  id: number;
  patientId: number | null;
  trackingUrl?: string | null;
}

type KitNoticeCtx = { db: Db; relay: OutboxRelay; config: Pick<Config, 'brand'> };

/** A text about the kit to its patient (when the patient consents; queueTextMessage decides): answers its row id (null when none). */
async function queueKitText(
  ctx: KitNoticeCtx, transaction: Transaction, shipment: KitShipment,
  textFor: (patient: { preferredLanguage: Language }) => TextContent,
): Promise<number | null> {
  if (!shipment.patientId) return null;
  const patient = await ctx.db.models.Patient.findByPk(shipment.patientId, { transaction });
  if (!patient) return null;
  return queueTextMessage(ctx, transaction, patient, textFor(patient), { entity: { kind: 'shipment', id: shipment.id } });
}

/** The kit left for the patient's home, with the carrier's tracking link when there is one. */
export function queueKitShippedText(ctx: KitNoticeCtx, transaction: Transaction, shipment: KitShipment): Promise<number | null> {
  return queueKitText(ctx, transaction, shipment, (patient) =>
    kitShippedText({ language: patient.preferredLanguage, brand: ctx.config.brand, trackingUrl: shipment.trackingUrl ?? null }));
}

/** The kit reached the patient (the carrier's first delivery scan). */
export function queueKitDeliveredText(ctx: KitNoticeCtx, transaction: Transaction, shipment: KitShipment): Promise<number | null> {
  return queueKitText(ctx, transaction, shipment, (patient) => kitDeliveredText({ language: patient.preferredLanguage, brand: ctx.config.brand }));
}
