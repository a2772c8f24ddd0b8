/**
 * The cancel-payment-intent job: at-least-once delivery must never leave Stripe two different
 * answers. Run again for the same cancelled order before Stripe's payment_intent.canceled is
 * recorded, it asks Stripe (the stand-in) with the same idempotency key and gets the same answer;
 * once the event is recorded it does not ask at all. An order that is not cancelled, has been paid
 * meanwhile, or has no intent is left alone, and its intent stays payable.
 */
import { expect } from 'chai';
import { PAYMENT_WEBHOOK_PATH, PaymentMethod, PaymentStatus, type PaymentIntentAnswer } from '@platform/domain';
import { createMailer, stripeClient } from '@platform/server';
import { cancelPaymentIntent } from '@platform/worker/processors/cancel-payment-intent';
import type { WorkerDeps } from '@platform/worker/processors/types';
import { newSession, type Session } from '../support/http';
import { startPaymentStack, type PaymentStack } from '../support/stripe';
import { choosePayment, createPatientClinic, placePatientOrder, type PatientClinic } from '../support/fixtures/patient-orders';
import { until } from '../support/wait';

describe('cancel-payment-intent job', function () {
  this.timeout(30_000);
  let stack: PaymentStack;
  let clinic: PatientClinic;
  let patient: Session;
  let deps: WorkerDeps;
  const tools = { jobRowId: 1, attempt: 1, progress: async () => undefined };

  before(async () => {
    stack = await startPaymentStack();
    clinic = await createPatientClinic(stack.t.ctx, stack.t.app, 'Intent Clinic');
    patient = await newSession(stack.t.app, '10.72.0.1');
    const { config, db, logger, relay } = stack.t.ctx;
    deps = { config, db, logger, relay, mailer: createMailer(config) };
  });
  afterEach(() => stack.standIn.setWebhookUrl(`${stack.baseUrl}/api/webhooks${PAYMENT_WEBHOOK_PATH}`));
  after(() => stack?.close());

  const m = () => stack.t.ctx.db.models;
  const intentAtStripe = async (id: string) => (await stripeClient(stack.t.ctx.config).paymentIntents.retrieve(id)).status;
  const cancelCalls = (intentId: string) => stack.standIn.calls.filter((c) => c.path === `/v1/payment_intents/${intentId}/cancel`);

  /** A self-pay order with its intent at Stripe; marked cancelled in the database (as the cancel command leaves it) when asked. */
  async function orderWithIntent(cancelled: boolean) {
    const order = await placePatientOrder(stack.t.ctx, patient, { accountId: clinic.accountId });
    await choosePayment(patient, order.key, PaymentMethod.SelfPay);
    const intent: PaymentIntentAnswer = (await patient.post('/api/stripe/create-payment-intent', order.key).expect(200)).body;
    if (cancelled) await m().Order.update({ cancelledAt: new Date(), cancellationReason: 'test' }, { where: { id: order.orderId } });
    return { orderId: order.orderId, intentId: intent.paymentIntentId };
  }

  it('cancels once however often it runs, and stops asking once Stripe\'s event is recorded', async () => {
    const { orderId, intentId } = await orderWithIntent(true);
    stack.standIn.setWebhookUrl(`${stack.baseUrl}/api/webhooks/nowhere`); // payment_intent.canceled not recorded yet
    const first = await cancelPaymentIntent({ orderId }, deps, tools);
    const again = await cancelPaymentIntent({ orderId }, deps, tools); // a redelivery before the event came
    expect(first).to.deep.equal({ paymentIntentId: intentId, intentStatus: 'canceled', refused: false });
    expect(again).to.deep.equal(first);
    expect(cancelCalls(intentId).map((c) => [c.idempotencyKey, c.status])).to.deep.equal([[`cancel-intent-${orderId}`, 200], [`cancel-intent-${orderId}`, 200]]);
    expect(await intentAtStripe(intentId)).to.equal('canceled');

    stack.standIn.setWebhookUrl(`${stack.baseUrl}/api/webhooks${PAYMENT_WEBHOOK_PATH}`);
    await stack.standIn.retryWebhooks();
    const event = await until(() => m().PaymentEvent.findOne({ where: { type: 'payment_intent.canceled', paymentIntentId: intentId } }), { what: 'payment_intent.canceled recorded' });
    expect(event.orderId).to.equal(orderId);
    expect(await cancelPaymentIntent({ orderId }, deps, tools)).to.deep.equal({ skipped: 'the payment intent is already cancelled' });
    expect(cancelCalls(intentId)).to.have.length(2);
    expect((await m().Order.findByPk(orderId))!.paymentStatus).to.equal(PaymentStatus.AwaitingPayment);
  });

  it('leaves alone an order not cancelled, one paid meanwhile, and one without an intent (no Stripe call)', async () => {
    const open = await orderWithIntent(false);
    const paid = await orderWithIntent(true);
    await m().Order.update({ paymentStatus: PaymentStatus.RefundPending }, { where: { id: paid.orderId } });
    const noIntent = await placePatientOrder(stack.t.ctx, patient, { accountId: clinic.accountId });
    await m().Order.update({ cancelledAt: new Date(), cancellationReason: 'test' }, { where: { id: noIntent.orderId } });
    const calls = stack.standIn.calls.filter((c) => c.path.endsWith('/cancel')).length;

    expect(await cancelPaymentIntent({ orderId: open.orderId }, deps, tools)).to.deep.equal({ skipped: 'the order is not cancelled' });
    expect(await cancelPaymentIntent({ orderId: paid.orderId }, deps, tools)).to.deep.equal({ skipped: `payment is ${PaymentStatus.RefundPending}` });
    expect(await cancelPaymentIntent({ orderId: noIntent.orderId }, deps, tools)).to.deep.equal({ skipped: 'the order has no payment intent' });
    expect(await cancelPaymentIntent({ orderId: 987_654_321 }, deps, tools)).to.deep.equal({ skipped: 'no such order' });
    expect(stack.standIn.calls.filter((c) => c.path.endsWith('/cancel')).length).to.equal(calls);
    expect(await intentAtStripe(open.intentId)).to.equal('requires_payment_method');
    expect(await intentAtStripe(paid.intentId)).to.equal('requires_payment_method');
  });
});
