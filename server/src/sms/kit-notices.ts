/**
 * Kit notices by text (docs/sms.md): when a kit shipment to a patient (a patient order's kit) moves
 * on the shipping service's word (shipped; delivered to them), the patient who consents gets a text
 * in their language: the carrier's tracking link when the shipment has one, nothing about the test
 * or the patient. Called in the shipping webhook's transaction.
 */
import type { Transaction } from 'sequelize';
import type { Db } from '@platform/db';
import type { Config } from '../config';
import type { OutboxRelay } from '../jobs/outbox';
import { queueTextMessage } from './queue-sms';
import { kitDeliveredText, kitShippedText } from './texts';

/** What of a shipment the notice needs: whose kit it is, and its tracking link when the shipment keeps one. */
export interface KitShipment {
  id: number;
  patientId: number | null;
  trackingUrl?: string | null;
}

/** The kit left for the patient's home: a text when the patient consents; answers its row id (null when none). */
export async function queueKitShippedText(
  ctx: { db: Db; relay: OutboxRelay; config: Pick<Config, 'brand'> },
  transaction: Transaction,
  shipment: KitShipment,
): Promise<number | null> {
  if (!shipment.patientId) return null;
  const patient = await ctx.db.models.Patient.findByPk(shipment.patientId, { transaction });
  if (!patient) return null;
  const text = kitShippedText({ language: patient.preferredLanguage, brand: ctx.config.brand, trackingUrl: shipment.trackingUrl ?? null });
  return queueTextMessage(ctx, transaction, patient, text, { entity: { kind: 'shipment', id: shipment.id } });
}

/** The kit reached the patient (the carrier's first delivery scan): a text when the patient consents. */
export async function queueKitDeliveredText(
  ctx: { db: Db; relay: OutboxRelay; config: Pick<Config, 'brand'> },
  transaction: Transaction,
  shipment: KitShipment,
): Promise<number | null> {
  if (!shipment.patientId) return null;
  const patient = await ctx.db.models.Patient.findByPk(shipment.patientId, { transaction });
  if (!patient) return null;
  return queueTextMessage(ctx, transaction, patient, kitDeliveredText({ language: patient.preferredLanguage, brand: ctx.config.brand }), { entity: { kind: 'shipment', id: shipment.id } });
}
