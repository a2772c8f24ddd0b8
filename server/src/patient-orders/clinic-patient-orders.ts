/**
 * The clinic's commands on patients' own orders: a physician of the account signs one off (the
 * four attestations of SPEC §5; the signer becomes the order's physician; the kit shipment to the
 * patient becomes Ready to Ship; the sample's test requisition form is queued, as for a clinic
 * order), or a physician or the account's super admin cancels it before
 * the kit ships (shipment Cancelled, kit Discarded, a paid order refunded through the
 * refund-payment job, an unpaid order's open payment intent cancelled at Stripe through the
 * cancel-payment-intent job, an email to the patient). Another account's order is a 404.
 * And the account's patient orders not paid yet (no sample, so not in the Patient-ordered list),
 * which the clinic may cancel too.
 */
import { Op, type Transaction } from 'sequelize';
import type { Order } from '@platform/db';
import {
  attestationsFor, eligibilityAnswerLines, formatCalendarDate, fullName, ORDER_ATTESTATIONS, PatientOrderStage, patientOrderStage, PaymentStatus, Portal, SampleStatus, ShipmentStatus, TestOrigin, testsForProduct, UNPAID_PAYMENT_STATUSES,
  type Attestations, type EligibilityAnswers, type PatientListOrder, type PatientProduct, type PaymentMethod, type UnpaidOrderSortField,
  type UnpaidPatientOrderRow, type UnpaidPatientOrdersQuery, type PatientMatchDecision, type PossiblePatientMatch, type SignOffContext, type SignOffPatientOrderBody,
} from '@platform/domain';
import { type AccountCaller, auditActor, recordAudit } from '../audit';
import { badRequest, conflict, forbidden, notFound } from '../errors';
import { cancelOpenIntent, refundCancelledOrder } from '../payments/cancelled-payments';
import { moveSample } from '../samples/move-sample';
import { patientOrderCancelledEmail } from '../email/templates';
import { queueEmail } from '../email/queue-email';
import type { ServerContext } from '../context';
import { dataDate } from '../answer-values';
import { auditedPage, offsetOf } from '../paging';
import { listOrderOf, stageOf, withDetails } from './patient-order-view';
import { enqueueRequisitionForm } from '../orders/orders';

type Ctx = Pick<ServerContext, 'db' | 'relay' | 'config'>;

/** The account's patient order, locked; 404 for another account's order or a clinic order. */
async function lockedPatientOrder(ctx: Ctx, caller: AccountCaller, orderId: number, transaction: Transaction): Promise<Order> {
  const order = await ctx.db.models.Order.findOne({
    where: { id: orderId, accountId: caller.accountId, origin: TestOrigin.PatientOrdered },
    lock: transaction.LOCK.UPDATE,
    transaction,
  });
  if (!order) throw notFound('Order not found');
  return withDetails(ctx, order, transaction);
}

/** The kit shipment to the patient and its sample, when the order has moved on. */
async function kitOf(ctx: Ctx, order: Order, transaction: Transaction) {
  const m = ctx.db.models;
  const sample = await m.Sample.findOne({ where: { orderId: order.id }, lock: transaction.LOCK.UPDATE, transaction });
  const item = sample ? await m.ShipmentItem.findOne({ where: { sampleId: sample.id }, order: [['id', 'DESC']], transaction }) : null;
  const shipment = item ? await m.Shipment.findOne({ where: { id: item.shipmentId, patientId: order.patientId }, lock: transaction.LOCK.UPDATE, transaction }) : null;
  return { sample, shipment };
}

/**
 * A patient the account already has with the order's patient's name and date of birth (the
 * oldest record: the clinic's own), or null. A self-order always starts a record of its own
 * (issue 24); this is how the clinic sees that it may be someone it knows.
 */
