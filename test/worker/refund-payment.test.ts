/**
 * The refund-payment job: at-least-once delivery must never refund twice. Run twice for the same
 * cancelled order, it asks Stripe (the stand-in) with the same idempotency key, one refund exists,
 * and the order ends Refunded; an order that is not Refund Pending is left alone.
 */
import { expect } from 'chai';
import { PaymentMethod, PaymentStatus } from '@platform/domain';
import { createMailer } from '@platform/server';
import { refundPayment } from '@platform/worker/processors/refund-payment';
import type { WorkerDeps } from '@platform/worker/processors/types';
import { SUCCEEDING_CARD } from '../../scripts/stripe-stand-in';
import { newSession } from '../support/http';
import { startPaymentStack, type PaymentStack } from '../support/stripe';
import { choosePayment, createPatientClinic, payOnCardPage, placePatientOrder, type PatientClinic } from '../support/fixtures/patient-orders';

describe('refund-payment job', function () {
  this.timeout(30_000);
  let stack: PaymentStack;
  let clinic: PatientClinic;
  let deps: WorkerDeps;

  before(async () => {
    stack = await startPaymentStack();
    clinic = await createPatientClinic(stack.t.ctx, stack.t.app, 'Refund Clinic');
    const { config, db, logger, relay } = stack.t.ctx;
    deps = { config, db, logger, relay, mailer: createMailer(config) };
  });
  after(() => stack?.close());

  async function paidOrder() {
    const patient = await newSession(stack.t.app, '10.69.0.1');
    const order = await placePatientOrder(stack.t.ctx, patient, { accountId: clinic.accountId });
    await choosePayment(patient, order.key, PaymentMethod.SelfPay);
    const intent = (await patient.post('/api/stripe/create-payment-intent', order.key).expect(200)).body;
    await payOnCardPage(intent.checkoutUrl, SUCCEEDING_CARD);
    expect((await stack.t.ctx.db.models.Order.findByPk(order.orderId))!.paymentStatus).to.equal(PaymentStatus.Paid);
    return order;
  }

  it('refunds once however often it runs, and ends Refunded', async () => {
    const order = await paidOrder();
    await stack.t.ctx.db.models.Order.update({ paymentStatus: PaymentStatus.RefundPending, cancelledAt: new Date(), cancellationReason: 'test' }, { where: { id: order.orderId } });
    const tools = { jobRowId: 1, attempt: 1, progress: async () => undefined };
    const first = await refundPayment({ orderId: order.orderId }, deps, tools);
    expect(first).to.include({ refundStatus: 'succeeded', refunded: true });
    // A redelivery after the order moved on does nothing; one that raced before it asks Stripe with the same key.
    expect(await refundPayment({ orderId: order.orderId }, deps, tools)).to.deep.equal({ skipped: `payment is ${PaymentStatus.Refunded}` });
    await stack.t.ctx.db.models.Order.update({ paymentStatus: PaymentStatus.RefundPending }, { where: { id: order.orderId } });
    const again = await refundPayment({ orderId: order.orderId }, deps, tools);
    expect((again as { refundId: string }).refundId).to.equal((first as { refundId: string }).refundId);
    const calls = stack.standIn.calls.filter((c) => c.path === '/v1/refunds');
    expect(calls.map((c) => c.idempotencyKey)).to.deep.equal([`refund-${order.orderId}`, `refund-${order.orderId}`]);
    expect((await stack.t.ctx.db.models.Order.findByPk(order.orderId))!.paymentStatus).to.equal(PaymentStatus.Refunded);
  });

  it('leaves an order that is not Refund Pending alone (no Stripe call)', async () => {
    const order = await paidOrder();
    const before = stack.standIn.calls.length;
    expect(await refundPayment({ orderId: order.orderId }, deps, { jobRowId: 1, attempt: 1, progress: async () => undefined })).to.deep.equal({ skipped: `payment is ${PaymentStatus.Paid}` });
    expect(stack.standIn.calls.length).to.equal(before);
  });
});
