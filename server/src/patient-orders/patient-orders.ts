/**
 * The Patient Portal's order (docs/patient-ordering-api.md): eligibility, the treating providers
 * and insurance plans a patient may choose, the order itself (waiting for payment), the referral
 * source, the payment method and price (computed here from the catalogue, never the client's),
 * the card payment intent, the order's summary, invitation links and the financial-assistance
 * check. Every read and write of an order or patient is audited; one transaction per command.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { Op, QueryTypes, UniqueConstraintError, type Transaction } from 'sequelize';
import type { Order } from '@platform/db';
import {
  AccessStatus, AccountType, assessEligibility, InvitationStatus, isCurrentAid, isUnpaid, mirakindDonationCents, normalizeAidCode, ORDER_CANCELLED_CODE, PATIENT_ORDER_PREFIX, PATIENT_PRODUCT_NAMES, patientPriceCents,
  PaymentMethod, PaymentStatus, Portal, SmsConsentSource, TestOrigin, type CreatedPatientOrder, type CreatePatientOrderBody, type EligibilityAnswer,
  type EligibilityInquiryBody, type FinancialAssistanceExistsBody, type InsurancePlanOption, type InvitationPrefill, type OrderingPatient,
  type PatientOrderKey, type PatientOrderSummary, type PatientProduct, type PaymentIntentAnswer, type PrpAccountOption, type SetPaymentBody,
  type SetReferralSourceBody, type Language, type FinancialAssistanceExistsAnswer,
} from '@platform/domain';
import { auditActor, recordAudit, type Caller } from '../audit';
import { cancelOpenIntent } from '../payments/cancelled-payments';
import { Conflict, conflict, gone, NotFound, notFound, unprocessable } from '../errors';
import { movePayment } from '../payments/payment-status';
import { stripeClient } from '../payments/stripe-client';
import type { ServerContext } from '../context';
import { hashToken } from '../auth/tokens';
import { moveOrderOn, orderCompleteUrl } from './moving-on';
import { applySmsContact } from '../sms/consent';
import { orderByKey, stageOf, summaryOf, testsOfOrder } from './patient-order-view';

type Ctx = Pick<ServerContext, 'db' | 'relay' | 'config'>;

export const INVITATION_MESSAGES = {
  unknown: 'This invitation link is not valid',
  used: 'This invitation has already been used',
  cancelled: 'This invitation was cancelled',
  expired: 'This invitation has expired',
} as const;
export const NO_FINANCIAL_ASSISTANCE = 'No approved financial assistance was found for this patient with this assistance code';
export const NOT_ELIGIBLE = 'The answers show the test is not right to order this way';

// ---------------------------------------------------------------------------------------------
// Choices
// ---------------------------------------------------------------------------------------------

export function eligibilityInquiry(body: EligibilityInquiryBody): EligibilityAnswer {
  return assessEligibility(body.product, body.answers);
}

/** Accounts a patient may name as their treating provider: active, with clinic access, PROSTOX Research Partners or marked by the admin. */
const PRP_WHERE = {
  isActive: true,
  clinicAccess: true,
  [Op.or]: [{ type: AccountType.ProstoxResearchPartner }, { takesPatientOrders: true }],
};

export async function prpAccounts(ctx: Pick<Ctx, 'db'>): Promise<PrpAccountOption[]> {
  const accounts = await ctx.db.models.Account.findAll({ where: PRP_WHERE, attributes: ['id', 'name'], order: [['name', 'ASC'], ['id', 'ASC']] });
  return accounts.map((a) => ({ id: a.id, name: a.name }));
}

export async function activeInsurancePlans(ctx: Pick<Ctx, 'db'>): Promise<InsurancePlanOption[]> {
  const plans = await ctx.db.models.InsurancePlan.findAll({ where: { isActive: true }, attributes: ['id', 'name'], order: [['name', 'ASC'], ['id', 'ASC']] });
  return plans.map((p) => ({ id: p.id, name: p.name }));
}

// ---------------------------------------------------------------------------------------------
// Financial assistance
// ---------------------------------------------------------------------------------------------

