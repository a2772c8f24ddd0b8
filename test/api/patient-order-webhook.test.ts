/**
 * The payment provider's webhook: Stripe's signature scheme checked with stripe-node's own
 * constructEvent on the raw body, each event id applied once, and payment statuses that never move
 * backwards when events arrive late, replayed or out of order.
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import request from 'supertest';
import { PAYMENT_WEBHOOK_PATH, PaymentMethod, PaymentStatus } from '@platform/domain';
import { signPaymentEvent } from '@platform/server';
import { newSession, type Session } from '../support/http';
import { startPaymentStack, type PaymentStack } from '../support/stripe';
import { choosePayment, createPatientClinic, placePatientOrder, type PatientClinic, type PlacedPatientOrder } from '../support/fixtures/patient-orders';

const URL_PATH = `/api/webhooks${PAYMENT_WEBHOOK_PATH}`;

describe('payment-provider webhook', function () {
  this.timeout(30_000);
  let stack: PaymentStack;
  let clinic: PatientClinic;
  let patient: Session;

  before(async () => {
    stack = await startPaymentStack();
    clinic = await createPatientClinic(stack.t.ctx, stack.t.app, 'Webhook Clinic');
    patient = await newSession(stack.t.app, '10.67.0.1');
  });
  after(() => stack?.close());

  const m = () => stack.t.ctx.db.models;

  /** A self-pay order with its payment intent created on the stand-in. */
  async function orderWithIntent(): Promise<PlacedPatientOrder & { intentId: string }> {
    const order = await placePatientOrder(stack.t.ctx, patient, { accountId: clinic.accountId });
    await choosePayment(patient, order.key, PaymentMethod.SelfPay);
    const intent = (await patient.post('/api/stripe/create-payment-intent', order.key).expect(200)).body;
    return { ...order, intentId: intent.paymentIntentId };
  }

  const event = (type: string, intentId: string, id = `evt_${randomBytes(10).toString('hex')}`) => ({
    id, object: 'event', type, created: Math.floor(Date.now() / 1000), livemode: false,
    data: { object: type.startsWith('charge.') ? { id: 'ch_test', object: 'charge', payment_intent: intentId } : { id: intentId, object: 'payment_intent', amount: 500_00 } },
  });

  function deliver(body: unknown, signature?: string | null) {
    const raw = JSON.stringify(body);
    const req = request(stack.t.app).post(URL_PATH).set('Content-Type', 'application/json');
    const header = signature === undefined ? signPaymentEvent(stack.webhookSecret, raw) : signature;
    if (header !== null) req.set('Stripe-Signature', header);
    return req.send(raw);
  }

  const statusOf = async (orderId: number) => (await m().Order.findByPk(orderId))!.paymentStatus;

  it('refuses a forged, missing, stale, future or tampered signature with 400 and changes nothing', async () => {
    const order = await orderWithIntent();
    const body = event('payment_intent.succeeded', order.intentId);
    const raw = JSON.stringify(body);
    const eventsBefore = await m().PaymentEvent.count();
    const cases: [string | null, string][] = [
      [null, 'The request has no Stripe-Signature header'],
      [signPaymentEvent('whsec_notthesecret', raw), 'The Stripe-Signature does not verify for this body'],
      [signPaymentEvent(stack.webhookSecret, raw, Math.floor(Date.now() / 1000) - 600), 'The Stripe-Signature does not verify for this body'],
      // Stamped ten minutes ahead (stripe-node's own check accepts it): made in advance, refused.
      [signPaymentEvent(stack.webhookSecret, raw, Math.floor(Date.now() / 1000) + 600), 'The Stripe-Signature does not verify for this body'],
      [signPaymentEvent(stack.webhookSecret, raw.replace('500', '1')), 'The Stripe-Signature does not verify for this body'],
      ['t=1,v1=abc', 'The Stripe-Signature does not verify for this body'],
    ];
    for (const [header, message] of cases) {
      const res = await deliver(body, header).expect(400);
      expect(res.body.error, String(header)).to.deep.equal({ code: 'bad_signature', message });
    }
    expect(await m().PaymentEvent.count()).to.equal(eventsBefore);
    expect(await statusOf(order.orderId)).to.equal(PaymentStatus.AwaitingPayment);
    expect(await m().Sample.count({ where: { orderId: order.orderId } })).to.equal(0);
  });

  it('applies a replayed event once', async () => {
    const order = await orderWithIntent();
    const body = event('payment_intent.succeeded', order.intentId);
    expect((await deliver(body).expect(200)).body).to.deep.equal({ received: true, applied: true });
    expect((await deliver(body).expect(200)).body).to.deep.equal({ received: true, duplicate: true });
    expect(await statusOf(order.orderId)).to.equal(PaymentStatus.Paid);
    expect(await m().Sample.count({ where: { orderId: order.orderId } })).to.equal(1);
    expect(await m().Email.count({ where: { toAddress: order.patient.email } })).to.equal(1);
    const recorded = await m().PaymentEvent.findByPk(body.id);
    expect(recorded).to.deep.include({ type: 'payment_intent.succeeded', paymentIntentId: order.intentId, orderId: order.orderId });
  });

  it('leaves an order Paid when a payment_failed arrives after (or is delivered after) the success', async () => {
    const order = await orderWithIntent();
    const failedFirst = event('payment_intent.payment_failed', order.intentId);
    const succeeded = event('payment_intent.succeeded', order.intentId);
    const lateFailure = event('payment_intent.payment_failed', order.intentId);
    await deliver(failedFirst).expect(200);
    expect(await statusOf(order.orderId)).to.equal(PaymentStatus.PaymentFailed);
    await deliver(succeeded).expect(200);
    expect((await deliver(lateFailure).expect(200)).body).to.deep.equal({ received: true, applied: false });
    expect(await statusOf(order.orderId)).to.equal(PaymentStatus.Paid);
    // A refund event for an order that was never refunded changes nothing either.
    expect((await deliver(event('charge.refunded', order.intentId)).expect(200)).body).to.deep.equal({ received: true, applied: false });
    expect(await statusOf(order.orderId)).to.equal(PaymentStatus.Paid);
    expect(await m().Sample.count({ where: { orderId: order.orderId } })).to.equal(1);
  });

  it('records an event for an intent it does not know and answers 200', async () => {
    const body = event('payment_intent.succeeded', 'pi_unknown_to_us');
    expect((await deliver(body).expect(200)).body).to.deep.equal({ received: true, applied: false });
    expect(await m().PaymentEvent.findByPk(body.id)).to.deep.include({ orderId: null, paymentIntentId: 'pi_unknown_to_us' });
  });

  it('is not behind CSRF or sessions (a signed request from the provider needs neither)', async () => {
    const order = await orderWithIntent();
    const res = await deliver(event('payment_intent.payment_failed', order.intentId)).expect(200);
    expect(res.headers['set-cookie']).to.equal(undefined);
  });
});
