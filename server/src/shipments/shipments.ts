/**
 * Kit shipments of a clinic: the samples still at the clinic (unshipped), the account's samples,
 * the shipments list, and creating a shipment (items, Order Placed -> Pending Shipment).
 * "Unshipped" is UNSHIPPED_SAMPLE_STATUSES in domain/: Order Placed, or Pending Shipment, with no
 * shipment carrying the sample other than cancelled ones.
 */
import { Op } from 'sequelize';
import {
  DocumentType, ItemKind, SampleStatus, ShipmentStatus, UNSHIPPED_SAMPLE_STATUSES, shipmentTracking, type SampleRow, type SamplesQuery, type ShipmentsQuery,
  type ShipmentView, type TrackingColumns,
} from '@platform/domain';
import { queryPrepared } from '@platform/db';
import { CLINIC_PATIENT_JOIN, CLINIC_PATIENT_SQL } from '../patients/clinic-patients';
import type { ServerContext } from '../context';
import { type AccountCaller, auditActor, recordAudit } from '../audit';
import { dataDate } from '../answer-values';
import { auditedPage, offsetOf, plainPage } from '../paging';
import { conflict, notFound } from '../errors';
import { moveSample } from '../samples/move-sample';

type Ctx = Pick<ServerContext, 'db'>;

/** True in SQL when a live (not cancelled) shipment carries sample s. */
const IN_LIVE_SHIPMENT = `EXISTS (SELECT 1 FROM shipment_items si JOIN shipments sh ON sh.id = si.shipment_id
                                  WHERE si.sample_id = s.id AND sh.status <> :cancelled)`;

interface RawSample {
  id: number;
  barcode: string;
  status: string;
  sample_type: string | null;
  tests: string[] | null;
  order_number: string;
  ordered_at: Date;
  patient_id: number;
  first_name: string;
  last_name: string;
  date_of_birth: string;
  physician_id: number | null;
  physician_first_name: string | null;
  physician_last_name: string | null;
  requisition_form: boolean;
  shipment_id: number | null;
  external_order_id: string | null;
  shipment_status: string | null;
}

/** SQL: sample s is still at the clinic (UNSHIPPED_SAMPLE_STATUSES, no live shipment); its values are UNSHIPPED_CONSTANTS. */
export const UNSHIPPED_SQL = `s.status IN (:unshipped) AND NOT ${IN_LIVE_SHIPMENT}`;
export const UNSHIPPED_CONSTANTS = { unshipped: UNSHIPPED_SAMPLE_STATUSES, cancelled: ShipmentStatus.Cancelled };

/** The account's samples, newest first; with unshipped=true only those still at the clinic. */
export async function listSamples(ctx: Ctx, caller: AccountCaller, query: SamplesQuery): Promise<{ rows: SampleRow[]; total: number }> {
  const where = `${query.unshipped ? `s.account_id = :accountId AND ${UNSHIPPED_SQL}` : 's.account_id = :accountId'} AND ${CLINIC_PATIENT_SQL}`;
  const constants = { ...UNSHIPPED_CONSTANTS, requisition: DocumentType.TestRequisitionForm };
  const replacements = { accountId: caller.accountId, limit: query.pageSize, offset: offsetOf(query.page, query.pageSize) };
  const { rows: raw, total } = await auditedPage<RawSample>(ctx.db, {
    select: `SELECT s.id, s.barcode, s.status, s.sample_type,
              (SELECT array_agg(t.name ORDER BY t.id) FROM tests t WHERE t.sample_id = s.id) AS tests,
              o.order_number, s.created_at AS ordered_at,
              p.id AS patient_id, p.first_name, p.last_name, p.date_of_birth,
              ph.id AS physician_id, ph.first_name AS physician_first_name, ph.last_name AS physician_last_name,
              EXISTS (SELECT 1 FROM documents d WHERE d.sample_id = s.id AND d.type = :requisition) AS requisition_form,
              live.id AS shipment_id, live.external_order_id, live.status AS shipment_status
         FROM samples s
         JOIN orders o ON o.id = s.order_id
         ${CLINIC_PATIENT_JOIN}
         LEFT JOIN physicians ph ON ph.id = o.physician_id
         LEFT JOIN LATERAL (
           SELECT sh.id, sh.external_order_id, sh.status FROM shipment_items si JOIN shipments sh ON sh.id = si.shipment_id
            WHERE si.sample_id = s.id AND sh.status <> :cancelled ORDER BY sh.id DESC LIMIT 1
         ) live ON true
        WHERE ${where}
        ORDER BY s.created_at DESC, s.id DESC
        LIMIT :limit OFFSET :offset`,
    fromWhere: `FROM samples s ${CLINIC_PATIENT_JOIN} WHERE ${where}`,
    replacements,
    constants,
    audit: {
      ...auditActor(caller),
      action: 'samples.listed',
      entityKind: 'sample',
      details: { accountId: caller.accountId, unshipped: query.unshipped, page: query.page },
    },
    idsKey: 'sampleIds',
  });
  const rows = raw.map((r): SampleRow => ({
    sampleId: r.id,
    barcode: r.barcode,
    status: r.status,
    sampleType: r.sample_type,
    tests: r.tests ?? [],
    orderNumber: r.order_number,
    orderedAt: new Date(r.ordered_at).toISOString(),
    patient: { id: r.patient_id, firstName: r.first_name, lastName: r.last_name, dateOfBirth: dataDate(r.date_of_birth)! },
    physician: r.physician_id ? { id: r.physician_id, name: `${r.physician_first_name} ${r.physician_last_name}` } : null,
    requisitionForm: r.requisition_form,
    shipment: r.shipment_id ? { id: r.shipment_id, externalOrderId: r.external_order_id, status: r.shipment_status! } : null,
  }));
  return { rows, total };
}

