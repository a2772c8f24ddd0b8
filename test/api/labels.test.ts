/**
 * Barcode labels (issue 30, item 1): kit and received-sample labels from intake, storage and PCR
 * plate labels, a clinic's shipment label; as a sheet of 30 (from a chosen position), as 2 × 1 in
 * thermal labels, and as ZPL. The barcodes are read back as a scanner reads them (pdftoppm, then
 * zbarimg); the text with pdftotext. Who may print what: lab users for the lab's labels, a clinic
 * only for its own shipments.
 */
import { execFileSync } from 'node:child_process';
import { expect } from 'chai';
import { formatDate, LABEL_START_RULE } from '@platform/domain';
import { buildTestApp, signIn, type Session, type TestApp } from '../support/http';
import { makeSample, SampleStatus, TestName, userId } from '../support/fixtures/lab';
import { addPatient, createClinic, placeOrder, type TestClinic } from '../support/fixtures/clinic';
import { binaryBody, pdfBarcodes, pdfPageCount, pdfText, pdfWords } from '../support/pdf';

describe('barcode labels', function () {
  this.timeout(60_000);
  let t: TestApp;
  let lab: Session;
  let clinic: TestClinic;
  let other: TestClinic;

  before(async () => {
    t = await buildTestApp();
    lab = await signIn(t.app, 'lab1', 'lab');
    clinic = await createClinic(t.ctx, t.app, 'Harbor Labels Clinic');
    other = await createClinic(t.ctx, t.app, 'Summit Labels Clinic');
  });
  after(() => t.close());

  const getFile = (session: Session, path: string, query: Record<string, unknown> = {}) =>
    session.agent.get(path).query(query).buffer(true).parse(binaryBody as never);
  const samplesPdf = (query: Record<string, unknown>) => getFile(lab, '/api/lab-toolbox/labels/samples/pdf', query);
  const pageSize = (pdf: Buffer) => /Page size:\s+([\d.]+ x [\d.]+) pts/.exec(execFileSync('pdfinfo', ['-'], { input: pdf }).toString('utf8'))?.[1];
  const sorted = (pages: string[][]) => pages.map((p) => [...p].sort());
  const fieldOf = (res: { body: Buffer }) => (JSON.parse(res.body.toString('utf8')) as { error: { fields?: { field: string; message: string }[]; message: string } }).error;

  describe('kit and sample labels (intake)', () => {
    it('a received sample shows initials, date of birth, test and receipt date (never the name); a kit no patient data; both scan as their barcodes', async () => {
      const received = await makeSample(t.ctx.db, { status: SampleStatus.InQueue, tests: [TestName.ProstoxCfrt] });
      const kit = await makeSample(t.ctx.db, { status: SampleStatus.InTransit, tests: [TestName.Kras] });
      const patient = (await t.ctx.db.models.Patient.findByPk(received.patientId))!;
      const { receivedAt } = (await t.ctx.db.models.Sample.findByPk(received.id))!;

      const res = await samplesPdf({ barcodes: [received.barcode, kit.barcode] }).expect(200);
      expect(res.headers['content-type']).to.equal('application/pdf');
      expect(res.headers['content-disposition']).to.equal('attachment; filename="labels-2-samples.pdf"');
      expect(res.headers['cache-control']).to.equal('private, no-store');
      expect(pageSize(res.body)).to.equal('612 x 792');
      expect(sorted(pdfBarcodes(res.body))).to.deep.equal([[`CODE-128:${received.barcode}`, `CODE-128:${kit.barcode}`].sort()]);

      const text = pdfText(res.body);
      expect(text).to.contain(`T.L. DOB 02/03/1960`).and.contain('PROSTOX CFRT').and.contain(`Received ${formatDate(receivedAt, t.ctx.config.labTimeZone)}`);
      expect(text).to.contain('KRAS').and.contain('Kit').and.contain('Riverside Oncology');
      expect(text).not.to.contain(patient.firstName!).and.not.to.contain(patient.lastName!);

      // Reading initials and a date of birth is a read of patient data: audited for the received sample only.
      const audits = await t.ctx.db.models.AuditEvent.findAll({ where: { action: 'sample.label_printed', entityId: [String(received.id), String(kit.id)] } });
      expect(audits.map((a) => [a.entityKind, a.entityId, a.actorUserId])).to.deep.equal([['sample', String(received.id), await userId(t.ctx.db, 'lab1')]]);
      expect(audits[0].details).to.deep.include({ format: 'pdf', layout: 'sheet' });
    });

    it('starts a sheet at the chosen position (4 = second row, left) and runs onto a second sheet from position 1', async () => {
      const samples = [await makeSample(t.ctx.db, { status: SampleStatus.InQueue }), await makeSample(t.ctx.db, { status: SampleStatus.InQueue })];
      const fourth = await samplesPdf({ barcodes: samples[0].barcode, start: 4 }).expect(200);
      const word = pdfWords(fourth.body).find((w) => w.text === samples[0].barcode)!;
      // Avery 5160: the second row's labels span 1.5 in to 2.5 in from the top; the left column 0.1875 in to 2.8125 in.
      expect(word.y).to.be.within(1.5 * 72, 2.5 * 72);
      expect(word.x).to.be.within(0.1875 * 72, 2.8125 * 72);

      const last = await samplesPdf({ barcodes: samples.map((s) => s.barcode), start: 30 }).expect(200);
      expect(pdfPageCount(last.body)).to.equal(2);
      const words = pdfWords(last.body);
      const first = words.find((w) => w.text === samples[0].barcode)!;
      const second = words.find((w) => w.text === samples[1].barcode)!;
      expect([first.page, first.x > 5.5 * 72, first.y > 9.5 * 72]).to.deep.equal([1, true, true]);
      expect([second.page, second.x < 2.8125 * 72, second.y < 1.5 * 72]).to.deep.equal([2, true, true]);
      expect(sorted(pdfBarcodes(last.body))).to.deep.equal([[`CODE-128:${samples[0].barcode}`], [`CODE-128:${samples[1].barcode}`]]);
    });

    it('refuses a start position off the sheet, or on a thermal label, naming start', async () => {
      const s = await makeSample(t.ctx.db, { status: SampleStatus.InQueue });
      for (const start of [0, 31, 'top', 2.5]) {
        const res = await samplesPdf({ barcodes: s.barcode, start }).expect(400);
        expect(fieldOf(res).fields).to.deep.equal([{ field: 'start', message: LABEL_START_RULE }]);
      }
      const thermal = await samplesPdf({ barcodes: s.barcode, layout: 'thermal', start: 2 }).expect(400);
      expect(fieldOf(thermal).fields!.map((f) => f.field)).to.deep.equal(['start']);
      const layout = await samplesPdf({ barcodes: s.barcode, layout: 'roll' }).expect(400);
      expect(fieldOf(layout).fields!.map((f) => f.field)).to.deep.equal(['layout']);
    });

    it('prints 2 × 1 in thermal labels, one per page', async () => {
      const samples = [await makeSample(t.ctx.db, { status: SampleStatus.InQueue }), await makeSample(t.ctx.db, { status: SampleStatus.PendingShipment })];
      const res = await samplesPdf({ barcodes: samples.map((s) => s.barcode), layout: 'thermal' }).expect(200);
      expect(pageSize(res.body)).to.equal('144 x 72');
      expect(pdfBarcodes(res.body)).to.deep.equal(samples.map((s) => [`CODE-128:${s.barcode}`]));
    });

    it('answers ZPL for a Zebra printer: one label each, the barcode as Code 128 (^BC) with the kit barcode as its data', async () => {
      const received = await makeSample(t.ctx.db, { status: SampleStatus.InQueue, tests: [TestName.ProstoxUltra] });
      const kit = await makeSample(t.ctx.db, { status: SampleStatus.InTransit });
      const res = await lab.agent.get('/api/lab-toolbox/labels/samples/zpl').query({ barcodes: [received.barcode, kit.barcode] }).expect(200);
      expect(res.headers['content-type']).to.equal('text/plain; charset=utf-8');
      expect(res.headers['content-disposition']).to.equal('attachment; filename="labels-2-samples.zpl"');
      const labels = res.text.trim().split(/\n(?=\^XA)/);
      expect(labels).to.have.length(2);
      for (const [i, s] of [received, kit].entries()) {
        expect(labels[i]).to.match(/^\^XA\n/).and.match(/\^XZ$/).and.contain('^PW406').and.contain('^LL203');
        expect(labels[i]).to.match(new RegExp(`\\^BCN,\\d+,N,N,N,A\\^FH_\\^FD${s.barcode}\\^FS`));
      }
      expect(labels[0]).to.contain('^FDT.L.  DOB 02/03/1960^FS').and.contain('^FDPROSTOX ultra^FS');
      expect(labels[1]).to.contain('^FDRiverside Oncology^FS');
    });

    it('refuses an unknown kit (404 naming it), a malformed barcode (400 naming barcodes) and a sample label for a kit not received (409)', async () => {
      const known = await makeSample(t.ctx.db, { status: SampleStatus.InQueue });
      const unknown = await samplesPdf({ barcodes: [known.barcode, '61999999999999'] }).expect(404);
      expect(fieldOf(unknown).message).to.equal('No sample has barcode 61999999999999');
      const malformed = await samplesPdf({ barcodes: 'ABC' }).expect(400);
      expect(fieldOf(malformed).fields!.map((f) => f.field)).to.deep.equal(['barcodes']);
      const notReceived = await makeSample(t.ctx.db, { status: SampleStatus.InTransit });
      const res = await samplesPdf({ barcodes: notReceived.barcode, kind: 'sample' }).expect(409);
      expect(fieldOf(res).message).to.equal(`Sample ${notReceived.barcode} has not been received (it is In Transit): print its kit label`);
      await samplesPdf({ barcodes: notReceived.barcode, kind: 'kit' }).expect(200);
    });

    it('prints for lab users only', async () => {
      const s = await makeSample(t.ctx.db, { status: SampleStatus.InQueue });
      await getFile(clinic.session, '/api/lab-toolbox/labels/samples/pdf', { barcodes: s.barcode }).expect(403);
      await clinic.session.agent.get('/api/lab-toolbox/labels/samples/zpl').query({ barcodes: s.barcode }).expect(403);
    });
  });

  describe('plate labels', () => {
    it("a storage plate's label carries its name as a Code 128 barcode, how many samples, when it was made", async () => {
      const name = `SP-${Date.now().toString(36).toUpperCase()}`;
      const plate = (await lab.post('/api/lab-toolbox/storage/plates', { name }).expect(201)).body;
      const res = await getFile(lab, `/api/lab-toolbox/storage/plates/${plate.id}/label/pdf`, { layout: 'thermal' }).expect(200);
      expect(pdfBarcodes(res.body)).to.deep.equal([[`CODE-128:${name}`]]);
      expect(pdfText(res.body)).to.contain('Storage plate').and.contain('0 samples');
      const zpl = await lab.agent.get(`/api/lab-toolbox/storage/plates/${plate.id}/label/zpl`).expect(200);
      expect(zpl.text).to.match(new RegExp(`\\^BCN,\\d+,N,N,N,A\\^FH_\\^FD${name}\\^FS`));
      await getFile(lab, '/api/lab-toolbox/storage/plates/999999999/label/pdf').expect(404);
      await getFile(clinic.session, `/api/lab-toolbox/storage/plates/${plate.id}/label/pdf`).expect(403);
    });

    it('a plate name too long for Code 128 across a 2 in label is printed as DataMatrix (^BX in ZPL)', async () => {
      const name = `STORAGE-FREEZER-B-SHELF-3-RACK-7-${Date.now().toString(36).toUpperCase()}`;
      const plate = (await lab.post('/api/lab-toolbox/storage/plates', { name }).expect(201)).body;
      const res = await getFile(lab, `/api/lab-toolbox/storage/plates/${plate.id}/label/pdf`, { layout: 'thermal' }).expect(200);
      expect(pdfBarcodes(res.body)).to.deep.equal([[]]); // zbar reads no DataMatrix: no Code 128 squeezed unreadably either
      expect(pdfText(res.body)).to.contain('Storage plate');
      const zpl = await lab.agent.get(`/api/lab-toolbox/storage/plates/${plate.id}/label/zpl`).expect(200);
      expect(zpl.text).to.contain(`^BXN,5,200^FH_^FD${name}^FS`).and.not.contain('^BC');
    });

    it("a PCR plate's label: its name, samples and controls", async () => {
      const name = `PCR-${Date.now().toString(36).toUpperCase()}`;
      const plate = await t.ctx.db.models.PcrPlate.create({ name, createdByUserId: await userId(t.ctx.db, 'lab1') });
      await t.ctx.db.models.PcrPlateWell.create({ plateId: plate.id, well: 'A1', label: 'POS PCR CTRL', controlKind: 'positive', sampleId: null, testId: null });
      const res = await getFile(lab, `/api/lab-toolbox/pcr/plates/${plate.id}/label/pdf`, { start: 2 }).expect(200);
      expect(pdfBarcodes(res.body)).to.deep.equal([[`CODE-128:${name}`]]);
      expect(pdfText(res.body)).to.contain('PCR plate').and.contain('0 samples, 1 control');
      const zpl = await lab.agent.get(`/api/lab-toolbox/pcr/plates/${plate.id}/label/zpl`).expect(200);
      expect(zpl.text).to.match(new RegExp(`\\^BCN,\\d+,N,N,N,A\\^FH_\\^FD${name}\\^FS`));
      await getFile(lab, `/api/lab-toolbox/pcr/plates/${plate.id}/label/pdf`, { start: 99 }).expect(400);
    });
  });

  describe("a clinic's shipment label", () => {
    let shipment: { id: number; externalOrderId: string };
    before(async () => {
      const patient = await addPatient(clinic);
      const orders = [await placeOrder(clinic, patient.id), await placeOrder(clinic, patient.id)];
      shipment = (await clinic.session.post(clinic.api('shipments/create'), { sampleIds: orders.map((o) => o.sampleId) }).expect(201)).body;
    });

    it('carries the shipment order id as a Code 128 barcode, the clinic and how many kits; no patient data', async () => {
      const res = await getFile(clinic.session, clinic.api(`shipments/${shipment.id}/label/pdf`)).expect(200);
      expect(pdfBarcodes(res.body)).to.deep.equal([[`CODE-128:${shipment.externalOrderId}`]]);
      expect(pdfText(res.body)).to.contain(clinic.name).and.contain('2 kits').and.not.contain('Pat');
      const zpl = await clinic.session.agent.get(clinic.api(`shipments/${shipment.id}/label/zpl`)).expect(200);
      expect(zpl.text).to.contain(`^FD${shipment.externalOrderId}^FS`);
    });

    it("is not found for another account's provider, nor under another account's address", async () => {
      await getFile(other.session, other.api(`shipments/${shipment.id}/label/pdf`)).expect(404);
      await other.session.agent.get(other.api(`shipments/${shipment.id}/label/zpl`)).expect(404);
      await getFile(other.session, clinic.api(`shipments/${shipment.id}/label/pdf`)).expect(404);
      await getFile(lab, clinic.api(`shipments/${shipment.id}/label/pdf`)).expect(403);
    });

    it('refuses a bad start naming it', async () => {
      const res = await getFile(clinic.session, clinic.api(`shipments/${shipment.id}/label/pdf`), { start: 31 }).expect(400);
      expect(fieldOf(res).fields).to.deep.equal([{ field: 'start', message: LABEL_START_RULE }]);
    });
  });
});