/**
 * The current financial-assistance record an assistance code opens for a person: the record whose
 * code it is, granted to a patient record of the same name and date of birth (in any account or
 * none), approved and not past its last day (isCurrentAid, the admin's list's rule). The code
 * proves the person (a name and a date of birth prove nothing); name and date of birth keep one
 * person's code from pricing another person's order.
 */
async function currentAidRecord(ctx: Pick<Ctx, 'db'>, who: { firstName: string; lastName: string; dateOfBirth: string; code: string }, transaction?: Transaction) {
  const rows = await ctx.db.sequelize.query<{ id: number; approved_price_cents: number | null; valid_until: string | null; status: string }>(
    `SELECT r.id, r.approved_price_cents, to_char(r.valid_until, 'YYYY-MM-DD') AS valid_until, r.status
       FROM financial_assistance_records r JOIN patients p ON p.id = r.patient_id
      WHERE r.code_hash = :codeHash
        AND lower(p.first_name) = lower(:firstName) AND lower(p.last_name) = lower(:lastName) AND p.date_of_birth = :dateOfBirth`,
    { replacements: { ...who, codeHash: hashToken(normalizeAidCode(who.code)) }, type: QueryTypes.SELECT, transaction },
  );
  const row = rows.find((r) => isCurrentAid({ status: r.status, validUntil: r.valid_until }));
  return row ? { id: Number(row.id), approvedPriceCents: row.approved_price_cents } : null;
}

/** The current aid record an assistance code opens for the patient of an order (null when none). */
async function aidRecordOfOrder(ctx: Pick<Ctx, 'db'>, order: Order, code: string, transaction?: Transaction) {
  const patient = await ctx.db.models.Patient.findByPk(order.patientId, { transaction });
  return patient?.firstName && patient.lastName && patient.dateOfBirth
    ? currentAidRecord(ctx, { firstName: patient.firstName, lastName: patient.lastName, dateOfBirth: patient.dateOfBirth, code }, transaction)
    : null;
}

/** Whether the code applies to the patient of the caller's own order (its key): yes or no, audited. */
export async function financialAssistanceExists(ctx: Pick<Ctx, 'db'>, caller: Caller, body: FinancialAssistanceExistsBody): Promise<FinancialAssistanceExistsAnswer> {
  const order = await orderByKey(ctx, body);
  const record = await aidRecordOfOrder(ctx, order, body.assistanceCode);
  await recordAudit(ctx.db, {
    ...auditActor(caller), action: 'financial_aid.checked', entityKind: 'patient', entityId: order.patientId,
    details: { orderId: order.id, exists: record !== null, recordId: record?.id ?? null },
  });
  return { exists: record !== null };
}

// ---------------------------------------------------------------------------------------------
// Invitations (the public side)
// ---------------------------------------------------------------------------------------------

/** The invitation of a token, refused (404 / 410) unless it can still be used. Locked when a transaction is given. */
async function usableInvitation(ctx: Pick<Ctx, 'db'>, token: string, transaction?: Transaction) {
  const invitation = await ctx.db.models.PatientInvitation.findOne({
    where: { tokenHash: hashToken(token) },
    ...(transaction ? { transaction, lock: transaction.LOCK.UPDATE } : {}),
  });
  if (!invitation) throw notFound(INVITATION_MESSAGES.unknown);
  if (invitation.status === InvitationStatus.Cancelled) throw gone(INVITATION_MESSAGES.cancelled);
  if (invitation.usedAt || invitation.status === InvitationStatus.Accepted) throw gone(INVITATION_MESSAGES.used);
  if (invitation.expiresAt.getTime() <= Date.now()) throw gone(INVITATION_MESSAGES.expired);
  return invitation;
}

export async function invitationPrefill(ctx: Pick<Ctx, 'db'>, caller: Caller, token: string): Promise<InvitationPrefill> {
  const invitation = await usableInvitation(ctx, token);
  const account = await ctx.db.models.Account.findByPk(invitation.accountId);
  if (!account) throw notFound(INVITATION_MESSAGES.unknown);
  await recordAudit(ctx.db, {
    ...auditActor(caller), action: 'patient_invitation.opened', entityKind: 'patient', entityId: invitation.patientId,
    details: { invitationId: invitation.id, accountId: account.id },
  });
  return {
    accountId: account.id, accountName: account.name, product: invitation.product, email: invitation.email,
    firstName: invitation.firstName, lastName: invitation.lastName,
  };
}

