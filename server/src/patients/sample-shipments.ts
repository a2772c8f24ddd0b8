/**
 * Where each sample's kit is: the live (not cancelled) shipment carrying it, with the carrier's
 * tracking (the sample's card on the clinic's patient page and the research participant page).
 */
import { QueryTypes } from 'sequelize';
import { ShipmentStatus, shipmentTracking, type ShipmentTracking, type TrackingColumns } from '@platform/domain';
import type { ServerContext } from '../context';

export async function sampleShipments(ctx: Pick<ServerContext, 'db'>, sampleIds: number[]): Promise<Map<number, ShipmentTracking>> {
  if (!sampleIds.length) return new Map();
  const rows = await ctx.db.sequelize.query<TrackingColumns & { sample_id: number }>(
    `SELECT DISTINCT ON (si.sample_id) si.sample_id, sh.carrier, sh.tracking_number, sh.tracking_url, sh.tracking_status, sh.delivered_at,
            sh.patient_id IS NOT NULL AS to_patient
       FROM shipment_items si JOIN shipments sh ON sh.id = si.shipment_id
      WHERE si.sample_id IN (:sampleIds) AND sh.status <> :cancelled
      ORDER BY si.sample_id, sh.id DESC`,
    { replacements: { sampleIds, cancelled: ShipmentStatus.Cancelled }, type: QueryTypes.SELECT },
  );
  return new Map(rows.map((r) => [Number(r.sample_id), shipmentTracking(r)]));
}
