/**
 * A kit shipment's carrier label, end to end through the local shipping stand-in: rates from the
 * shipping service for the account's shipping address to the lab, a label bought (its PDF, its
 * tracking number and link), the service's signed webhooks moving the shipment and its samples
 * (Shipped, In Transit, delivered at the lab), a replayed or forged webhook, a patient's kit
 * addressed from the lab to the patient, and every id checked against the caller's account.
 */
import { expect } from 'chai';
import request from 'supertest';
import { SampleStatus, ShipmentStatus, SHIPPING_SIGNATURE_HEADER, TrackingStatus, ItemKind, type PostalAddress } from '@platform/domain';
import { saveAccountAddress, signShippingPayload } from '@platform/server';
import { startShippingStack, type ShippingStack } from '../support/shipping';
import { addPatient, binaryParser, createClinic, pdfText, placeOrder, type PlacedOrder, type TestClinic } from '../support/fixtures/clinic';

const CLINIC_ADDRESS: PostalAddress = { addressLine1: '400 Harbor Way', addressLine2: 'Suite 12', city: 'Oakland', state: 'CA', postalCode: '94607', country: 'US' };

describe('shipping labels (through the shipping stand-in)', function () {
  this.timeout(60_000);
  let stack: ShippingStack;
  let clinic: TestClinic;
  let other: TestClinic;

  before(async () => {
    stack = await startShippingStack();
    clinic = await createClinic(stack.t.ctx, stack.t.app, 'Label Clinic');
    other = await createClinic(stack.t.ctx, stack.t.app, 'Other Label Clinic');
    for (const c of [clinic, other]) {
      await stack.t.ctx.db.sequelize.transaction((transaction) => saveAccountAddress(stack.t.ctx.db, transaction, c.accountId, 'shipping', CLINIC_ADDRESS));
    }
  });
  after(() => stack?.close());

  const m = () => stack.t.ctx.db.models;

  async function shipmentOf(c: TestClinic, kits: number): Promise<{ id: number; externalOrderId: string; orders: PlacedOrder[]; patientId: number }> {
    const p = await addPatient(c);
    const orders: PlacedOrder[] = [];
    for (let i = 0; i < kits; i++) orders.push(await placeOrder(c, p.id));
    const res = await c.session.post(c.api('shipments/create'), { sampleIds: orders.map((o) => o.sampleId) }).expect(201);
    return { id: res.body.id, externalOrderId: res.body.externalOrderId, orders, patientId: p.id };
  }

  const statuses = async (orders: PlacedOrder[]) => (await m().Sample.findAll({ where: { id: orders.map((o) => o.sampleId) }, order: [['id', 'ASC']] })).map((s) => s.status);
  const shipmentRow = async (c: TestClinic, id: number) => ((await c.session.agent.get(c.api('shipments?pageSize=200')).expect(200)).body as { id: number }[]).find((s) => s.id === id) as Record<string, any>;
  const labelCalls = () => stack.standIn.calls.filter((c) => c.path.startsWith('/v2/labels')).length;

  async function buyLabel(c: TestClinic, shipmentId: number): Promise<Record<string, any>> {
    const rates = (await c.session.post(c.api(`shipments/${shipmentId}/rates`)).expect(200)).body;
    const chosen = rates.rates.find((r: { selected: boolean }) => r.selected);
    const bought = (await c.session.post(c.api(`shipments/${shipmentId}/purchase-label`), { rateId: chosen.rateId }).expect(200)).body;
    await stack.standIn.settled();
    return bought;
  }

  it('quotes rates for the clinic\'s address to the lab, refuses a slow or unquoted rate, buys a label (PDF, tracking) and follows the parcel to the lab', async () => {
    const shipment = await shipmentOf(clinic, 2);
    const quote = (await clinic.session.post(clinic.api(`shipments/${shipment.id}/rates`)).expect(200)).body;
    expect(quote.shipFrom).to.equal('400 Harbor Way, Suite 12, Oakland, CA 94607, US');
    expect(quote.shipTo).to.equal('123 Example Street, Testville, ZZ 00000, US');
    expect(quote.rates.map((r: Record<string, unknown>) => [r.label, r.businessDays, r.allowed, r.selected])).to.deep.equal([
      ['UPS® Ground', 4, false, false],
      ['UPS 2nd Day Air®', 2, true, true],
      ['UPS Next Day Air®', 1, true, false],
    ]);
    expect(quote.rates.every((r: { currency: string; carrier: string }) => r.currency === 'USD' && r.carrier === 'UPS')).to.equal(true);

    // Ground takes four business days: refused, naming the field, and nothing is bought.
    const ground = quote.rates[0];
    const slow = await clinic.session.post(clinic.api(`shipments/${shipment.id}/purchase-label`), { rateId: ground.rateId }).expect(422);
    expect(slow.body.error.fields).to.deep.equal([{ field: 'rateId', message: 'UPS UPS® Ground takes 4 business days: specimens must reach the lab within 2 business days' }]);
    const unquoted = await clinic.session.post(clinic.api(`shipments/${shipment.id}/purchase-label`), { rateId: 'se-not-quoted' }).expect(422);
    expect(unquoted.body.error.fields[0]).to.deep.equal({ field: 'rateId', message: 'Rate is not one quoted for this shipment: ask for rates again' });
    const malformed = await clinic.session.post(clinic.api(`shipments/${shipment.id}/purchase-label`), { rateId: 'x y' }).expect(400);
    expect(malformed.body.error.fields[0].field).to.equal('rateId');
    expect(labelCalls()).to.equal(0);

    const twoDay = quote.rates[1];
    const bought = (await clinic.session.post(clinic.api(`shipments/${shipment.id}/purchase-label`), { rateId: twoDay.rateId }).expect(200)).body;
    const label = stack.standIn.labels.at(-1)!;
    expect(bought).to.deep.include({ carrierLabel: true, labelPurchasable: false, service: 'UPS 2nd Day Air®', rateCents: twoDay.amountCents });
    expect(bought.tracking).to.deep.include({ carrier: 'UPS', trackingNumber: label.trackingNumber, toPatient: false });
    expect(bought.tracking.trackingUrl).to.equal(`https://www.ups.com/track?tracknum=${label.trackingNumber}`);
    // The same shipment cannot get a second label.
    const again = await clinic.session.post(clinic.api(`shipments/${shipment.id}/purchase-label`), { rateId: quote.rates[2].rateId }).expect(409);
    expect(again.body.error.message).to.equal(`Shipment ${shipment.externalOrderId} already has a label (tracking ${label.trackingNumber})`);

    // The label: a PDF from the clinic to the lab with the tracking number.
    const pdf = await clinic.session.agent.get(clinic.api(`shipments/${shipment.id}/carrier-label`)).buffer(true).parse(binaryParser).expect(200).expect('Content-Type', 'application/pdf');
    const text = pdfText(pdf.body as Buffer);
    expect(text).to.include(`TRACKING #: ${label.trackingNumber}`);
    expect(text).to.include(`${clinic.name} 400 Harbor Way Suite 12 Oakland, CA 94607`);
    expect(text).to.include('Development Laboratory (not for clinical use) 123 Example Street Testville, ZZ 00000');

    // The service's order.shipped (sent as the label was made): Shipped, the kits In Transit.
    await stack.standIn.settled();
    expect(stack.standIn.deliveries.filter((d) => d.type === 'order.shipped').at(-1)!.status).to.equal(200);
    expect((await shipmentRow(clinic, shipment.id)).status).to.equal(ShipmentStatus.Shipped);
    expect(await statuses(shipment.orders)).to.deep.equal([SampleStatus.InTransit, SampleStatus.InTransit]);

    // The carrier's scans: accepted, in transit, delivered at the lab.
    for (const expected of [TrackingStatus.Accepted, TrackingStatus.InTransit, TrackingStatus.Delivered]) {
      const delivery = await stack.standIn.advance(label.trackingNumber);
      expect(delivery.status, delivery.body).to.equal(200);
      expect((await shipmentRow(clinic, shipment.id)).tracking.trackingStatus).to.equal(expected);
    }
    const row = await shipmentRow(clinic, shipment.id);
    expect(row.status).to.equal(ShipmentStatus.Shipped);
    expect(row.tracking.deliveredAt).to.be.a('string');
    expect(row.trackingEvents.map((e: { statusCode: string }) => e.statusCode)).to.deep.equal(['AC', 'IT', 'DE']);
    expect(row.trackingEvents[1]).to.include({ description: 'Departed from facility', location: 'Louisville, KY' });
    // Delivered at the lab is the carrier's word: the kits stay In Transit until intake receives them.
    expect(await statuses(shipment.orders)).to.deep.equal([SampleStatus.InTransit, SampleStatus.InTransit]);

    // The sample's card on the patient page carries the tracking.
    const detail = (await clinic.session.agent.get(clinic.api(`patient/${shipment.patientId}`)).expect(200)).body;
    const sample = detail.samples.find((s: { id: number }) => s.id === shipment.orders[0].sampleId);
    expect(sample.shipment).to.deep.include({ carrier: 'UPS', trackingNumber: label.trackingNumber, trackingStatus: 'DE', toPatient: false, deliveredAt: row.tracking.deliveredAt });

    // Audited: the purchase (with what changed) and the download.
    const audits = await m().AuditEvent.findAll({ where: { entityKind: 'shipment', entityId: String(shipment.id) }, order: [['id', 'ASC']] });
    const actions = audits.map((a) => a.action);
    expect(actions).to.include.members(['shipment.rates_quoted', 'shipment.label_purchased', 'shipment.label_downloaded', 'shipment.status_changed', 'shipment.tracking_updated']);
    const purchase = audits.find((a) => a.action === 'shipment.label_purchased')!;
    expect((purchase.details as Record<string, any>).new).to.include({ carrier: 'UPS', trackingNumber: label.trackingNumber });
  });

  it('applies a replayed tracking webhook once, and refuses a wrongly signed one with 401, changing nothing', async () => {
    const shipment = await shipmentOf(clinic, 1);
    await buyLabel(clinic, shipment.id);
    const accepted = await stack.standIn.advance();
    expect(accepted.status).to.equal(200);
    const eventsOf = () => stack.t.ctx.db.sequelize.query<{ n: number }>('SELECT count(*)::int AS n FROM shipment_tracking_events WHERE shipment_id = :id', {
      replacements: { id: shipment.id }, type: 'SELECT' as never,
    });
    expect((await eventsOf())[0].n).to.equal(1);

    // The service retries the same event: acknowledged as a duplicate, applied once.
    const replay = await stack.standIn.redeliver(accepted.eventId);
    expect(replay.status).to.equal(200);
    expect((await eventsOf())[0].n).to.equal(1);

    // A "delivered" signed with another secret: 401, and the parcel is still only accepted.
    const forged = JSON.stringify({ id: 'evt-forged-1', type: 'order.tracking', data: { externalOrderId: shipment.externalOrderId, statusCode: 'DE', occurredAt: new Date().toISOString() } });
    const refused = await request(stack.t.app).post('/api/webhooks/shipping-service/orders').set('Content-Type', 'application/json')
      .set(SHIPPING_SIGNATURE_HEADER, signShippingPayload('not-the-shared-secret-at-all', forged)).send(forged).expect(401);
    expect(refused.body.error).to.deep.equal({ code: 'bad_signature', message: 'The signature does not match the request body' });
    expect((await eventsOf())[0].n).to.equal(1);
    const row = await shipmentRow(clinic, shipment.id);
    expect(row.tracking).to.include({ trackingStatus: TrackingStatus.Accepted, deliveredAt: null });
    expect(await m().WebhookEvent.count({ where: { eventId: 'evt-forged-1' } })).to.equal(0);

    // A tracking event must say where the parcel is and when.
    const incomplete = JSON.stringify({ id: 'evt-incomplete-1', type: 'order.tracking', data: { externalOrderId: shipment.externalOrderId } });
    const bad = await request(stack.t.app).post('/api/webhooks/shipping-service/orders').set('Content-Type', 'application/json')
      .set(SHIPPING_SIGNATURE_HEADER, signShippingPayload(stack.webhookSecret, incomplete)).send(incomplete).expect(400);
    expect(bad.body.error.fields.map((f: { field: string }) => f.field)).to.deep.equal(['data.statusCode', 'data.occurredAt']);
  });

  it('scopes rates, purchases and label downloads to the caller\'s account', async () => {
    const shipment = await shipmentOf(clinic, 1);
    const quote = (await clinic.session.post(clinic.api(`shipments/${shipment.id}/rates`)).expect(200)).body;
    const callsBefore = stack.standIn.calls.length;
    // Another clinic names this shipment under its own account: not found, and the service is not asked.
    await other.session.post(other.api(`shipments/${shipment.id}/rates`)).expect(404);
    const foreign = await other.session.post(other.api(`shipments/${shipment.id}/purchase-label`), { rateId: quote.rates[1].rateId }).expect(404);
    expect(foreign.body.error.message).to.equal('Shipment not found');
    // ...or under this clinic's account, which it has no access to (not found either: it learns nothing).
    await other.session.post(clinic.api(`shipments/${shipment.id}/purchase-label`), { rateId: quote.rates[1].rateId }).expect(404);
    expect(stack.standIn.calls.length).to.equal(callsBefore);

    await clinic.session.post(clinic.api(`shipments/${shipment.id}/purchase-label`), { rateId: quote.rates[1].rateId }).expect(200);
    await stack.standIn.settled();
    await other.session.agent.get(other.api(`shipments/${shipment.id}/carrier-label`)).expect(404);
    await other.session.agent.get(clinic.api(`shipments/${shipment.id}/carrier-label`)).expect(404);
    // Nobody signed in: refused before anything is read.
    await request(stack.t.app).get(clinic.api(`shipments/${shipment.id}/carrier-label`)).expect(401);
  });

  it('refuses rates to an account with no shipping address, and to a shipment that is not Ready to Ship', async () => {
    const bare = await createClinic(stack.t.ctx, stack.t.app, 'No Address Clinic');
    const shipment = await shipmentOf(bare, 1);
    const noAddress = await bare.session.post(bare.api(`shipments/${shipment.id}/rates`)).expect(422);
    expect(noAddress.body.error).to.deep.include({ code: 'no_shipping_address', message: 'The account has no shipping address yet: the lab\'s administrator adds it on the account\'s page' });

    const unpaid = await shipmentOf(clinic, 1);
    await m().Shipment.update({ status: ShipmentStatus.NotReadyToShip }, { where: { id: unpaid.id } });
    const refused = await clinic.session.post(clinic.api(`shipments/${unpaid.id}/rates`)).expect(409);
    expect(refused.body.error.message).to.equal(`Shipment ${unpaid.externalOrderId} is Not Ready to Ship: a label is bought for a shipment that is Ready to Ship`);
  });

  it('addresses a patient\'s kit from the lab to the patient, any service allowed, and says when it reached them', async () => {
    const p = await addPatient(clinic);
    const order = await placeOrder(clinic, p.id);
    await m().Patient.update({ addressLine1: '77 Elm Street', city: 'Reno', state: 'NV', postalCode: '89501', country: 'US', phone: '555-010-4411' }, { where: { id: p.id } });
    // A patient's own order's kit shipment, as patient-orders writes it (server/src/patient-orders/moving-on.ts).
    const kit = await m().Shipment.create({ accountId: clinic.accountId, patientId: p.id, status: ShipmentStatus.ReadyToShip, createdByUserId: null });
    await kit.update({ externalOrderId: `SHP-${String(kit.id).padStart(8, '0')}` });
    await m().ShipmentItem.create({ shipmentId: kit.id, kind: ItemKind.Test, sampleId: order.sampleId, documentId: null });

    const quote = (await clinic.session.post(clinic.api(`shipments/${kit.id}/rates`)).expect(200)).body;
    expect(quote.shipFrom).to.equal('123 Example Street, Testville, ZZ 00000, US');
    expect(quote.shipTo).to.equal('77 Elm Street, Reno, NV 89501, US');
    expect(quote.rates.map((r: { allowed: boolean }) => r.allowed)).to.deep.equal([true, true, true]);
    expect(quote.rates[0].selected).to.equal(true);
    await clinic.session.post(clinic.api(`shipments/${kit.id}/purchase-label`), { rateId: quote.rates[0].rateId }).expect(200);
    await stack.standIn.settled();
    const pdf = await clinic.session.agent.get(clinic.api(`shipments/${kit.id}/carrier-label`)).buffer(true).parse(binaryParser).expect(200);
    expect(pdfText(pdf.body as Buffer)).to.include(`${p.firstName} ${p.lastName} 77 Elm Street Reno, NV 89501`);
    // Shipped to the patient: the kit is with them, waiting to come back.
    expect(await statuses([order])).to.deep.equal([SampleStatus.PendingShipment]);
    for (let i = 0; i < 3; i++) expect((await stack.standIn.advance()).status).to.equal(200);
    const detail = (await clinic.session.agent.get(clinic.api(`patient/${p.id}`)).expect(200)).body;
    expect(detail.samples[0].shipment).to.include({ trackingStatus: 'DE', toPatient: true });
  });
});