// ---------------------------------------------------------------------------------------------
// The order
// ---------------------------------------------------------------------------------------------

/** RPD + 10 random digits (SPEC §5), so one order number cannot be guessed from another. */
function newPatientOrderNumber(): string {
  return `${PATIENT_ORDER_PREFIX}${String(randomInt(0, 100_000)).padStart(5, '0')}${String(randomInt(0, 100_000)).padStart(5, '0')}`;
}

const CONTACT_FIELDS = ['email', 'phone', 'addressLine1', 'addressLine2', 'city', 'state', 'postalCode'] as const;

/**
 * Who may be matched to a patient already on file, and so change where that patient's results go.
 * A name and a date of birth prove nothing (they are on every requisition): only the clinic itself
 * (its own MiraKind order, signed in) or an invitation the clinic sent to the email on that
 * patient's record. Anyone else's order makes a patient record of its own.
 */
type PatientProof = { by: 'clinic' } | { by: 'invitation'; email: string } | null;

/** The patient in the account with the same name (any case) and date of birth, if the proof reaches them. */
async function provenPatient(ctx: Pick<Ctx, 'db'>, transaction: Transaction, accountId: number, p: OrderingPatient, proof: PatientProof) {
  if (!proof) return null;
  const { sequelize } = ctx.db;
  return ctx.db.models.Patient.findOne({
    where: {
      accountId,
      dateOfBirth: p.dateOfBirth,
      [Op.and]: [
        sequelize.where(sequelize.fn('lower', sequelize.col('first_name')), p.firstName.toLowerCase()),
        sequelize.where(sequelize.fn('lower', sequelize.col('last_name')), p.lastName.toLowerCase()),
        ...(proof.by === 'invitation' ? [sequelize.where(sequelize.fn('lower', sequelize.col('email')), proof.email.trim().toLowerCase())] : []),
      ],
    },
    order: [['id', 'ASC']],
    lock: transaction.LOCK.UPDATE,
    transaction,
  });
}

/** The proven patient (see PatientProof), their contact and address brought up to date; or a new one. */
async function findOrCreatePatient(ctx: Pick<Ctx, 'db'>, transaction: Transaction, accountId: number, p: OrderingPatient, language: Language, caller: Caller, proof: PatientProof) {
  const m = ctx.db.models;
  const existing = await provenPatient(ctx, transaction, accountId, p, proof);
  const details = { email: p.email, phone: p.phone, addressLine1: p.addressLine1, addressLine2: p.addressLine2, city: p.city, state: p.state, postalCode: p.postalCode };
  const preferredLanguage = language;
  if (!existing) {
    const patient = await m.Patient.create(
      { accountId, firstName: p.firstName, lastName: p.lastName, dateOfBirth: p.dateOfBirth, sex: null, country: 'US', medicalRecordNumber: null, preferredLanguage, ...details },
      { transaction },
    );
    return { patient, created: true, changed: [] as string[] };
  }
  // The patient's own latest address is where the kit goes; which fields changed is audited (never their values).
  const changed: string[] = CONTACT_FIELDS.filter((f) => (existing[f] ?? null) !== (details[f] ?? null));
  if (existing.preferredLanguage !== preferredLanguage) changed.push('preferredLanguage');
  if (changed.length) await existing.update({ ...details, country: 'US', preferredLanguage }, { transaction });
  await recordAudit(ctx.db, { ...auditActor(caller), action: 'patient.details_updated', entityKind: 'patient', entityId: existing.id, details: { accountId, changed, provenBy: proof!.by } }, transaction);
  return { patient: existing, created: false, changed };
}

/**
 * order/create. `account` is the treating provider's account, already checked by the route
 * against the PRP list or (MiraKind path) the signed-in provider's clinic access.
 */