/**
 * A shipment as the clinic sees it (`sh`): its sign-in creator, its samples, its count of documents,
 * its label and the carrier's scans.
 */
const SHIPMENT_SELECT = `SELECT sh.id, sh.external_order_id, sh.status, sh.carrier, sh.tracking_number, sh.rate_cents, sh.shipped_at, sh.created_at,
              sh.service, sh.label_id IS NOT NULL AS carrier_label, sh.tracking_url, sh.tracking_status, sh.delivered_at, sh.patient_id IS NOT NULL AS to_patient,
              u.id AS created_by_id, u.first_name AS created_by_first_name, u.last_name AS created_by_last_name,
              COALESCE((SELECT jsonb_agg(jsonb_build_object('at', te.occurred_at, 'statusCode', te.status_code, 'description', te.description, 'location', te.location)
                                         ORDER BY te.occurred_at, te.id)
                          FROM shipment_tracking_events te WHERE te.shipment_id = sh.id), '[]'::jsonb) AS tracking_events,
              COALESCE((SELECT jsonb_agg(jsonb_build_object('id', s.id, 'barcode', s.barcode, 'status', s.status))
                          FROM shipment_items si JOIN samples s ON s.id = si.sample_id
                         WHERE si.shipment_id = sh.id AND si.kind = :testItem), '[]'::jsonb) AS samples,
              (SELECT count(*)::int FROM shipment_items si WHERE si.shipment_id = sh.id AND si.kind = :documentItem) AS documents
         FROM shipments sh
         LEFT JOIN users u ON u.id = sh.created_by_user_id`;
const SHIPMENT_CONSTANTS = { testItem: ItemKind.Test, documentItem: ItemKind.Document };

interface RawShipment extends TrackingColumns {
  id: number;
  external_order_id: string | null;
  status: string;
  service: string | null;
  carrier_label: boolean;
  tracking_events: { at: string; statusCode: ShipmentView['trackingEvents'][number]['statusCode']; description: string | null; location: string | null }[];
  rate_cents: number | null;
  shipped_at: Date | null;
  created_at: Date;
  created_by_id: number | null;
  created_by_first_name: string | null;
  created_by_last_name: string | null;
  samples: ShipmentView['samples'];
  documents: number;
}

function shipmentView(r: RawShipment): ShipmentView {
  return {
    id: r.id,
    externalOrderId: r.external_order_id,
    status: r.status as ShipmentView['status'],
    carrier: r.carrier,
    trackingNumber: r.tracking_number,
    rateCents: r.rate_cents,
    shippedAt: r.shipped_at ? new Date(r.shipped_at).toISOString() : null,
    createdAt: new Date(r.created_at).toISOString(),
    createdBy: r.created_by_id !== null ? `${r.created_by_first_name} ${r.created_by_last_name}` : null,
    samples: r.samples.sort((a, b) => a.barcode.localeCompare(b.barcode)),
    documents: r.documents,
    service: r.service,
    carrierLabel: r.carrier_label,
    labelPurchasable: r.status === ShipmentStatus.ReadyToShip && !r.carrier_label,
    tracking: shipmentTracking(r),
    trackingEvents: r.tracking_events.map((e) => ({ ...e, at: new Date(e.at).toISOString() })),
  };
}

/** One shipment of the caller's account as the clinic sees it (404 when it is not one of theirs). */
export async function shipmentOfAccount(ctx: Ctx, caller: AccountCaller, shipmentId: number): Promise<ShipmentView> {
  const [row] = await queryPrepared<RawShipment>(ctx.db, `${SHIPMENT_SELECT} WHERE sh.id = :shipmentId AND sh.account_id = :accountId`, { shipmentId, accountId: caller.accountId }, SHIPMENT_CONSTANTS);
  if (!row) throw notFound('Shipment not found');
  return shipmentView(row);
}

