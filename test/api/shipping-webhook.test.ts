import { expect } from 'chai';
import request from 'supertest';
import { SampleStatus, SHIPPING_SIGNATURE_TOLERANCE_SECONDS, ShipmentStatus } from '@platform/domain';
import { signShippingPayload } from '@platform/server';
import { buildTestApp, type TestApp } from '../support/http';
import { addPatient, createClinic, placeOrder, rowCounts, type PlacedOrder, type TestClinic } from '../support/fixtures/clinic';

const SECRET = 'shipping-secret-for-the-webhook-tests';
const ORDERS = '/api/webhooks/shipping-service/orders';
const RATES = '/api/webhooks/shipping-service/get-shipping-rates';

let eventSerial = 0;
const eventId = () => `evt_${Date.now().toString(36)}_${++eventSerial}`;

describe('shipping service webhooks', () => {
  let t: TestApp;
  let clinic: TestClinic;

  before(async () => {
    t = await buildTestApp({ SHIPPING_WEBHOOK_SECRET: SECRET });
    clinic = await createClinic(t.ctx, t.app, 'Shipping Clinic');
  });
  after(() => t.close());

  /** POSTs a body exactly as given, signed (or with the signature header given). */
  function deliver(path: string, body: unknown, signature?: string | null, timestamp?: number) {
    const raw = typeof body === 'string' ? body : JSON.stringify(body);
    const req = request(t.app).post(path).set('Content-Type', 'application/json');
    const header = signature === undefined ? signShippingPayload(SECRET, raw, timestamp) : signature;
    if (header !== null) req.set('x-shipping-signature', header);
    return req.send(raw);
  }

  async function shipmentOf(count: number): Promise<{ externalOrderId: string; id: number; orders: PlacedOrder[]; patientId: number }> {
    const p = await addPatient(clinic);
    const orders: PlacedOrder[] = [];
    for (let i = 0; i < count; i++) orders.push(await placeOrder(clinic, p.id));
    const res = await clinic.session.post(clinic.api('shipments/create'), { sampleIds: orders.map((o) => o.sampleId) }).expect(201);
    return { externalOrderId: res.body.externalOrderId, id: res.body.id, orders, patientId: p.id };
  }

  const statuses = async (orders: PlacedOrder[]) =>
    (await t.ctx.db.models.Sample.findAll({ where: { id: orders.map((o) => o.sampleId) }, order: [['id', 'ASC']] })).map((s) => s.status);

  it('refuses a missing, malformed, wrong or stale signature with 401 and changes nothing', async () => {
    const shipment = await shipmentOf(1);
    const body = { id: eventId(), type: 'order.shipped', data: { externalOrderId: shipment.externalOrderId, carrier: 'UPS', trackingNumber: '1Z999' } };
    const raw = JSON.stringify(body);
    const now = Math.floor(Date.now() / 1000);
    const cases: [string | null, string][] = [
      [null, 'The request has no x-shipping-signature header'],
      ['nonsense', 'The x-shipping-signature header is malformed'],
      [`t=${now}`, 'The x-shipping-signature header is malformed'],
      [signShippingPayload('not-the-shared-secret', raw, now), 'The signature does not match the request body'],
      [signShippingPayload(SECRET, raw.replace('UPS', 'FedEx'), now), 'The signature does not match the request body'],
      [signShippingPayload(SECRET, raw, now - SHIPPING_SIGNATURE_TOLERANCE_SECONDS - 60), 'The signature timestamp is more than 5 minutes away from now'],
      [signShippingPayload(SECRET, raw, now + SHIPPING_SIGNATURE_TOLERANCE_SECONDS + 60), 'The signature timestamp is more than 5 minutes away from now'],
      // A valid signature moved to another timestamp no longer matches.
      [signShippingPayload(SECRET, raw, now - 10).replace(`t=${now - 10}`, `t=${now}`), 'The signature does not match the request body'],
    ];
    const before = await rowCounts(t.ctx);
    for (const [header, message] of cases) {
      const res = await deliver(ORDERS, raw, header).expect(401);
      expect(res.body.error, String(header)).to.deep.equal({ code: 'bad_signature', message });
    }
    expect(await rowCounts(t.ctx)).to.deep.equal(before);
    expect(await statuses(shipment.orders)).to.deep.equal([SampleStatus.PendingShipment]);
    expect(await t.ctx.db.models.WebhookEvent.count({ where: { eventId: body.id } })).to.equal(0);
    // Sanity: the same body, rightly signed, is accepted.
    await deliver(ORDERS, raw).expect(200);
  });

  it('refuses a malformed body (400) and an unknown shipment (404), recording no event', async () => {
    const notJson = await deliver(ORDERS, '{"id": "x", ').expect(400);
    expect(notJson.body.error.code).to.equal('malformed_json');
    const id = eventId();
    const wrongType = await deliver(ORDERS, { id, type: 'order.lost', data: { externalOrderId: 'SHP-1' } }).expect(400);
    expect(wrongType.body.error.fields[0].field).to.equal('type');
    const noOrder = await deliver(ORDERS, { id, type: 'order.shipped', data: {} }).expect(400);
    expect(noOrder.body.error.fields[0].field).to.equal('data.externalOrderId');
    const badDate = await deliver(ORDERS, { id, type: 'order.shipped', data: { externalOrderId: 'SHP-1', shippedAt: 'yesterday' } }).expect(400);
    expect(badDate.body.error.fields[0].field).to.equal('data.shippedAt');
    const unknown = await deliver(ORDERS, { id, type: 'order.shipped', data: { externalOrderId: 'SHP-NOPE' } }).expect(404);
    expect(unknown.body.error).to.deep.equal({ code: 'not_found', message: 'No shipment SHP-NOPE' });
    await deliver(RATES, { id, type: 'get-shipping-rates', data: { externalOrderId: 'SHP-NOPE' } }).expect(404);
    expect(await t.ctx.db.models.WebhookEvent.count({ where: { eventId: id } })).to.equal(0);
  });

  it('answers the rates quoted for a shipment (none before a quote) and stores the selected one; a replay changes nothing', async () => {
    const shipment = await shipmentOf(3);
    const none = await deliver(RATES, { id: eventId(), type: 'get-shipping-rates', data: { externalOrderId: shipment.externalOrderId } }).expect(200);
    expect(none.body).to.deep.equal({ received: true, externalOrderId: shipment.externalOrderId, rates: [] });
    expect((await t.ctx.db.models.Shipment.findByPk(shipment.id))!.rateCents).to.equal(null);

    // The rates the shipping service quoted when the clinic asked (shipping-labels.test.ts asks through the stand-in).
    for (const [rateId, service, cents, days] of [['se-1', 'UPS® Ground', 1_450, 4], ['se-2', 'UPS 2nd Day Air®', 2_835, 2], ['se-3', 'UPS Next Day Air®', 5_400, 1]] as const) {
      await t.ctx.db.sequelize.query(
        `INSERT INTO shipment_rates (shipment_id, rate_id, carrier, service_code, service, amount_cents, business_days)
         VALUES (:shipmentId, :rateId, 'UPS', :rateId, :service, :cents, :days)`,
        { replacements: { shipmentId: shipment.id, rateId, service, cents, days } },
      );
    }
    const id = eventId();
    const res = await deliver(RATES, { id, type: 'get-shipping-rates', data: { externalOrderId: shipment.externalOrderId } }).expect(200);
    expect(res.body.received).to.equal(true);
    expect(res.body.rates.map((r: { rateId: string; allowed: boolean }) => [r.rateId, r.allowed])).to.deep.equal([['se-1', false], ['se-2', true], ['se-3', true]]);
    const selected = res.body.rates.filter((r: { selected: boolean }) => r.selected);
    expect(selected).to.have.length(1);
    // The cheapest service that reaches the lab within two business days.
    expect(selected[0]).to.include({ rateId: 'se-2', label: 'UPS 2nd Day Air®', amountCents: 2_835, currency: 'USD' });
    expect((await t.ctx.db.models.Shipment.findByPk(shipment.id))!.rateCents).to.equal(2_835);

    await t.ctx.db.models.Shipment.update({ rateCents: 1 }, { where: { id: shipment.id } });
    const replay = await deliver(RATES, { id, type: 'get-shipping-rates', data: { externalOrderId: shipment.externalOrderId } }).expect(200);
    expect(replay.body).to.include({ received: true, duplicate: true });
    expect((await t.ctx.db.models.Shipment.findByPk(shipment.id))!.rateCents).to.equal(1);
  });

  it('applies order.shipped: shipment Shipped with carrier and tracking, its samples In Transit on their timeline', async () => {
    const shipment = await shipmentOf(2);
    const shippedAt = new Date().toISOString();
    const body = { id: eventId(), type: 'order.shipped', data: { externalOrderId: shipment.externalOrderId, carrier: 'UPS', trackingNumber: '1Z12345E0205271688', shippedAt } };
    const res = await deliver(ORDERS, body).expect(200);
    expect(res.body).to.deep.equal({
      received: true,
      shipment: { externalOrderId: shipment.externalOrderId, status: ShipmentStatus.Shipped },
      samplesInTransit: shipment.orders.map((o) => o.barcode),
    });
    const row = (await t.ctx.db.models.Shipment.findByPk(shipment.id))!;
    expect(row).to.include({ status: ShipmentStatus.Shipped, carrier: 'UPS', trackingNumber: '1Z12345E0205271688' });
    expect(row.shippedAt!.toISOString()).to.equal(shippedAt);
    expect(await statuses(shipment.orders)).to.deep.equal([SampleStatus.InTransit, SampleStatus.InTransit]);

    // The patient page's timeline shows it, by the system, at the shipping time.
    const detail = (await clinic.session.agent.get(clinic.api(`patient/${shipment.patientId}`)).expect(200)).body;
    const sample = detail.samples.find((s: { id: number }) => s.id === shipment.orders[0].sampleId);
    expect(sample.status).to.equal(SampleStatus.InTransit);
    expect(sample.timeline.map((e: { to: string }) => e.to)).to.deep.equal([SampleStatus.OrderPlaced, SampleStatus.PendingShipment, SampleStatus.InTransit]);
    expect(sample.timeline[2]).to.deep.include({ from: SampleStatus.PendingShipment, actor: { kind: 'system', name: 'System' }, at: shippedAt });

    // The shipments list shows it too.
    const list = (await clinic.session.agent.get(clinic.api('shipments')).expect(200)).body;
    expect(list.find((s: { id: number }) => s.id === shipment.id)).to.include({ status: ShipmentStatus.Shipped, carrier: 'UPS' });

    // A replayed event (same id) is acknowledged once more and applied once only.
    const eventsBefore = await t.ctx.db.models.SampleStatusEvent.count({ where: { sampleId: shipment.orders.map((o) => o.sampleId) } });
    const replay = await deliver(ORDERS, body).expect(200);
    expect(replay.body).to.deep.equal({ received: true, duplicate: true });
    expect(await t.ctx.db.models.SampleStatusEvent.count({ where: { sampleId: shipment.orders.map((o) => o.sampleId) } })).to.equal(eventsBefore);
  });

  it('applies an event delivered twice at the same moment exactly once', async () => {
    const shipment = await shipmentOf(1);
    const body = { id: eventId(), type: 'order.shipped', data: { externalOrderId: shipment.externalOrderId, carrier: 'FedEx', trackingNumber: '7700' } };
    const answers = await Promise.all([deliver(ORDERS, body), deliver(ORDERS, body), deliver(ORDERS, body)]);
    expect(answers.map((a) => a.status)).to.deep.equal([200, 200, 200]);
    expect(answers.filter((a) => a.body.duplicate === true)).to.have.length(2);
    const events = await t.ctx.db.models.SampleStatusEvent.findAll({ where: { sampleId: shipment.orders[0].sampleId, toStatus: SampleStatus.InTransit } });
    expect(events).to.have.length(1);
  });

  it('puts a shipment on hold and cancels it; a cancelled shipment cannot ship, a shipped one cannot be cancelled', async () => {
    const held = await shipmentOf(1);
    const hold = await deliver(ORDERS, { id: eventId(), type: 'order.on_hold', data: { externalOrderId: held.externalOrderId } }).expect(200);
    expect(hold.body.shipment.status).to.equal(ShipmentStatus.OnHold);
    const cancel = await deliver(ORDERS, { id: eventId(), type: 'order.cancelled', data: { externalOrderId: held.externalOrderId } }).expect(200);
    expect(cancel.body.shipment.status).to.equal(ShipmentStatus.Cancelled);
    expect(await statuses(held.orders)).to.deep.equal([SampleStatus.PendingShipment]);
    const ship = await deliver(ORDERS, { id: eventId(), type: 'order.shipped', data: { externalOrderId: held.externalOrderId } }).expect(409);
    expect(ship.body.error.message).to.equal(`Shipment ${held.externalOrderId} is Cancelled; it cannot become Shipped`);
    expect(await statuses(held.orders)).to.deep.equal([SampleStatus.PendingShipment]);
    // The kit of a cancelled shipment is at the clinic again: it can go in a new shipment.
    const unshipped = (await clinic.session.agent.get(clinic.api('samples?unshipped=true&pageSize=200')).expect(200)).body;
    expect(unshipped.map((s: { sampleId: number }) => s.sampleId)).to.include(held.orders[0].sampleId);
    const again = await clinic.session.post(clinic.api('shipments/create'), { sampleIds: [held.orders[0].sampleId] }).expect(201);
    expect(again.body.status).to.equal(ShipmentStatus.ReadyToShip);

    const shipped = await shipmentOf(1);
    await deliver(ORDERS, { id: eventId(), type: 'order.shipped', data: { externalOrderId: shipped.externalOrderId } }).expect(200);
    const late = await deliver(ORDERS, { id: eventId(), type: 'order.cancelled', data: { externalOrderId: shipped.externalOrderId } }).expect(409);
    expect(late.body.error.code).to.equal('conflict');
    expect((await t.ctx.db.models.Shipment.findByPk(shipped.id))!.status).to.equal(ShipmentStatus.Shipped);
    // A second "shipped" under another event id is acknowledged and changes nothing.
    const second = await deliver(ORDERS, { id: eventId(), type: 'order.shipped', data: { externalOrderId: shipped.externalOrderId, carrier: 'DHL' } }).expect(200);
    expect(second.body.shipment.status).to.equal(ShipmentStatus.Shipped);
    expect((await t.ctx.db.models.Shipment.findByPk(shipped.id))!.carrier).to.equal(null);
  });
});