export async function createPatientOrder(ctx: Ctx, caller: Caller, body: CreatePatientOrderBody): Promise<CreatedPatientOrder> {
  const m = ctx.db.models;
  const eligibility = assessEligibility(body.product, body.answers);
  if (!eligibility.eligible) {
    throw unprocessable(NOT_ELIGIBLE, eligibility.problems.map((p) => ({ field: `answers.${p.questionId}`, message: `${p.reason} ${p.guidance}` })), 'not_eligible');
  }
  const account = body.mirakind
    ? await m.Account.findOne({ where: { id: body.accountId, isActive: true, clinicAccess: true } })
    : await m.Account.findOne({ where: { id: body.accountId, ...PRP_WHERE } });
  if (!account) throw new NotFound('Treating provider not found', [{ field: 'accountId', message: 'Choose a treating provider from the list' }]);
  if (body.mirakind && caller.accountId !== account.id) throw notFound('Treating provider not found');

  for (let attempt = 1; ; attempt++) {
    try {
      return await ctx.db.sequelize.transaction(async (transaction) => {
        const invitation = body.invitationToken ? await usableInvitation(ctx, body.invitationToken, transaction) : null;
        if (invitation && (invitation.accountId !== account.id || invitation.product !== body.product)) {
          throw unprocessable(`This invitation is for ${PATIENT_PRODUCT_NAMES[invitation.product]} with the clinic that sent it`, [
            { field: 'invitationToken', message: 'The invitation names another test or treating provider' },
          ]);
        }
        const proof: PatientProof = body.mirakind ? { by: 'clinic' } : invitation ? { by: 'invitation', email: invitation.email } : null;
        const { patient, created } = await findOrCreatePatient(ctx, transaction, account.id, body.patient, body.language, caller, proof);
        // Consent to texts as the order page (or, on the MiraKind path, the clinic) gave it, with when and where.
        await applySmsContact(ctx.db, transaction, patient, { mobilePhone: body.mobilePhone, smsConsent: body.smsConsent }, {
          source: body.mirakind ? SmsConsentSource.Clinic : SmsConsentSource.PatientOrder, actor: auditActor(caller),
        });
        const orderToken = randomBytes(32).toString('hex');
        const order = await m.Order.create(
          {
            orderNumber: newPatientOrderNumber(),
            accountId: account.id,
            patientId: patient.id,
            physicianId: null,
            origin: TestOrigin.PatientOrdered,
            portal: Portal.Patient,
            createdByUserId: caller.userId,
            paymentStatus: PaymentStatus.AwaitingPayment,
            product: body.product,
            eligibilityAnswers: { ...body.answers },
            mirakind: body.mirakind || account.type === AccountType.MiraKind,
            orderTokenHash: hashToken(orderToken),
            invitationId: invitation?.id ?? null,
          },
          { transaction },
        );
        if (invitation) {
          await invitation.update({ status: InvitationStatus.Accepted, usedAt: new Date(), orderId: order.id, patientId: patient.id }, { transaction });
        }
        const replaced = body.replaces ? await replaceUnpaidOrder(ctx, transaction, body.replaces, order, caller) : null;
        await recordAudit(ctx.db, {
          ...auditActor(caller), action: 'patient_order.created', entityKind: 'patient', entityId: patient.id,
          details: {
            orderId: order.id, accountId: account.id, product: body.product, tests: eligibility.tests, mirakind: order.mirakind, invitationId: invitation?.id ?? null, newPatient: created,
            replacedOrderId: replaced,
          },
        }, transaction);
        order.account = account;
        order.insurancePlan = null;
        return { order: summaryOf(order), orderToken };
      });
    } catch (err) {
      // Two orders drew the same random number at the same moment: draw again.
      if (err instanceof UniqueConstraintError && attempt < 3 && JSON.stringify(err.fields ?? {}).includes('order_number')) continue;
      throw err;
    }
  }
}

export const REPLACED_ORDER_REASON = 'Replaced by a new order the patient started';

/**
 * The unpaid order a browser started before and replaces with a new one (its key proves it is
 * theirs): cancelled with the new order's creation, its open card payment cancelled at Stripe, so
 * abandoned attempts do not pile up for the clinic to cancel. A paid, cancelled or unknown order is
 * left alone. Answers the cancelled order's id.
 */
