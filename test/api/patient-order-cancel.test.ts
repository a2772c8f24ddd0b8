/**
 * The clinic cancels a patient's order that is not paid yet, end to end through the API, the local
 * Stripe stand-in and a real worker. The order's open payment intent is cancelled at Stripe, so
 * the patient can no longer pay it; a Stripe outage delays that cancel but never loses it; and a
 * payment that beats the cancel to Stripe (either way round: its webhook first, or Stripe refusing
 * the cancel of an intent already paid) is recorded and refunded while the order stays cancelled.
 * The clinic finds those orders in its list of unpaid patient orders (its own account's only,
 * audited) and cancels one from there.
 */
import { expect } from 'chai';
import {
  JobStatus, ORDER_CANCELLED_CODE, PAYMENT_WEBHOOK_PATH, PatientOrderStage, PaymentMethod, PaymentStatus, ResultListCategory, type PaymentIntentAnswer,
  type UnpaidPatientOrderRow,
} from '@platform/domain';
import { stripeClient } from '@platform/server';
import type { RunningWorker } from '@platform/worker';
import { DECLINED_CARD, SUCCEEDING_CARD } from '../../scripts/stripe-stand-in';
import { newSession, type Session } from '../support/http';
import { startTestWorker } from '../support/server';
import { startPaymentStack, type PaymentStack } from '../support/stripe';
import { choosePayment, createPatientClinic, payOnCardPage, placePatientOrder, submitCard, type PatientClinic, type PlacedPatientOrder } from '../support/fixtures/patient-orders';
import { emailsSettled, jobSettled, jobsSettled, outboxJobSettled } from '../support/jobs';
import { mailTo } from '../support/mail';
import { until } from '../support/wait';

const CANCELLED_PAGE = 'This payment was cancelled and can no longer be paid';