async function possibleMatchOf(ctx: Ctx, order: Order, transaction?: Transaction): Promise<PossiblePatientMatch | null> {
  const m = ctx.db.models;
  const own = await m.Patient.findByPk(order.patientId, { transaction });
  if (!own?.firstName || !own.lastName || !own.dateOfBirth) return null;
  const sql = ctx.db.sequelize;
  const match = await m.Patient.findOne({
    where: {
      [Op.and]: [
        { accountId: order.accountId, dateOfBirth: own.dateOfBirth, id: { [Op.ne]: own.id } },
        sql.where(sql.fn('lower', sql.col('first_name')), own.firstName.toLowerCase()),
        sql.where(sql.fn('lower', sql.col('last_name')), own.lastName.toLowerCase()),
      ],
    },
    order: [['createdAt', 'ASC'], ['id', 'ASC']],
    transaction,
  });
  if (!match) return null;
  return {
    patientId: match.id, name: fullName({ firstName: match.firstName ?? '', lastName: match.lastName ?? '' }) ?? '', dateOfBirth: dataDate(match.dateOfBirth)!,
    email: match.email, phone: match.phone, since: match.createdAt.toISOString(),
  };
}

/**
 * GET patient-orders/{orderId}/sign-off: what the signing physician reads first: the patient's
 * eligibility answers, the attestations the order's payment asks for, and a possible match among
 * the account's patients. Audited (it shows a patient's details).
 */
export async function signOffContext(ctx: Ctx, caller: AccountCaller, orderId: number): Promise<SignOffContext> {
  const order = await ctx.db.models.Order.findOne({ where: { id: orderId, accountId: caller.accountId, origin: TestOrigin.PatientOrdered } });
  if (!order) throw notFound('Order not found');
  const match = await possibleMatchOf(ctx, order);
  await recordAudit(ctx.db, {
    ...auditActor(caller), action: 'patient_order.sign_off_read', entityKind: 'patient', entityId: order.patientId,
    details: { orderId, matchPatientId: match?.patientId ?? null },
  });
  return {
    match,
    answers: eligibilityAnswerLines(order.product as PatientProduct, (order.eligibilityAnswers ?? {}) as EligibilityAnswers),
    attestations: attestationsFor(Portal.Patient, order.paymentMethod).map((a) => a.key),
  };
}

/** The attestations an order's payment asks for, each confirmed (400 naming the first missing); the others are not stored as given. */
function confirmedAttestations(order: Order, given: Partial<Attestations>): Attestations {
  const applies = attestationsFor(Portal.Patient, order.paymentMethod);
  const missing = applies.filter((a) => given[a.key] !== true);
  if (missing.length) {
    throw badRequest(`The attestation of ${missing[0].short} must be confirmed`, missing.map((a) => ({ field: `attestations.${a.key}`, message: `The attestation of ${a.short} must be confirmed` })));
  }
  return Object.fromEntries(ORDER_ATTESTATIONS.map((a) => [a.key, applies.includes(a)])) as Attestations;
}

/** The clinic's word on a possible match: required when there is one; "same person" files the order, its kit and sample under the existing record. */
async function settleMatch(ctx: Ctx, order: Order, decision: PatientMatchDecision | null, transaction: Transaction): Promise<{ matchPatientId: number | null; samePerson: boolean }> {
  const match = await possibleMatchOf(ctx, order, transaction);
  if (!match) return { matchPatientId: null, samePerson: false };
  if (!decision || decision.patientId !== match.patientId) {
    const message = `${match.name}, born ${formatCalendarDate(match.dateOfBirth)}, is already a patient of this account: say whether this order's patient is the same person`;
    throw conflict(message, [{ field: 'patientMatch', message }]);
  }
  if (!decision.samePerson) return { matchPatientId: match.patientId, samePerson: false };
  // The same person: the existing record (and the contact details the clinic keeps on it) receives the order; the self-order's record keeps nothing.
  const { sample, shipment } = await kitOf(ctx, order, transaction);
  await order.update({ patientId: match.patientId }, { transaction });
  if (sample) await sample.update({ patientId: match.patientId }, { transaction });
  if (shipment) await shipment.update({ patientId: match.patientId }, { transaction });
  return { matchPatientId: match.patientId, samePerson: true };
}