async function replaceUnpaidOrder(ctx: Ctx, transaction: Transaction, key: PatientOrderKey, by: Order, caller: Caller): Promise<number | null> {
  const old = await orderByKey(ctx, key, transaction).catch((err: unknown) => {
    if (err instanceof NotFound) return null;
    throw err;
  });
  if (!old || old.cancelledAt || !isUnpaid(old.paymentStatus)) return null;
  await old.update({ cancelledAt: new Date(), cancelledByUserId: caller.userId, cancellationReason: REPLACED_ORDER_REASON }, { transaction });
  const intentCancelled = await cancelOpenIntent(ctx, transaction, old, caller.userId);
  await recordAudit(ctx.db, {
    ...auditActor(caller), action: 'patient_order.replaced', entityKind: 'patient', entityId: old.patientId,
    details: { orderId: old.id, replacedBy: by.id, intentCancelled, before: { cancelledAt: null }, after: { cancelledAt: old.cancelledAt, reason: REPLACED_ORDER_REASON } },
  }, transaction);
  return old.id;
}

/** Refuses a command on an order the clinic cancelled (409 with its own code: the order pages then show it cancelled). */
function notCancelled(order: Order): void {
  if (order.cancelledAt) throw new Conflict('This order was cancelled', undefined, ORDER_CANCELLED_CODE);
}

export async function setReferralSource(ctx: Ctx, caller: Caller, body: SetReferralSourceBody): Promise<PatientOrderSummary> {
  return ctx.db.sequelize.transaction(async (transaction) => {
    const order = await orderByKey(ctx, body, transaction);
    notCancelled(order);
    await order.update({ referralSource: body.referralSource, referralOther: body.referralOther }, { transaction });
    await recordAudit(ctx.db, {
      ...auditActor(caller), action: 'patient_order.referral_set', entityKind: 'patient', entityId: order.patientId,
      details: { orderId: order.id, referralSource: body.referralSource },
    }, transaction);
    return summaryOf(order);
  });
}

/** What an order costs with a method: the price, the MiraKind donation part and the aid record it rests on (opened by the assistance code). */
async function priceFor(ctx: Pick<Ctx, 'db'>, order: Order, body: SetPaymentBody, transaction: Transaction) {
  const tests = testsOfOrder(order);
  let priceCents = 0;
  let aidRecordId: number | null = null;
  if (body.method === PaymentMethod.SelfPay) priceCents = patientPriceCents(tests, { financialAssistance: false });
  if (body.method === PaymentMethod.FinancialAssistance) {
    const record = await aidRecordOfOrder(ctx, order, body.assistanceCode ?? '', transaction);
    if (!record) throw unprocessable(NO_FINANCIAL_ASSISTANCE, [{ field: 'assistanceCode', message: NO_FINANCIAL_ASSISTANCE }]);
    aidRecordId = record.id;
    priceCents = record.approvedPriceCents ?? patientPriceCents(tests, { financialAssistance: true });
  }
  const donationCents = order.mirakind && priceCents > 0 ? mirakindDonationCents(priceCents) : null;
  return { priceCents, donationCents, aidRecordId };
}

