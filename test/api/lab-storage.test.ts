/**
 * Storage plates on the real API: a plate per name, scans into wells (a well holds one thing, a
 * sample is in one place, also when two requests race), controls and re-extractions, samples In
 * Storage and back through the lifecycle with their timeline, discarding only Completed samples,
 * finding a sample, the plate file import (row errors by row number, all or nothing), lab users only.
 */
import { expect } from 'chai';
import request from 'supertest';
import { buildTestApp, signIn, type Session, type TestApp } from '../support/http';
import { freshBarcode, makeSample, SampleStatus, statusOf, timeline, userId } from '../support/fixtures/lab';
import { csvFile, freshPlateName, makeCompletedSample, xlsxFile } from '../support/fixtures/storage';

const API = '/api/lab-toolbox/storage';
const IMPORT = '/api/lab-toolbox/import-samples-storage-plates';

describe('lab toolbox: storage plates', function () {
  this.timeout(60_000);
  let t: TestApp;
  let lab1: Session;
  let lab2: Session;

  before(async () => {
    t = await buildTestApp();
    lab1 = await signIn(t.app, 'lab1', 'lab');
    lab2 = await signIn(t.app, 'lab2', 'lab', '10.9.0.2');
  });
  after(() => t.close());

  async function newPlate(session = lab1): Promise<{ id: number; name: string }> {
    const name = freshPlateName();
    const res = await session.post(`${API}/plates`, { name }).expect(201);
    return { id: res.body.id, name };
  }
  const place = (plateId: number, well: string, sampleId: string, session = lab1) => session.post(`${API}/plates/${plateId}/wells`, { well, sampleId });
  const currentWells = (where: Record<string, unknown>) => t.ctx.db.models.StoragePlateWell.findAll({ where: { ...where, removedAt: null } });

  describe('plates', () => {
    it('creates an empty plate with who and when; a second plate of that name is a 409 naming the name', async () => {
      const name = freshPlateName();
      const res = await lab1.post(`${API}/plates`, { name }).expect(201);
      expect(res.body).to.include({ name, sampleCount: 0, controlCount: 0, freeWells: 96, nextFreeWell: 'A1' });
      expect(res.body.createdBy).to.deep.equal({ id: await userId(t.ctx.db, 'lab1'), name: 'Leo Bench' });
      expect(res.body.wells).to.deep.equal([]);
      const again = await lab2.post(`${API}/plates`, { name }).expect(409);
      expect(again.body.error.message).to.equal(`A plate named ${name} already exists`);
      expect(again.body.error.fields).to.deep.equal([{ field: 'name', message: `A plate named ${name} already exists` }]);
      expect(await t.ctx.db.models.StoragePlate.count({ where: { name } })).to.equal(1);
    });

    it('two requests creating the same plate name at once: one 201, one 409, never a 500', async () => {
      const name = freshPlateName();
      const answers = await Promise.all([lab1.post(`${API}/plates`, { name }), lab2.post(`${API}/plates`, { name })]);
      expect(answers.map((r) => r.status).sort()).to.deep.equal([201, 409]);
      expect(await t.ctx.db.models.StoragePlate.count({ where: { name } })).to.equal(1);
    });

    it('refuses a name with spaces around it (never trimmed), an empty one, and unknown keys, naming the field', async () => {
      const spaced = await lab1.post(`${API}/plates`, { name: ' P-1' }).expect(400);
      expect(spaced.body.error.fields).to.deep.equal([{ field: 'name', message: 'Plate name must not start or end with a space' }]);
      const empty = await lab1.post(`${API}/plates`, { name: '' }).expect(400);
      expect(empty.body.error.fields[0]).to.deep.equal({ field: 'name', message: 'Plate name is required' });
      const extra = await lab1.post(`${API}/plates`, { name: freshPlateName(), owner: 3 }).expect(400);
      expect(extra.body.error.fields[0].field).to.equal('owner');
      expect(await t.ctx.db.models.StoragePlate.count({ where: { name: ' P-1' } })).to.equal(0);
    });

    it('lists plates newest first with their counts (x-total-count), filtered by name', async () => {
      const plate = await newPlate();
      const s = await makeSample(t.ctx.db, { status: SampleStatus.InQueue });
      await place(plate.id, 'A1', s.barcode).expect(201);
      await place(plate.id, 'B1', 'NEG PCR CTRL').expect(201);
      const res = await lab1.agent.get(`${API}/plates?name=${encodeURIComponent(plate.name)}`).expect(200);
      expect(res.headers['x-total-count']).to.equal('1');
      expect(res.body[0]).to.include({ id: plate.id, name: plate.name, sampleCount: 1, controlCount: 1, freeWells: 94 });
    });

    it('answers 404 for a plate that does not exist and for a malformed id', async () => {
      await lab1.agent.get(`${API}/plates/99999999`).expect(404);
      await lab1.agent.get(`${API}/plates/abc`).expect(404);
      await place(99999999, 'A1', 'Null').expect(404);
    });
  });

  describe('scanning into wells', () => {
    it('places a sample: In Storage through the lifecycle (status event with who and when, audit), the next free well suggested', async () => {
      const plate = await newPlate();
      const s = await makeSample(t.ctx.db, { status: SampleStatus.InTesting });
      const before = Date.now();
      const res = await place(plate.id, 'A1', s.barcode).expect(201);
      expect(res.body).to.deep.include({ well: 'A1', label: s.barcode, kind: 'sample', nextFreeWell: 'B1', message: `${s.barcode} is In Storage in ${plate.name} A1` });
      expect(res.body.sample).to.deep.equal({ id: s.id, barcode: s.barcode, previousStatus: 'In Testing', status: 'In Storage' });
      const sample = (await t.ctx.db.models.Sample.findByPk(s.id))!;
      expect([sample.status, sample.statusBeforeStorage]).to.deep.equal(['In Storage', 'In Testing']);
      expect(await timeline(t.ctx.db, s.id)).to.deep.equal(['Order Placed', 'Pending Shipment', 'In Transit', 'In Queue', 'In Testing', 'In Storage']);
      const event = (await t.ctx.db.models.SampleStatusEvent.findOne({ where: { sampleId: s.id, toStatus: 'In Storage' } }))!;
      expect([event.fromStatus, event.actorKind, event.actorUserId]).to.deep.equal(['In Testing', 'lab', await userId(t.ctx.db, 'lab1')]);
      expect(event.createdAt.getTime()).to.be.within(before - 1000, Date.now() + 1000);
      const audit = await t.ctx.db.models.AuditEvent.findOne({ where: { action: 'storage.placed', entityId: String(s.id) } });
      expect(audit?.details).to.deep.equal({ plateId: plate.id, well: 'A1', kind: 'sample' });

      const map = await lab1.agent.get(`${API}/plates/${plate.id}`).expect(200);
      expect(map.body.wells).to.have.length(1);
      expect(map.body.wells[0]).to.include({ well: 'A1', label: s.barcode, kind: 'sample', sampleId: s.id, barcode: s.barcode, status: 'In Storage', statusBeforeStorage: 'In Testing' });
      expect(map.body.nextFreeWell).to.equal('B1');
    });

    it('suggests the next free well after the one just filled, down the columns, skipping filled wells', async () => {
      const plate = await newPlate();
      await place(plate.id, 'B1', 'Null').expect(201);
      const res = await place(plate.id, 'A1', 'NEG PCR CTRL').expect(201);
      expect(res.body.nextFreeWell).to.equal('C1');
      const h12 = await place(plate.id, 'H12', 'POS PCR CTRL').expect(201);
      expect(h12.body.nextFreeWell).to.equal('C1');
    });

    it('refuses an occupied well with a 409 naming the well and what is in it; the second sample is untouched', async () => {
      const plate = await newPlate();
      const first = await makeSample(t.ctx.db, { status: SampleStatus.InQueue });
      const second = await makeSample(t.ctx.db, { status: SampleStatus.InQueue });
      await place(plate.id, 'C3', first.barcode).expect(201);
      const res = await place(plate.id, 'C3', second.barcode).expect(409);
      expect(res.body.error.message).to.equal(`Well C3 of plate ${plate.name} is already taken by ${first.barcode}`);
      expect(res.body.error.fields).to.deep.equal([{ field: 'well', message: res.body.error.message }]);
      expect(await statusOf(t.ctx.db, second.id)).to.equal('In Queue');
      expect(await timeline(t.ctx.db, second.id)).to.deep.equal(['Order Placed', 'Pending Shipment', 'In Transit', 'In Queue']);
      expect(await currentWells({ sampleId: second.id })).to.have.length(0);
    });

    it('refuses the same sample twice (same plate or another) with a 409 naming where it is', async () => {
      const plate = await newPlate();
      const other = await newPlate();
      const s = await makeSample(t.ctx.db, { status: SampleStatus.InQueue });
      await place(plate.id, 'A1', s.barcode).expect(201);
      for (const [plateId, well] of [[plate.id, 'A2'], [other.id, 'A1']] as const) {
        const res = await place(plateId, well, s.barcode).expect(409);
        expect(res.body.error.message).to.equal(`Sample ${s.barcode} is already on plate ${plate.name} in well A1`);
        expect(res.body.error.fields[0].field).to.equal('sampleId');
      }
      expect((await currentWells({ sampleId: s.id })).map((w) => w.well)).to.deep.equal(['A1']);
      expect(await timeline(t.ctx.db, s.id)).to.deep.equal(['Order Placed', 'Pending Shipment', 'In Transit', 'In Queue', 'In Storage']);
    });

    it('two concurrent requests for the same sample, or for the same well: one wins, the other gets a 409, never a 500', async () => {
      for (let round = 0; round < 5; round++) {
        const plate = await newPlate();
        const s = await makeSample(t.ctx.db, { status: SampleStatus.InQueue });
        const sameSample = await Promise.all([place(plate.id, 'A1', s.barcode, lab1), place(plate.id, 'B1', s.barcode, lab2)]);
        expect(sameSample.map((r) => r.status).sort(), `round ${round}, same sample`).to.deep.equal([201, 409]);
        expect(sameSample.find((r) => r.status === 409)!.body.error.fields[0].field).to.equal('sampleId');
        expect(await currentWells({ sampleId: s.id })).to.have.length(1);
        expect((await timeline(t.ctx.db, s.id)).filter((x) => x === 'In Storage')).to.have.length(1);

        const a = await makeSample(t.ctx.db, { status: SampleStatus.InQueue });
        const b = await makeSample(t.ctx.db, { status: SampleStatus.InQueue });
        const sameWell = await Promise.all([place(plate.id, 'C1', a.barcode, lab1), place(plate.id, 'C1', b.barcode, lab2)]);
        expect(sameWell.map((r) => r.status).sort(), `round ${round}, same well`).to.deep.equal([201, 409]);
        const loser = sameWell.find((r) => r.status === 409)!;
        expect(loser.body.error.fields[0].field).to.equal('well');
        expect(loser.body.error.message).to.match(new RegExp(`^Well C1 of plate ${plate.name} is already taken`));
        const inWell = await currentWells({ plateId: plate.id, well: 'C1' });
        expect(inWell).to.have.length(1);
        const loserId = inWell[0].sampleId === a.id ? b.id : a.id;
        expect(await statusOf(t.ctx.db, loserId)).to.equal('In Queue');
      }
    });

    it('the database itself keeps one current thing per well and one place per sample', async () => {
      const plate = await newPlate();
      const s = await makeSample(t.ctx.db, { status: SampleStatus.InQueue });
      await place(plate.id, 'D4', s.barcode).expect(201);
      const labId = await userId(t.ctx.db, 'lab1');
      const insert = (values: Record<string, unknown>) => t.ctx.db.models.StoragePlateWell.create({ plateId: plate.id, label: 'Null', contentKind: 'null', placedByUserId: labId, well: 'E4', ...values } as never);
      const constraintOf = async (p: Promise<unknown>) => p.then(() => 'no error', (err: { parent?: { constraint?: string } }) => err.parent?.constraint);
      expect(await constraintOf(insert({ well: 'D4' }))).to.equal('storage_plate_wells_occupied_key');
      expect(await constraintOf(insert({ well: 'E5', label: s.barcode, contentKind: 'sample', sampleId: s.id }))).to.equal('storage_plate_wells_sample_key');
      expect(await constraintOf(insert({ well: 'E6', label: ' Null' }))).to.equal('storage_plate_wells_label_check');
    });

    it('places controls (any number, no status) and a re-extraction (its sample keeps its status; once per re-extraction)', async () => {
      const plate = await newPlate();
      const s = await makeSample(t.ctx.db, { status: SampleStatus.InTesting });
      for (const [well, label, kind] of [['A1', 'NEG PCR CTRL', 'negative'], ['B1', 'POS_PCR_CTRL_2', 'positive'], ['C1', 'Null', 'null'], ['D1', 'NEG PCR CTRL', 'negative']]) {
        const res = await place(plate.id, well, label).expect(201);
        expect(res.body).to.include({ kind, label, well });
        expect(res.body.sample).to.equal(null);
      }
      const reex = await place(plate.id, 'E1', `${s.barcode}.reex`).expect(201);
      expect(reex.body).to.include({ kind: 're-extraction', label: `${s.barcode}.reex` });
      expect(reex.body.sample).to.deep.equal({ id: s.id, barcode: s.barcode, previousStatus: 'In Testing', status: 'In Testing' });
      expect(await statusOf(t.ctx.db, s.id)).to.equal('In Testing');
      // The sample itself may still go on a plate; its re-extraction only once.
      await place(plate.id, 'F1', s.barcode).expect(201);
      const twice = await place(plate.id, 'G1', `${s.barcode}.reex`).expect(409);
      expect(twice.body.error.message).to.equal(`Re-extraction ${s.barcode}.reex is already on plate ${plate.name} in well E1`);
      const notReceived = await makeSample(t.ctx.db, { status: SampleStatus.InTransit });
      const early = await place(plate.id, 'G1', `${notReceived.barcode}.reex`).expect(409);
      expect(early.body.error.message).to.equal(`Sample ${notReceived.barcode} has not been received at the lab: it has no re-extraction to store`);
    });

    it('never trims a scan: spaces around a sample id or a well are a 400 naming the field; nothing is placed', async () => {
      const plate = await newPlate();
      const s = await makeSample(t.ctx.db, { status: SampleStatus.InQueue });
      const spacedId = await place(plate.id, 'A1', ` ${s.barcode}`).expect(400);
      expect(spacedId.body.error.fields).to.deep.equal([{ field: 'sampleId', message: 'Sample id must not start or end with a space' }]);
      const spacedWell = await place(plate.id, 'A1 ', s.barcode).expect(400);
      expect(spacedWell.body.error.fields).to.deep.equal([{ field: 'well', message: 'Well must not start or end with a space' }]);
      const control = await place(plate.id, 'A1', 'NEG PCR CTRL ').expect(400);
      expect(control.body.error.fields[0].field).to.equal('sampleId');
      const badWell = await place(plate.id, 'I13', s.barcode).expect(400);
      expect(badWell.body.error.fields[0]).to.deep.equal({ field: 'well', message: 'Well must be a row A-H and a column 1-12 (e.g. A1, H12); "I13" is not a well' });
      const junk = await place(plate.id, 'A1', 'hello').expect(400);
      expect(junk.body.error.fields[0].message).to.match(/^"hello" is neither a sample id/);
      expect(await currentWells({ plateId: plate.id })).to.have.length(0);
      expect(await statusOf(t.ctx.db, s.id)).to.equal('In Queue');
    });

    it('reads a zero-padded well (A01) as A1', async () => {
      const plate = await newPlate();
      const res = await place(plate.id, 'A01', 'Null').expect(201);
      expect(res.body.well).to.equal('A1');
    });

    it('refuses an unknown sample (404) and a sample the lifecycle keeps out of storage (409 in its words)', async () => {
      const plate = await newPlate();
      const unknown = freshBarcode();
      const missing = await place(plate.id, 'A1', unknown).expect(404);
      expect(missing.body.error.message).to.equal(`No sample has id ${unknown}`);
      for (const status of [SampleStatus.OrderPlaced, SampleStatus.InTransit, SampleStatus.Rejected]) {
        const s = await makeSample(t.ctx.db, { status });
        const res = await place(plate.id, 'A1', s.barcode).expect(409);
        expect(res.body.error.message).to.equal(`Sample ${s.barcode} cannot be stored: A sample cannot go from ${status} to In Storage`);
        expect(await statusOf(t.ctx.db, s.id)).to.equal(status);
      }
      expect(await currentWells({ plateId: plate.id })).to.have.length(0);
    });
  });

  describe('taking out', () => {
    it('takes a sample out: back to the status it left, on its timeline; the well is free again and its history kept', async () => {
      const plate = await newPlate();
      const s = await makeSample(t.ctx.db, { status: SampleStatus.Resulted });
      await place(plate.id, 'B2', s.barcode).expect(201);
      const res = await lab2.post(`${API}/plates/${plate.id}/wells/B2/take-out`).expect(200);
      expect(res.body).to.deep.include({ well: 'B2', label: s.barcode, kind: 'sample', message: `${s.barcode} taken out of ${plate.name} B2: back to Resulted` });
      expect(res.body.sample).to.deep.equal({ id: s.id, barcode: s.barcode, previousStatus: 'In Storage', status: 'Resulted' });
      const sample = (await t.ctx.db.models.Sample.findByPk(s.id))!;
      expect([sample.status, sample.statusBeforeStorage]).to.deep.equal(['Resulted', null]);
      expect((await timeline(t.ctx.db, s.id)).slice(-3)).to.deep.equal(['Resulted', 'In Storage', 'Resulted']);
      const back = (await t.ctx.db.models.SampleStatusEvent.findOne({ where: { sampleId: s.id, fromStatus: 'In Storage' } }))!;
      expect(back.actorUserId).to.equal(await userId(t.ctx.db, 'lab2'));
      const rows = await t.ctx.db.models.StoragePlateWell.findAll({ where: { sampleId: s.id } });
      expect(rows.map((r) => [r.well, r.removal, r.removedByUserId])).to.deep.equal([['B2', 'taken out', back.actorUserId]]);
      await place(plate.id, 'B2', 'Null').expect(201);
      const found = await lab1.agent.get(`${API}/find?sampleId=${s.barcode}`).expect(200);
      expect(found.body.places).to.deep.equal([]);
      expect(found.body.history[0]).to.include({ plateId: plate.id, plateName: plate.name, well: 'B2', removal: 'taken out' });
    });

    it('takes out a control without any status change; an empty well is a 404; a malformed well a 400', async () => {
      const plate = await newPlate();
      await place(plate.id, 'A1', 'POS PCR CTRL').expect(201);
      const res = await lab1.post(`${API}/plates/${plate.id}/wells/A1/take-out`).expect(200);
      expect(res.body).to.include({ kind: 'positive', message: `POS PCR CTRL taken out of ${plate.name} A1` });
      const again = await lab1.post(`${API}/plates/${plate.id}/wells/A1/take-out`).expect(404);
      expect(again.body.error.message).to.equal(`Well A1 of plate ${plate.name} is empty`);
      const bad = await lab1.post(`${API}/plates/${plate.id}/wells/Z9/take-out`).expect(400);
      expect(bad.body.error.fields[0].field).to.equal('well');
    });

    it('two take-outs of one well at once: one 200, one 404; the sample leaves storage once', async () => {
      const plate = await newPlate();
      const s = await makeSample(t.ctx.db, { status: SampleStatus.InQueue });
      await place(plate.id, 'A1', s.barcode).expect(201);
      const answers = await Promise.all([lab1.post(`${API}/plates/${plate.id}/wells/A1/take-out`), lab2.post(`${API}/plates/${plate.id}/wells/A1/take-out`)]);
      expect(answers.map((r) => r.status).sort()).to.deep.equal([200, 404]);
      expect(await timeline(t.ctx.db, s.id)).to.deep.equal(['Order Placed', 'Pending Shipment', 'In Transit', 'In Queue', 'In Storage', 'In Queue']);
    });
  });

  describe('discarding', () => {
    it('discards a Completed sample with who and when (status event, audit)', async () => {
      const s = await makeCompletedSample(t.ctx.db);
      const before = Date.now();
      const res = await lab1.post(`${API}/discard`, { sampleId: s.barcode, reason: 'Retention period over' }).expect(200);
      expect(res.body.sample).to.deep.equal({ id: s.id, barcode: s.barcode, previousStatus: 'Completed', status: 'Discarded' });
      expect(res.body.takenFrom).to.equal(null);
      expect(res.body.discardedBy.id).to.equal(await userId(t.ctx.db, 'lab1'));
      expect(new Date(res.body.discardedAt).getTime()).to.be.within(before - 1000, Date.now() + 1000);
      const event = (await t.ctx.db.models.SampleStatusEvent.findOne({ where: { sampleId: s.id, toStatus: 'Discarded' } }))!;
      expect([event.fromStatus, event.actorKind, event.actorUserId, event.reason]).to.deep.equal(['Completed', 'lab', res.body.discardedBy.id, 'Retention period over']);
      expect(event.createdAt.toISOString()).to.equal(res.body.discardedAt);
      const audit = await t.ctx.db.models.AuditEvent.findOne({ where: { action: 'storage.discarded', entityId: String(s.id) } });
      expect(audit?.actorUserId).to.equal(res.body.discardedBy.id);
    });

    it('discards a Completed sample from its plate: taken out, then discarded, every step on its timeline; the well is free', async () => {
      const plate = await newPlate();
      const s = await makeCompletedSample(t.ctx.db);
      await place(plate.id, 'H12', s.barcode).expect(201);
      const res = await lab1.post(`${API}/discard`, { sampleId: s.barcode }).expect(200);
      expect(res.body.takenFrom).to.deep.equal({ plateId: plate.id, plateName: plate.name, well: 'H12' });
      expect(res.body.sample).to.include({ previousStatus: 'In Storage', status: 'Discarded' });
      expect((await timeline(t.ctx.db, s.id)).slice(-4)).to.deep.equal(['Completed', 'In Storage', 'Completed', 'Discarded']);
      const row = (await t.ctx.db.models.StoragePlateWell.findOne({ where: { sampleId: s.id } }))!;
      expect([row.removal, row.removedAt]).to.deep.equal(['discarded', row.removedAt]);
      expect(row.removedAt).to.be.instanceOf(Date);
      const map = await lab1.agent.get(`${API}/plates/${plate.id}`).expect(200);
      expect(map.body.wells).to.deep.equal([]);
      const twice = await lab1.post(`${API}/discard`, { sampleId: s.barcode }).expect(409);
      expect(twice.body.error.message).to.equal('A sample cannot go from Discarded to Discarded');
    });

    it('refuses to discard a sample that is not Completed (409 in the lifecycle words) and changes nothing, on a plate or not', async () => {
      const plate = await newPlate();
      const stored = await makeSample(t.ctx.db, { status: SampleStatus.InTesting });
      await place(plate.id, 'A1', stored.barcode).expect(201);
      const res = await lab1.post(`${API}/discard`, { sampleId: stored.barcode }).expect(409);
      expect(res.body.error.message).to.equal('A sample cannot go from In Testing to Discarded');
      const sample = (await t.ctx.db.models.Sample.findByPk(stored.id))!;
      expect([sample.status, sample.statusBeforeStorage]).to.deep.equal(['In Storage', 'In Testing']);
      expect(await currentWells({ sampleId: stored.id })).to.have.length(1);
      expect((await timeline(t.ctx.db, stored.id)).at(-1)).to.equal('In Storage');

      const resulted = await makeSample(t.ctx.db, { status: SampleStatus.Resulted });
      const refused = await lab1.post(`${API}/discard`, { sampleId: resulted.barcode }).expect(409);
      expect(refused.body.error.message).to.equal('A sample cannot go from Resulted to Discarded');
      expect(await statusOf(t.ctx.db, resulted.id)).to.equal('Resulted');
      const control = await lab1.post(`${API}/discard`, { sampleId: 'NEG PCR CTRL' }).expect(400);
      expect(control.body.error.fields[0].field).to.equal('sampleId');
      await lab1.post(`${API}/discard`, { sampleId: freshBarcode() }).expect(404);
    });
  });

  describe('finding a sample', () => {
    it('answers the plate and well of a sample and of its re-extraction', async () => {
      const plate = await newPlate();
      const s = await makeSample(t.ctx.db, { status: SampleStatus.InTesting });
      await place(plate.id, 'C5', s.barcode).expect(201);
      await place(plate.id, 'D5', `${s.barcode}.reex`).expect(201);
      const res = await lab1.agent.get(`${API}/find?sampleId=${s.barcode}`).expect(200);
      expect(res.body.sample).to.deep.equal({ id: s.id, barcode: s.barcode, status: 'In Storage', statusBeforeStorage: 'In Testing' });
      expect(res.body.places.map((p: { plateName: string; well: string; kind: string }) => [p.plateName, p.well, p.kind]).sort()).to.deep.equal([
        [plate.name, 'C5', 'sample'], [plate.name, 'D5', 're-extraction'],
      ]);
      const audit = await t.ctx.db.models.AuditEvent.findOne({ where: { action: 'storage.sample_found', entityId: String(s.id) } });
      expect(audit?.details).to.deep.equal({ places: 2 });
      const viaReex = await lab1.agent.get(`${API}/find?sampleId=${s.barcode}.reex`).expect(200);
      expect(viaReex.body.sample.id).to.equal(s.id);
      await lab1.agent.get(`${API}/find?sampleId=${freshBarcode()}`).expect(404);
      const spaced = await lab1.agent.get(`${API}/find?sampleId=${encodeURIComponent(`${s.barcode} `)}`).expect(400);
      expect(spaced.body.error.fields[0]).to.deep.equal({ field: 'sampleId', message: 'Sample id must not start or end with a space' });
    });
  });

  describe('import-samples-storage-plates', () => {
    const header = ['plate', 'well', 'sample_id'];

    it('a file with one bad row: the dry run names it by row number and writes nothing; its commit is refused and writes nothing', async () => {
      const plate = freshPlateName();
      const good = await makeSample(t.ctx.db, { status: SampleStatus.InQueue });
      const early = await makeSample(t.ctx.db, { status: SampleStatus.OrderPlaced });
      const content = csvFile([header, [plate, 'A1', good.barcode], [plate, 'B1', 'NEG PCR CTRL'], [plate, 'C1', early.barcode], [plate, 'D1 ', 'Null']]);
      const dry = await lab1.post(IMPORT, { fileName: 'plates.csv', content, mode: 'dry-run' }).expect(200);
      expect(dry.body).to.include({ mode: 'dry-run', format: 'csv', rowCount: 4, errorCount: 2 });
      expect(dry.body.errors).to.deep.equal([
        { row: 4, column: 'sample_id', value: early.barcode, message: `Sample ${early.barcode} cannot be stored: A sample cannot go from Order Placed to In Storage` },
        { row: 5, column: 'well', value: 'D1 ', message: 'Well must not start or end with a space' },
      ]);
      expect(dry.body.rows.map((r: { row: number; ok: boolean }) => [r.row, r.ok])).to.deep.equal([[2, true], [3, true], [4, false], [5, false]]);
      expect(dry.body.plates).to.deep.equal([{ name: plate, exists: false, placements: 2 }]);

      const commit = await lab1.post(IMPORT, { fileName: 'plates.csv', content, mode: 'commit' }).expect(400);
      expect(commit.body.error.code).to.equal('validation_failed');
      expect(commit.body.error.message).to.match(/^Nothing was written: the file has 2 row errors \(Row 4, sample_id: /);
      expect(commit.body.error.fields.map((f: { field: string }) => f.field)).to.deep.equal(['rows.4.sample_id', 'rows.5.well']);
      expect(await t.ctx.db.models.StoragePlate.count({ where: { name: plate } })).to.equal(0);
      expect(await currentWells({ sampleId: good.id })).to.have.length(0);
      expect(await statusOf(t.ctx.db, good.id)).to.equal('In Queue');
    });

    it('a good CSV commits every row at once: the new plate, the wells, the samples In Storage on their timelines', async () => {
      const existing = await newPlate();
      const fresh = freshPlateName();
      const samples = await Promise.all([1, 2, 3].map(() => makeSample(t.ctx.db, { status: SampleStatus.InTesting })));
      const content = csvFile([
        ['Plate', 'Well', 'Sample ID'],
        [existing.name, 'A1', samples[0].barcode],
        [existing.name, 'B01', 'POS PCR CTRL'],
        [fresh, 'A1', samples[1].barcode],
        [fresh, 'B1', `${samples[2].barcode}.reex`],
      ]);
      const dry = await lab1.post(IMPORT, { fileName: 'plates.csv', content, mode: 'dry-run' }).expect(200);
      expect(dry.body.errorCount).to.equal(0);
      expect(await currentWells({ plateId: existing.id })).to.have.length(0);
      const res = await lab1.post(IMPORT, { fileName: 'plates.csv', content, mode: 'commit' }).expect(200);
      expect(res.body).to.include({ mode: 'commit', rowCount: 4, placed: 4, samplesMovedToStorage: 2 });
      expect(res.body.plates.map((p: { name: string; created: boolean; placements: number }) => [p.name, p.created, p.placements]).sort()).to.deep.equal(
        [[existing.name, false, 2], [fresh, true, 2]].sort(),
      );
      const created = (await t.ctx.db.models.StoragePlate.findOne({ where: { name: fresh } }))!;
      expect(created.createdByUserId).to.equal(await userId(t.ctx.db, 'lab1'));
      expect((await currentWells({ plateId: existing.id })).map((w) => [w.well, w.label]).sort()).to.deep.equal([['A1', samples[0].barcode], ['B1', 'POS PCR CTRL']]);
      expect(await statusOf(t.ctx.db, samples[0].id)).to.equal('In Storage');
      expect(await statusOf(t.ctx.db, samples[1].id)).to.equal('In Storage');
      expect(await statusOf(t.ctx.db, samples[2].id)).to.equal('In Testing');
      expect((await timeline(t.ctx.db, samples[1].id)).at(-1)).to.equal('In Storage');
      const audit = await t.ctx.db.models.AuditEvent.findOne({ where: { action: 'storage_import.committed' }, order: [['id', 'DESC']] });
      expect(audit?.details).to.deep.include({ rows: 4, samplesMovedToStorage: 2 });
      // The same file again: every row is now taken.
      const again = await lab1.post(IMPORT, { fileName: 'plates.csv', content, mode: 'commit' }).expect(400);
      expect(again.body.error.fields[0]).to.deep.equal({ field: 'rows.2.well', message: `Row 2, well: Well A1 of plate ${existing.name} is already taken by ${samples[0].barcode}` });
    });

    it('an XLSX with numeric sample id cells; repeated wells and samples within the file are named by row', async () => {
      const plate = freshPlateName();
      const a = await makeSample(t.ctx.db, { status: SampleStatus.InQueue });
      const b = await makeSample(t.ctx.db, { status: SampleStatus.InQueue });
      const bad = await xlsxFile([header, [plate, 'A1', Number(a.barcode)], [plate, 'A1', b.barcode], [plate, 'B1', a.barcode]]);
      const dry = await lab1.post(IMPORT, { fileName: 'plates.xlsx', content: bad, mode: 'dry-run' }).expect(200);
      expect(dry.body.format).to.equal('xlsx');
      expect(dry.body.errors.map((e: { row: number; message: string }) => [e.row, e.message])).to.deep.equal([
        [3, `Well A1 of plate ${plate} is also on row 2`],
        [4, `Sample ${a.barcode} is also on row 2`],
      ]);
      const good = await xlsxFile([header, [plate, 'A1', Number(a.barcode)], [plate, 'B1', b.barcode]]);
      const res = await lab2.post(IMPORT, { fileName: 'plates.xlsx', content: good, mode: 'commit' }).expect(200);
      expect(res.body.placed).to.equal(2);
      expect(await statusOf(t.ctx.db, a.id)).to.equal('In Storage');
    });

    it('refuses a file that is not a plate file with one sentence naming the file; nothing written', async () => {
      const cases: [string, string, RegExp][] = [
        ['wrong.csv', csvFile([['barcode', 'genotype'], ['x', 'y']]), /^The columns must be plate, well, sample_id; this file has: barcode, genotype$/],
        ['empty.csv', csvFile([header]), /^The file has a header but no data rows$/],
        ['fake.xlsx', Buffer.from('plate,well,sample_id\n').toString('base64'), /^The file is named \.xlsx but is not an Excel workbook$/],
      ];
      for (const [fileName, content, message] of cases) {
        const res = await lab1.post(IMPORT, { fileName, content, mode: 'dry-run' }).expect(400);
        expect(res.body.error.fields[0].field).to.equal('file');
        expect(res.body.error.message).to.match(message);
      }
      const notBase64 = await lab1.post(IMPORT, { fileName: 'a.csv', content: '***', mode: 'commit' }).expect(400);
      expect(notBase64.body.error.fields[0]).to.deep.equal({ field: 'content', message: 'File must be sent base64-encoded' });
      const badMode = await lab1.post(IMPORT, { fileName: 'a.csv', content: csvFile([header]), mode: 'later' }).expect(400);
      expect(badMode.body.error.fields[0].field).to.equal('mode');
    });
  });

  it('refuses everyone but lab users on every route: anonymous 401, provider and admin 403', async () => {
    const plate = await newPlate();
    const s = await makeSample(t.ctx.db, { status: SampleStatus.InQueue });
    const routes: [string, string, unknown?][] = [
      ['get', `${API}/plates`],
      ['get', `${API}/plates/${plate.id}`],
      ['get', `${API}/find?sampleId=${s.barcode}`],
      ['post', `${API}/plates`, { name: freshPlateName() }],
      ['post', `${API}/plates/${plate.id}/wells`, { well: 'A1', sampleId: s.barcode }],
      ['post', `${API}/plates/${plate.id}/wells/A1/take-out`],
      ['post', `${API}/discard`, { sampleId: s.barcode }],
      ['post', IMPORT, { fileName: 'a.csv', content: csvFile([['plate', 'well', 'sample_id'], [plate.name, 'A1', s.barcode]]), mode: 'commit' }],
    ];
    const anonymous = request.agent(t.app);
    const csrf = (await anonymous.get('/api/auth/csrf')).body.csrfToken as string;
    for (const [method, path, body] of routes) {
      const call = method === 'get' ? anonymous.get(path) : anonymous.post(path).set('x-csrf-token', csrf).send(body as object);
      await call.expect(401);
    }
    for (const [who, portal] of [['physician', 'provider'], ['admin', 'admin']] as const) {
      const session = await signIn(t.app, who, portal);
      for (const [method, path, body] of routes) {
        const res = method === 'get' ? await session.agent.get(path) : await session.post(path, body);
        expect(res.status, `${who} ${method} ${path}`).to.equal(403);
      }
    }
    expect(await statusOf(t.ctx.db, s.id)).to.equal('In Queue');
    expect(await currentWells({ plateId: plate.id })).to.have.length(0);
  });
});
