import { expect } from 'chai';
import { ItemKind, SampleStatus, ShipmentStatus } from '@platform/domain';
import type { RunningWorker } from '@platform/worker';
import { buildTestApp, type TestApp } from '../support/http';
import { startTestWorker } from '../support/server';
import { addPatient, createClinic, placeOrder, rowCounts, type PlacedOrder, type TestClinic } from '../support/fixtures/clinic';
import { until } from '../support/wait';

describe('clinic shipments', function () {
  // A real worker renders the requisition forms first.
  this.timeout(60_000);
  let t: TestApp;
  let clinic: TestClinic;
  let other: TestClinic;
  let worker: RunningWorker;
  const orders: PlacedOrder[] = [];
  let foreign: PlacedOrder;

  before(async () => {
    t = await buildTestApp();
    worker = await startTestWorker();
    clinic = await createClinic(t.ctx, t.app, 'Dockside Clinic');
    other = await createClinic(t.ctx, t.app, 'Ridge Clinic');
    const p = await addPatient(clinic);
    for (let i = 0; i < 4; i++) orders.push(await placeOrder(clinic, p.id));
    foreign = await placeOrder(other, (await addPatient(other)).id);
    // Let the requisition forms render, so shipments carry them.
    await until(async () => {
      const n = await t.ctx.db.models.SampleDocument.count({ where: { sampleId: [...orders.map((o) => o.sampleId), foreign.sampleId] } });
      return n === 5 ? n : null;
    }, { what: 'requisition forms' });
  });
  after(async () => {
    await worker.close();
    await t.close();
  });

  const unshipped = (q = '') => clinic.session.agent.get(clinic.api(`samples?unshipped=true${q}`)).expect(200);

  it('lists the unshipped samples of the account with their count in x-total-count', async () => {
    const res = await unshipped();
    expect(res.headers['x-total-count']).to.equal('4');
    expect(res.body.map((s: { sampleId: number }) => s.sampleId)).to.deep.equal(orders.map((o) => o.sampleId).reverse());
    expect(res.body[0]).to.include({ status: SampleStatus.OrderPlaced, requisitionForm: true, shipment: null });
    expect(res.body[0].patient).to.have.keys(['id', 'firstName', 'lastName', 'dateOfBirth']);
    const page = await unshipped('&pageSize=3&page=2');
    expect(page.headers['x-total-count']).to.equal('4');
    expect(page.body).to.have.length(1);
    await clinic.session.agent.get(clinic.api('samples?unshipped=maybe')).expect(400);
  });

  it('creates a shipment: Ready to Ship, a kit and its requisition form per sample, samples Pending Shipment', async () => {
    const chosen = orders.slice(0, 2);
    const res = await clinic.session.post(clinic.api('shipments/create'), { sampleIds: chosen.map((o) => o.sampleId) }).expect(201);
    expect(res.body).to.include({ status: ShipmentStatus.ReadyToShip, documents: 2, carrier: null });
    expect(res.body.externalOrderId).to.equal(`SHP-${String(res.body.id).padStart(8, '0')}`);
    expect(res.body.samples.map((s: { barcode: string; status: string }) => [s.barcode, s.status])).to.have.deep.members(chosen.map((o) => [o.barcode, SampleStatus.PendingShipment]));

    const m = t.ctx.db.models;
    const items = await m.ShipmentItem.findAll({ where: { shipmentId: res.body.id } });
    expect(items.filter((i) => i.kind === ItemKind.Test).map((i) => i.sampleId)).to.have.members(chosen.map((o) => o.sampleId));
    expect(items.filter((i) => i.kind === ItemKind.Document)).to.have.length(2);
    for (const o of chosen) {
      const events = await m.SampleStatusEvent.findAll({ where: { sampleId: o.sampleId }, order: [['id', 'ASC']] });
      expect(events.map((e) => [e.fromStatus, e.toStatus, e.actorKind, e.actorUserId])).to.deep.equal([
        [null, SampleStatus.OrderPlaced, 'provider', clinic.userId],
        [SampleStatus.OrderPlaced, SampleStatus.PendingShipment, 'provider', clinic.userId],
      ]);
    }
    const after = await unshipped();
    expect(after.headers['x-total-count']).to.equal('2');
    expect(after.body.map((s: { sampleId: number }) => s.sampleId)).to.not.include.members(chosen.map((o) => o.sampleId));

    const all = await clinic.session.agent.get(clinic.api('samples')).expect(200);
    expect(all.headers['x-total-count']).to.equal('4');
    expect(all.body.find((s: { sampleId: number }) => s.sampleId === chosen[0].sampleId).shipment).to.deep.equal({ id: res.body.id, externalOrderId: res.body.externalOrderId, status: ShipmentStatus.ReadyToShip });
  });

  it('refuses, all or nothing, a sample already shipped (409 naming its barcode) or of another account (404)', async () => {
    const before = await rowCounts(t.ctx);
    const twice = await clinic.session.post(clinic.api('shipments/create'), { sampleIds: [orders[2].sampleId, orders[0].sampleId] }).expect(409);
    expect(twice.body.error.message).to.match(new RegExp(`^Sample ${orders[0].barcode} \\(in SHP-\\d{8}\\) is already in a shipment$`));
    expect(twice.body.error.message).to.include(orders[0].barcode);
    expect(twice.body.error.message).to.not.include(orders[2].barcode);
    const foreignRes = await clinic.session.post(clinic.api('shipments/create'), { sampleIds: [orders[2].sampleId, foreign.sampleId] }).expect(404);
    expect(foreignRes.body.error.message).to.equal(`Sample ${foreign.sampleId} not found in this account`);
    expect(foreignRes.body.error.message).to.not.include(foreign.barcode);
    await clinic.session.post(clinic.api('shipments/create'), { sampleIds: [] }).expect(400);
    await clinic.session.post(clinic.api('shipments/create'), { sampleIds: [orders[2].sampleId, orders[2].sampleId] }).expect(400);
    await clinic.session.post(clinic.api('shipments/create'), {}).expect(400);
    expect(await rowCounts(t.ctx)).to.deep.equal(before);
    const sample = await t.ctx.db.models.Sample.findByPk(orders[2].sampleId);
    expect(sample!.status).to.equal(SampleStatus.OrderPlaced);
  });

  it('refuses a sample that left the clinic', async () => {
    const m = t.ctx.db.models;
    const s = (await m.Sample.findByPk(orders[0].sampleId))!;
    await t.ctx.db.sequelize.transaction(async (transaction) => {
      const { moveSample, systemCaller } = await import('@platform/server');
      await moveSample(t.ctx.db, transaction, s, { to: SampleStatus.InTransit, by: systemCaller() });
    });
    const res = await clinic.session.post(clinic.api('shipments/create'), { sampleIds: [orders[0].sampleId] }).expect(409);
    expect(res.body.error.message).to.equal(`Sample ${orders[0].barcode} (In Transit) cannot be shipped: only samples in Order Placed or Pending Shipment can`);
  });

  it('lists the shipments of the account, newest first, paginated', async () => {
    await clinic.session.post(clinic.api('shipments/create'), { sampleIds: [orders[3].sampleId] }).expect(201);
    const res = await clinic.session.agent.get(clinic.api('shipments?pageSize=1')).expect(200);
    expect(res.headers['x-total-count']).to.equal('2');
    expect(res.body).to.have.length(1);
    expect(res.body[0].samples.map((s: { barcode: string }) => s.barcode)).to.deep.equal([orders[3].barcode]);
    expect(res.body[0].createdBy).to.match(/^Casey Clinic/);
    const page2 = await clinic.session.agent.get(clinic.api('shipments?pageSize=1&page=2')).expect(200);
    expect(page2.body[0].samples).to.have.length(2);
    const others = await other.session.agent.get(other.api('shipments')).expect(200);
    expect(others.headers['x-total-count']).to.equal('0');
  });
});