export async function setPayment(ctx: Ctx, caller: Caller, body: SetPaymentBody): Promise<PatientOrderSummary> {
  const m = ctx.db.models;
  return ctx.db.sequelize.transaction(async (transaction) => {
    const order = await orderByKey(ctx, body, transaction);
    notCancelled(order);
    if (!isUnpaid(order.paymentStatus)) throw conflict(`The payment of this order is settled (${order.paymentStatus})`);
    const plan = body.method === PaymentMethod.Insurance ? await m.InsurancePlan.findOne({ where: { id: body.insurancePlanId!, isActive: true }, transaction }) : null;
    if (body.method === PaymentMethod.Insurance && !plan) {
      throw new NotFound('Insurance plan not found', [{ field: 'insurancePlanId', message: 'Choose an insurance plan from the list' }]);
    }
    const { priceCents, donationCents, aidRecordId } = await priceFor(ctx, order, body, transaction);
    // Once a card payment has started, its amount is fixed: another method or price would leave that payment open.
    if (order.stripePaymentIntentId && (order.paymentMethod !== body.method || order.priceCents !== priceCents)) {
      throw conflict('A card payment was started for this order: pay it by card, or start a new order to pay another way');
    }
    await order.update(
      {
        paymentMethod: body.method, priceCents, donationCents, financialAssistanceRecordId: aidRecordId,
        insurancePlanId: plan?.id ?? null, insuranceMemberId: plan ? body.insuranceMemberId : null,
      },
      { transaction },
    );
    order.insurancePlan = plan;
    // Insurance, and aid at no cost, move on at once: nothing to charge.
    const moved = priceCents === 0 && (await movePayment(order, PaymentStatus.NotCharged, transaction));
    await recordAudit(ctx.db, {
      ...auditActor(caller), action: 'patient_order.payment_set', entityKind: 'patient', entityId: order.patientId,
      details: { orderId: order.id, method: body.method, priceCents, donationCents, insurancePlanId: plan?.id ?? null, financialAssistanceRecordId: aidRecordId, notCharged: moved },
    }, transaction);
    if (moved) await moveOrderOn(ctx, transaction, order, caller);
    return summaryOf(order);
  });
}

export async function orderSummary(ctx: Ctx, caller: Caller, key: PatientOrderKey): Promise<PatientOrderSummary> {
  const order = await orderByKey(ctx, key);
  await recordAudit(ctx.db, { ...auditActor(caller), action: 'patient_order.viewed', entityKind: 'patient', entityId: order.patientId, details: { orderId: order.id, stage: stageOf(order) } });
  return summaryOf(order);
}

/** The card methods: they charge the order's price through Stripe. */
const CARD_METHODS: readonly (PaymentMethod | null)[] = [PaymentMethod.SelfPay, PaymentMethod.FinancialAssistance];

/**
 * stripe/create-payment-intent: one intent per order, for the order's price as computed on the
 * server. A second call answers the same intent (Stripe's idempotency key, and the id stored on
 * the order); the order's row lock makes two concurrent calls wait for each other.
 */
export async function createPaymentIntent(ctx: Ctx, caller: Caller, key: PatientOrderKey): Promise<PaymentIntentAnswer> {
  const stripe = stripeClient(ctx.config);
  return ctx.db.sequelize.transaction(async (transaction) => {
    const order = await orderByKey(ctx, key, transaction);
    notCancelled(order);
    if (!CARD_METHODS.includes(order.paymentMethod) || !order.priceCents) throw conflict('This order has nothing to pay by card: choose Self-Pay or Financial Assistance first');
    if (!isUnpaid(order.paymentStatus)) throw conflict(`The payment of this order is settled (${order.paymentStatus})`);
    const amount = order.priceCents;
    const intent = order.stripePaymentIntentId
      ? await stripe.paymentIntents.retrieve(order.stripePaymentIntentId)
      : await stripe.paymentIntents.create(
        { amount, currency: 'usd', metadata: { orderId: String(order.id), orderNumber: order.orderNumber }, description: `${PATIENT_PRODUCT_NAMES[order.product as PatientProduct]} patient order ${order.orderNumber}` },
        { idempotencyKey: `order-${order.id}-payment-${amount}` },
      );
    const created = order.stripePaymentIntentId !== intent.id;
    if (created) await order.update({ stripePaymentIntentId: intent.id }, { transaction });
    await recordAudit(ctx.db, {
      ...auditActor(caller), action: 'patient_order.payment_intent', entityKind: 'patient', entityId: order.patientId,
      details: { orderId: order.id, paymentIntentId: intent.id, amountCents: intent.amount, created },
    }, transaction);
    const returnUrl = orderCompleteUrl(ctx.config.publicUrl, order.orderNumber);
    return {
      paymentIntentId: intent.id,
      clientSecret: intent.client_secret ?? '',
      amountCents: intent.amount,
      currency: 'usd',
      publishableKey: ctx.config.stripe.publishableKey,
      checkoutUrl: ctx.config.stripe.apiUrl ? `${ctx.config.stripe.apiUrl}/pay/${encodeURIComponent(intent.id)}?return_url=${encodeURIComponent(returnUrl)}` : null,
    };
  });
}