describe('cancelling an unpaid patient order', function () {
  this.timeout(60_000);
  let stack: PaymentStack;
  let worker: RunningWorker | null = null;
  let clinic: PatientClinic;
  let patient: Session;
  let webhookUrl: string;

  before(async () => {
    stack = await startPaymentStack();
    webhookUrl = `${stack.baseUrl}/api/webhooks${PAYMENT_WEBHOOK_PATH}`;
    worker = await startTestWorker(stack.env);
    clinic = await createPatientClinic(stack.t.ctx, stack.t.app, 'Cove Oncology');
    patient = await newSession(stack.t.app, '10.71.0.1');
  });
  afterEach(() => {
    stack.standIn.setOutage(false);
    stack.standIn.setWebhookUrl(webhookUrl);
  });
  after(async () => {
    await worker?.close();
    await stack?.close();
  });

  const m = () => stack.t.ctx.db.models;
  const order = async (id: number) => (await m().Order.findByPk(id))!;
  /** The intent as Stripe (the stand-in) holds it. */
  const intentAtStripe = async (id: string) => (await stripeClient(stack.t.ctx.config).paymentIntents.retrieve(id)).status;
  const cancelCalls = (intentId: string) => stack.standIn.calls.filter((c) => c.method === 'POST' && c.path === `/v1/payment_intents/${intentId}/cancel`);
  const refundCalls = (orderId: number) => stack.standIn.calls.filter((c) => c.path === '/v1/refunds' && c.idempotencyKey === `refund-${orderId}`);
  const summary = async (key: PlacedPatientOrder['key']) => (await patient.post('/api/order/summary', key).expect(200)).body;
  const cancel = (orderId: number) =>
    clinic.physician.post(`/api/provider-clinic/${clinic.accountId}/patient-orders/${orderId}/cancel`, { reason: 'Patient chose another treatment' });
  /** The job row a command queued under an outbox key (read right after the command: it commits with it). */
  async function jobRowOf(idempotencyKey: string): Promise<number> {
    const outbox = await m().Outbox.findOne({ where: { idempotencyKey } });
    expect(outbox, idempotencyKey).to.not.equal(null);
    return Number((outbox!.payload as { jobRowId: number }).jobRowId);
  }
  const recordedEvent = (type: string, intentId: string) =>
    until(() => m().PaymentEvent.findOne({ where: { type, paymentIntentId: intentId } }), { what: `the ${type} event of ${intentId} recorded` });

  /** A self-pay order whose card payment was started (the intent exists at Stripe) and not paid. */
  async function unpaidOrderWithIntent(): Promise<{ placed: PlacedPatientOrder; intent: PaymentIntentAnswer }> {
    const placed = await placePatientOrder(stack.t.ctx, patient, { accountId: clinic.accountId });
    await choosePayment(patient, placed.key, PaymentMethod.SelfPay);
    const intent: PaymentIntentAnswer = (await patient.post('/api/stripe/create-payment-intent', placed.key).expect(200)).body;
    expect(await intentAtStripe(intent.paymentIntentId)).to.equal('requires_payment_method');
    return { placed, intent };
  }

  it('cancels the open payment intent at Stripe: the patient can no longer pay, and is told nothing was charged', async () => {
    const { placed, intent } = await unpaidOrderWithIntent();
    const res = await cancel(placed.orderId).expect(200);
    expect(res.body).to.include({ stage: PatientOrderStage.Cancelled, paymentStatus: PaymentStatus.AwaitingPayment });

    const job = await outboxJobSettled(stack.t.ctx, `cancel-payment-intent:${placed.orderId}`);
    expect(job.status).to.equal(JobStatus.Completed);
    expect(job.result).to.deep.include({ intentStatus: 'canceled', refused: false });
    expect(await intentAtStripe(intent.paymentIntentId)).to.equal('canceled');
    expect(cancelCalls(intent.paymentIntentId).map((c) => [c.idempotencyKey, c.status])).to.deep.equal([[`cancel-intent-${placed.orderId}`, 200]]);
    // Stripe's payment_intent.canceled is recorded against the order.
    expect((await recordedEvent('payment_intent.canceled', intent.paymentIntentId)).orderId).to.equal(placed.orderId);

    // The card page the patient may still have open takes no card, and nothing reaches the API.
    const page = await fetch(intent.checkoutUrl!);
    const html = await page.text();
    expect(html).to.include(CANCELLED_PAGE);
    expect(html).to.not.include('<form');
    const deliveries = stack.standIn.deliveries.length;
    const attempt = await submitCard(intent.checkoutUrl!, SUCCEEDING_CARD);
    expect(attempt.status).to.equal(409);
    expect(await attempt.text()).to.include(CANCELLED_PAGE);
    await stack.standIn.settled();
    expect(stack.standIn.deliveries.length).to.equal(deliveries);
    expect(await intentAtStripe(intent.paymentIntentId)).to.equal('canceled');

    // The order stays cancelled and unpaid; the patient's page says so and offers no new payment.
    const stored = await order(placed.orderId);
    expect(stored).to.deep.include({ paymentStatus: PaymentStatus.AwaitingPayment, paidAt: null });
    expect(await m().Sample.count({ where: { orderId: placed.orderId } })).to.equal(0);
    expect(await summary(placed.key)).to.include({ stage: PatientOrderStage.Cancelled, paymentStatus: PaymentStatus.AwaitingPayment });
    const again = await patient.post('/api/stripe/create-payment-intent', placed.key).expect(409);
    expect(again.body.error).to.include({ code: ORDER_CANCELLED_CODE, message: 'This order was cancelled' });

    await emailsSettled(stack.t.ctx, placed.patient.email);
    const mails = await mailTo(placed.patient.email);
    expect(mails.map((mail) => mail.subject)).to.have.length(1); // the cancellation, no receipt
    expect(mails[0].subject).to.include('was cancelled');
    expect(mails[0].text).to.include('Nothing was charged for this order.');
  });

  it("lists the account's unpaid orders (never another account's, audited) and cancels one from there: its intent is cancelled at Stripe", async () => {
    const other = await createPatientClinic(stack.t.ctx, stack.t.app, 'Inlet Oncology');
    const unpaidList = (s: Session, accountId = clinic.accountId) => s.agent.get(`/api/provider-clinic/${accountId}/patient-orders/unpaid?pageSize=200`);
    const numbersIn = (rows: UnpaidPatientOrderRow[]) => rows.map((r) => r.orderNumber);

    // Unpaid: a card payment started, a card declined, an order whose payment is not chosen yet.
    const { placed: started, intent } = await unpaidOrderWithIntent();
    const { placed: declined, intent: declinedIntent } = await unpaidOrderWithIntent();
    await payOnCardPage(declinedIntent.checkoutUrl!, DECLINED_CARD);
    await until(async () => (await order(declined.orderId)).paymentStatus === PaymentStatus.PaymentFailed, { what: 'the declined card recorded' });
    const fresh = await placePatientOrder(stack.t.ctx, patient, { accountId: clinic.accountId, product: 'kras' });
    // Not unpaid: a paid order (it moved on to the Patient-ordered list), and the other account's unpaid order.
    const { placed: paid, intent: paidIntent } = await unpaidOrderWithIntent();
    await payOnCardPage(paidIntent.checkoutUrl!, SUCCEEDING_CARD);
    await until(async () => (await order(paid.orderId)).paymentStatus === PaymentStatus.Paid, { what: 'the payment recorded' });
    const foreign = await placePatientOrder(stack.t.ctx, patient, { accountId: other.accountId });
    await choosePayment(patient, foreign.key, PaymentMethod.SelfPay);
    const foreignIntent: PaymentIntentAnswer = (await patient.post('/api/stripe/create-payment-intent', foreign.key).expect(200)).body;

    const res = await unpaidList(clinic.staff).expect(200);
    const rows = res.body as UnpaidPatientOrderRow[];
    expect(Number(res.headers['x-total-count'])).to.equal(rows.length);
    expect(numbersIn(rows)).to.include.members([started.orderNumber, declined.orderNumber, fresh.orderNumber]);
    expect(numbersIn(rows)).to.not.include.members([paid.orderNumber]);
    expect(numbersIn(rows)).to.not.include(foreign.orderNumber);
    // Newest first; what the clinic reads of each.
    expect(numbersIn(rows).indexOf(fresh.orderNumber)).to.be.below(numbersIn(rows).indexOf(started.orderNumber));
    const byNumber = (n: string) => rows.find((r) => r.orderNumber === n)!;
    expect(byNumber(started.orderNumber)).to.deep.include({
      orderId: started.orderId, stage: PatientOrderStage.AwaitingPayment, paymentStatus: PaymentStatus.AwaitingPayment, paymentMethod: PaymentMethod.SelfPay,
      product: 'prostox', tests: ['PROSTOX ultra'], priceCents: 50_000, cardPaymentStarted: true, mirakind: false,
    });
    expect(byNumber(started.orderNumber).patient).to.deep.include({ firstName: started.patient.firstName, lastName: started.patient.lastName, dateOfBirth: started.patient.dateOfBirth });
    expect(byNumber(declined.orderNumber)).to.include({ paymentStatus: PaymentStatus.PaymentFailed, cardPaymentStarted: true });
    expect(byNumber(fresh.orderNumber)).to.include({ paymentStatus: PaymentStatus.AwaitingPayment, paymentMethod: null, product: 'kras', priceCents: null, cardPaymentStarted: false });
    // The paid order is the Patient-ordered list's now.
    const patientOrdered = await clinic.physician.agent.get(`/api/provider-clinic/${clinic.accountId}/tests?category=${ResultListCategory.PatientOrdered}&pageSize=200`).expect(200);
    expect(patientOrdered.body.map((r: { orderNumber: string }) => r.orderNumber)).to.include(paid.orderNumber);

    // The read is audited: who, which account, which orders.
    const audit = await m().AuditEvent.findOne({ where: { action: 'patient_orders.listed', actorUserId: clinic.staff.userId }, order: [['id', 'DESC']] });
    expect(audit!.details).to.deep.include({ accountId: clinic.accountId, total: rows.length });
    expect(audit!.details.orderIds).to.deep.equal(rows.map((r) => r.orderId));

    // The other account sees its own unpaid order only, cannot read this account's list, and cannot cancel its orders.
    expect(numbersIn((await unpaidList(other.physician, other.accountId).expect(200)).body)).to.deep.equal([foreign.orderNumber]);
    expect((await unpaidList(other.physician).expect(404)).body.error.message).to.equal('Account not found');
    await other.physician.post(`/api/provider-clinic/${other.accountId}/patient-orders/${started.orderId}/cancel`, { reason: 'Not ours' }).expect(404);
    await other.physician.post(`/api/provider-clinic/${clinic.accountId}/patient-orders/${started.orderId}/cancel`, { reason: 'Not ours' }).expect(404);
    await clinic.physician.post(`/api/provider-clinic/${clinic.accountId}/patient-orders/${foreign.orderId}/cancel`, { reason: 'Not ours' }).expect(404);
    expect(await order(started.orderId)).to.deep.include({ cancelledAt: null });
    expect(await order(foreign.orderId)).to.deep.include({ cancelledAt: null });
    expect(await m().Outbox.count({ where: { idempotencyKey: [`cancel-payment-intent:${started.orderId}`, `cancel-payment-intent:${foreign.orderId}`] } })).to.equal(0);
    // Support staff see the list but do not cancel.
    await clinic.staff.post(`/api/provider-clinic/${clinic.accountId}/patient-orders/${started.orderId}/cancel`, { reason: 'Staff' }).expect(403);

    // The physician cancels the started one: it leaves the list, and its intent is cancelled at Stripe.
    await cancel(started.orderId).expect(200);
    const after = (await unpaidList(clinic.physician).expect(200)).body as UnpaidPatientOrderRow[];
    expect(numbersIn(after)).to.not.include(started.orderNumber);
    expect(numbersIn(after)).to.include.members([declined.orderNumber, fresh.orderNumber]);
    const job = await outboxJobSettled(stack.t.ctx, `cancel-payment-intent:${started.orderId}`);
    expect(job.status).to.equal(JobStatus.Completed);
    expect(await intentAtStripe(intent.paymentIntentId)).to.equal('canceled');
    expect(await intentAtStripe(foreignIntent.paymentIntentId)).to.equal('requires_payment_method');
    await emailsSettled(stack.t.ctx, started.patient.email);
  });

  it('cancels an unpaid order that never started a card payment without calling Stripe', async () => {
    const placed = await placePatientOrder(stack.t.ctx, patient, { accountId: clinic.accountId });
    await choosePayment(patient, placed.key, PaymentMethod.SelfPay);
    const calls = stack.standIn.calls.length;
    await cancel(placed.orderId).expect(200);
    expect(await m().Outbox.count({ where: { idempotencyKey: `cancel-payment-intent:${placed.orderId}` } })).to.equal(0);
    expect(await summary(placed.key)).to.include({ stage: PatientOrderStage.Cancelled });
    await emailsSettled(stack.t.ctx, placed.patient.email);
    expect(stack.standIn.calls.length).to.equal(calls);
  });

  it('retries the cancel through a Stripe outage and cancels the intent once Stripe answers', async () => {
    const { placed, intent } = await unpaidOrderWithIntent();
    stack.standIn.setOutage(true);
    await cancel(placed.orderId).expect(200); // one transaction, no Stripe call: the outage does not stop the clinic
    const jobRowId = await jobRowOf(`cancel-payment-intent:${placed.orderId}`);
    // Stripe answered 500 and the job went on to a second attempt (backoff), still not Failed.
    const retrying = await until(async () => {
      const row = await m().Job.findByPk(jobRowId);
      return row && row.attempts >= 2 && cancelCalls(intent.paymentIntentId).some((c) => c.status === 500) ? row : null;
    }, { what: 'the cancel job to retry after Stripe answered 500' });
    expect(retrying.status).to.not.equal(JobStatus.Failed);
    stack.standIn.setOutage(false);

    const job = await jobSettled(stack.t.ctx, jobRowId);
    expect(job.status).to.equal(JobStatus.Completed);
    expect(await intentAtStripe(intent.paymentIntentId)).to.equal('canceled');
    const calls = cancelCalls(intent.paymentIntentId);
    expect(new Set(calls.map((c) => c.idempotencyKey))).to.deep.equal(new Set([`cancel-intent-${placed.orderId}`]));
    expect(calls.filter((c) => c.status === 200)).to.have.length(1);
    expect((await submitCard(intent.checkoutUrl!, SUCCEEDING_CARD)).status).to.equal(409);
    expect(await order(placed.orderId)).to.deep.include({ paymentStatus: PaymentStatus.AwaitingPayment });
    await emailsSettled(stack.t.ctx, placed.patient.email);
  });

  it('refunds a payment made after the cancellation but before its cancel reached Stripe; the order stays cancelled', async () => {
    const { placed, intent } = await unpaidOrderWithIntent();
    await worker!.close(); // the cancel job waits in the queue: the patient pays first
    worker = null;
    await cancel(placed.orderId).expect(200);
    const back = await payOnCardPage(intent.checkoutUrl!, SUCCEEDING_CARD);
    expect(back.searchParams.get('redirect_status')).to.equal('succeeded');

    // The webhook recorded the payment and started its refund; nothing was revived (no kit, no receipt).
    const paid = await order(placed.orderId);
    expect(paid.paymentStatus).to.equal(PaymentStatus.RefundPending);
    expect(paid.paidAt).to.be.an.instanceOf(Date);
    expect(paid.cancelledAt).to.be.an.instanceOf(Date);
    expect(await summary(placed.key)).to.include({ stage: PatientOrderStage.Cancelled, paymentStatus: PaymentStatus.RefundPending });
    expect((await recordedEvent('payment_intent.succeeded', intent.paymentIntentId)).orderId).to.equal(placed.orderId);

    worker = await startTestWorker(stack.env);
    const [cancelJob, refundJob] = await jobsSettled(stack.t.ctx, [
      await jobRowOf(`cancel-payment-intent:${placed.orderId}`),
      await jobRowOf(`refund-payment:${placed.orderId}`),
    ]);
    expect(refundJob.status).to.equal(JobStatus.Completed);
    // The cancel found the order paid: nothing to cancel, and Stripe was not asked.
    expect(cancelJob.status).to.equal(JobStatus.Completed);
    expect((cancelJob.result as { skipped?: string }).skipped).to.match(/^payment is Refund/);
    expect(cancelCalls(intent.paymentIntentId)).to.have.length(0);
    expect(await intentAtStripe(intent.paymentIntentId)).to.equal('succeeded');
    expect(refundCalls(placed.orderId).map((c) => c.status)).to.deep.equal([200]);

    const refunded = await order(placed.orderId);
    expect(refunded.paymentStatus).to.equal(PaymentStatus.Refunded);
    expect(refunded.refundedAt).to.be.an.instanceOf(Date);
    expect(await summary(placed.key)).to.include({ stage: PatientOrderStage.Cancelled, paymentStatus: PaymentStatus.Refunded });
    expect(await m().Sample.count({ where: { orderId: placed.orderId } })).to.equal(0);
    await emailsSettled(stack.t.ctx, placed.patient.email);
    expect((await mailTo(placed.patient.email)).map((mail) => mail.subject)).to.have.length(1); // the cancellation only
  });

  it('when Stripe refuses the cancel because the intent was just paid, the late payment webhook refunds it', async () => {
    const { placed, intent } = await unpaidOrderWithIntent();
    stack.standIn.setWebhookUrl(`${stack.baseUrl}/api/webhooks/nowhere`); // the payment's webhook does not get through yet
    await payOnCardPage(intent.checkoutUrl!, SUCCEEDING_CARD);
    expect((await order(placed.orderId)).paymentStatus).to.equal(PaymentStatus.AwaitingPayment);

    await cancel(placed.orderId).expect(200);
    const cancelJob = await outboxJobSettled(stack.t.ctx, `cancel-payment-intent:${placed.orderId}`);
    expect(cancelJob.status).to.equal(JobStatus.Completed);
    expect(cancelJob.result).to.deep.include({ intentStatus: 'succeeded', refused: true });
    expect(cancelCalls(intent.paymentIntentId).map((c) => c.status)).to.deep.equal([400]);
    expect(await intentAtStripe(intent.paymentIntentId)).to.equal('succeeded');

    // Stripe retries the webhook: the payment is recorded on the cancelled order and refunded.
    stack.standIn.setWebhookUrl(webhookUrl);
    await stack.standIn.retryWebhooks();
    const refundJob = await outboxJobSettled(stack.t.ctx, `refund-payment:${placed.orderId}`);
    expect(refundJob.status).to.equal(JobStatus.Completed);
    expect(refundCalls(placed.orderId).map((c) => c.status)).to.deep.equal([200]);
    const refunded = await order(placed.orderId);
    expect(refunded).to.deep.include({ paymentStatus: PaymentStatus.Refunded });
    expect(refunded.paidAt).to.be.an.instanceOf(Date);
    expect(await summary(placed.key)).to.include({ stage: PatientOrderStage.Cancelled, paymentStatus: PaymentStatus.Refunded });
    expect(await m().Sample.count({ where: { orderId: placed.orderId } })).to.equal(0);

    await emailsSettled(stack.t.ctx, placed.patient.email);
  });
});