export async function signOffPatientOrder(ctx: Ctx, caller: AccountCaller, orderId: number, body: SignOffPatientOrderBody): Promise<PatientListOrder> {
  const m = ctx.db.models;
  return ctx.db.sequelize.transaction(async (transaction) => {
    const order = await lockedPatientOrder(ctx, caller, orderId, transaction);
    const stage = stageOf(order);
    if (stage !== PatientOrderStage.AwaitingSignOff) throw conflict(`Only an order awaiting sign-off can be signed off; this one is ${stage}`);
    const attestations = confirmedAttestations(order, body.attestations);
    const orderedBy = order.patientId;
    const match = await settleMatch(ctx, order, body.patientMatch ?? null, transaction);
    const contact = await m.Contact.findOne({ where: { userId: caller.userId }, attributes: ['id'], transaction });
    const physician = contact ? await m.Physician.findOne({ where: { accountId: caller.accountId, contactId: contact.id }, transaction }) : null;
    if (!physician) throw forbidden('Only a physician of this account can sign off an order');
    const now = new Date();
    await order.update(
      {
        physicianId: physician.id,
        attestations: { ...attestations, confirmedAt: now.toISOString(), confirmedByUserId: caller.userId },
        signedOffAt: now,
        signedOffByUserId: caller.userId,
      },
      { transaction },
    );
    const { sample, shipment } = await kitOf(ctx, order, transaction);
    if (shipment && shipment.status === ShipmentStatus.NotReadyToShip) await shipment.update({ status: ShipmentStatus.ReadyToShip }, { transaction });
    // The requisition form now has its ordering physician: rendered as for the clinic's own orders.
    const requisition = sample ? await enqueueRequisitionForm(ctx, transaction, sample.id, caller.userId) : null;
    await recordAudit(ctx.db, {
      ...auditActor(caller), action: 'patient_order.signed_off', entityKind: 'patient', entityId: order.patientId,
      details: {
        orderId: order.id, accountId: caller.accountId, physicianId: physician.id, shipmentId: shipment?.id ?? null, sampleId: sample?.id ?? null, requisitionJobId: requisition?.jobRowId ?? null,
        possibleMatch: match.matchPatientId, samePerson: match.samePerson, before: { patientId: orderedBy }, after: { patientId: order.patientId },
      },
    }, transaction);
    return listOrderOf(order);
  });
}

export async function cancelPatientOrder(ctx: Ctx, caller: AccountCaller, orderId: number, reason: string): Promise<PatientListOrder> {
  const m = ctx.db.models;
  return ctx.db.sequelize.transaction(async (transaction) => {
    const order = await lockedPatientOrder(ctx, caller, orderId, transaction);
    if (order.cancelledAt) throw conflict('This order is already cancelled');
    const { sample, shipment } = await kitOf(ctx, order, transaction);
    if (shipment?.status === ShipmentStatus.Shipped || (sample && sample.status !== SampleStatus.OrderPlaced && sample.status !== SampleStatus.PendingShipment)) {
      throw conflict('The kit has already been shipped; the order can no longer be cancelled');
    }
    await order.update({ cancelledAt: new Date(), cancelledByUserId: caller.userId, cancellationReason: reason }, { transaction });
    if (shipment && shipment.status !== ShipmentStatus.Cancelled) await shipment.update({ status: ShipmentStatus.Cancelled }, { transaction });
    if (sample) await moveSample(ctx.db, transaction, sample, { to: SampleStatus.Discarded, by: caller, reason: `Order cancelled: ${reason}` });
    // Paid: refunded. Not paid yet: its open intent is cancelled at Stripe, so it can no longer be paid.
    const paid = await refundCancelledOrder(ctx, transaction, order, caller.userId);
    const intentCancelled = !paid && (await cancelOpenIntent(ctx, transaction, order, caller.userId));
    const patient = await m.Patient.findByPk(order.patientId, { transaction });
    let emailId: number | null = null;
    if (patient?.email) {
      const email = await queueEmail(ctx, transaction, {
        to: patient.email,
        ...patientOrderCancelledEmail({
          language: patient.preferredLanguage, brand: ctx.config.brand, firstName: patient.firstName, orderNumber: order.orderNumber,
          accountName: order.account?.name ?? '', reason,
          refundCents: paid ? order.priceCents : null,
        }),
        ...(sample ? { entity: { kind: 'sample' as const, id: sample.id } } : {}),
        createdByUserId: caller.userId,
      });
      emailId = email.id;
    }
    await recordAudit(ctx.db, {
      ...auditActor(caller), action: 'patient_order.cancelled', entityKind: 'patient', entityId: order.patientId,
      details: { orderId: order.id, accountId: caller.accountId, sampleId: sample?.id ?? null, shipmentId: shipment?.id ?? null, refund: paid, intentCancelled, emailId },
    }, transaction);
    return listOrderOf(order);
  });
}