/**
 * The account's shipments, newest first: the page, its samples and the total in one prepared
 * statement (plainPage; barcodes and statuses, no patient data: not audited).
 */
export async function listShipments(ctx: Ctx, caller: AccountCaller, query: ShipmentsQuery): Promise<{ rows: ShipmentView[]; total: number }> {
  const { rows, total } = await plainPage<RawShipment>(ctx.db, {
    select: `${SHIPMENT_SELECT}
        WHERE sh.account_id = :accountId
        ORDER BY sh.created_at DESC, sh.id DESC
        LIMIT :limit OFFSET :offset`,
    fromWhere: 'FROM shipments sh WHERE sh.account_id = :accountId',
    replacements: { accountId: caller.accountId, limit: query.pageSize, offset: offsetOf(query.page, query.pageSize) },
    constants: SHIPMENT_CONSTANTS,
  });
  return { rows: rows.map(shipmentView), total };
}

/** The id the shipping service knows a shipment by (its webhooks name it). */
export const externalOrderIdOf = (shipmentId: number) => `SHP-${String(shipmentId).padStart(8, '0')}`;

/**
 * A shipment of the given samples, all or nothing: each must be a sample of this account
 * (otherwise 404, naming the id only) that is still at the clinic (otherwise 409, naming its
 * barcode). Each sample becomes a Test item and its requisition form, when rendered, a Document
 * item; samples in Order Placed move to Pending Shipment.
 */
export async function createShipment(ctx: Ctx, caller: AccountCaller, sampleIds: number[]): Promise<ShipmentView> {
  const m = ctx.db.models;
  const shipmentId = await ctx.db.sequelize.transaction(async (transaction) => {
    // Lock the samples (in id order, so two shipments never deadlock) before checking them.
    const samples = await m.Sample.findAll({
      where: { id: { [Op.in]: sampleIds }, accountId: caller.accountId },
      order: [['id', 'ASC']],
      lock: transaction.LOCK.UPDATE,
      transaction,
    });
    const missing = sampleIds.filter((id) => !samples.some((s) => s.id === id));
    if (missing.length) throw notFound(`Sample ${missing.join(', ')} not found in this account`);

    const notAtClinic = samples.filter((s) => !UNSHIPPED_SAMPLE_STATUSES.includes(s.status));
    if (notAtClinic.length) {
      throw conflict(`Sample ${notAtClinic.map((s) => `${s.barcode} (${s.status})`).join(', ')} cannot be shipped: only samples in ${UNSHIPPED_SAMPLE_STATUSES.join(' or ')} can`);
    }
    const carried = await m.ShipmentItem.findAll({
      where: { sampleId: { [Op.in]: sampleIds } },
      include: [{ model: m.Shipment, as: 'shipment', where: { status: { [Op.ne]: ShipmentStatus.Cancelled } } }],
      transaction,
    });
    if (carried.length) {
      const barcodes = carried.map((i) => `${samples.find((s) => s.id === i.sampleId)!.barcode} (in ${i.shipment!.externalOrderId})`);
      throw conflict(`Sample ${[...new Set(barcodes)].join(', ')} is already in a shipment`);
    }

    const shipment = await m.Shipment.create({ accountId: caller.accountId, status: ShipmentStatus.ReadyToShip, createdByUserId: caller.userId }, { transaction });
    await shipment.update({ externalOrderId: externalOrderIdOf(shipment.id) }, { transaction });
    const forms = await m.SampleDocument.findAll({
      where: { sampleId: { [Op.in]: sampleIds }, type: DocumentType.TestRequisitionForm, supersededAt: null },
      transaction,
    });
    for (const sample of samples) {
      await m.ShipmentItem.create({ shipmentId: shipment.id, kind: ItemKind.Test, sampleId: sample.id, documentId: null }, { transaction });
      const form = forms.filter((f) => f.sampleId === sample.id).sort((a, b) => b.version - a.version)[0];
      if (form) await m.ShipmentItem.create({ shipmentId: shipment.id, kind: ItemKind.Document, sampleId: null, documentId: form.id }, { transaction });
      if (sample.status === SampleStatus.OrderPlaced) {
        await moveSample(ctx.db, transaction, sample, {
          to: SampleStatus.PendingShipment,
          by: caller,
        });
      }
    }
    await recordAudit(
      ctx.db,
      {
        ...auditActor(caller),
        action: 'shipment.created',
        entityKind: 'shipment',
        entityId: shipment.id,
        details: { accountId: caller.accountId, sampleIds: samples.map((s) => s.id), documentIds: forms.map((f) => f.id) },
      },
      transaction,
    );
    return shipment.id;
  });
  return shipmentOfAccount(ctx, caller, shipmentId);
}