/** Whitelisted sort fields of the unpaid list and their SQL (never the client's text). */
const UNPAID_SORT_SQL: Record<UnpaidOrderSortField, string[]> = {
  orderedAt: ['o.created_at'],
  patientName: ['lower(p.last_name)', 'lower(p.first_name)'],
};

interface UnpaidRaw {
  id: number;
  order_number: string;
  payment_status: PaymentStatus | null;
  payment_method: PaymentMethod | null;
  product: PatientProduct;
  eligibility_answers: EligibilityAnswers | null;
  price_cents: number | null;
  card_payment_started: boolean;
  mirakind: boolean;
  created_at: Date;
  patient_id: number;
  first_name: string;
  last_name: string;
  date_of_birth: string | Date;
}

/**
 * The account's patient orders not paid yet (Awaiting Payment or Payment Failed; not cancelled),
 * newest first unless asked otherwise: one page, its total and the read's audit row in one statement.
 */
export async function listUnpaidPatientOrders(ctx: Pick<ServerContext, 'db'>, caller: AccountCaller, query: UnpaidPatientOrdersQuery): Promise<{ rows: UnpaidPatientOrderRow[]; total: number }> {
  const sort = query.sort ?? 'orderedAt';
  const order = (query.order ?? (query.sort ? 'asc' : 'desc')) === 'desc' ? 'DESC' : 'ASC';
  const orderBy = [...UNPAID_SORT_SQL[sort].map((e) => `${e} ${order}`), `o.id ${order}`].join(', ');
  // Research participants (a study id, no name) are never the clinic's; a patient order's patient is named anyway.
  const fromWhere = `FROM orders o JOIN patients p ON p.id = o.patient_id
        WHERE o.account_id = :accountId AND o.origin = :origin AND o.cancelled_at IS NULL
          AND (o.payment_status IS NULL OR o.payment_status IN (:unpaid)) AND p.study_id IS NULL`;
  const { rows, total } = await auditedPage<UnpaidRaw>(ctx.db, {
    select: `SELECT o.id, o.order_number, o.payment_status, o.payment_method, o.product, o.eligibility_answers, o.price_cents,
              o.stripe_payment_intent_id IS NOT NULL AS card_payment_started, o.mirakind, o.created_at,
              p.id AS patient_id, p.first_name, p.last_name, p.date_of_birth
        ${fromWhere}
        ORDER BY ${orderBy}
        LIMIT :limit OFFSET :offset`,
    fromWhere,
    replacements: { accountId: caller.accountId, limit: query.pageSize, offset: offsetOf(query.page, query.pageSize) },
    constants: { origin: TestOrigin.PatientOrdered, unpaid: [...UNPAID_PAYMENT_STATUSES] },
    audit: {
      ...auditActor(caller),
      action: 'patient_orders.listed',
      entityKind: 'patient',
      details: { accountId: caller.accountId, unpaid: true, page: query.page },
    },
    idsKey: 'orderIds',
  });
  return {
    total,
    rows: rows.map((r): UnpaidPatientOrderRow => {
      const paymentStatus = r.payment_status ?? PaymentStatus.AwaitingPayment;
      return {
        orderId: r.id, orderNumber: r.order_number, paymentStatus, paymentMethod: r.payment_method,
        stage: patientOrderStage({ paymentStatus, signedOffAt: null, cancelledAt: null }),
        product: r.product, tests: testsForProduct(r.product, r.eligibility_answers ?? {}), priceCents: r.price_cents,
        cardPaymentStarted: r.card_payment_started, mirakind: r.mirakind, orderedAt: new Date(r.created_at).toISOString(),
        patient: { id: r.patient_id, firstName: r.first_name, lastName: r.last_name, dateOfBirth: dataDate(r.date_of_birth)! },
      };
    }),
  };
}
