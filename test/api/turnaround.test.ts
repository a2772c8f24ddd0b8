/**
 * Turnaround (issue 30, part 4) against a hand-computed fixture: samples with status events at
 * known times in March 2019 (no other test writes events then), in two clinics. The figures below
 * are worked out by hand (percentile_cont: the value at position p·(n−1) of the sorted durations,
 * interpolated between its neighbours).
 */
import { expect } from 'chai';
import { randomInt } from 'node:crypto';
import { catalogueEntry, LabMeasure, ClinicMeasure, Portal, RejectionReason, SampleStatus, SampleType, TestOrigin, type TestName } from '@platform/domain';
import { labTurnaround } from '@platform/server';
import { buildTestApp, signIn, type Session, type TestApp } from '../support/http';
import { createClinic, freshBarcode, signInAs, type Clinic } from '../support/fixtures/reports';

const S = SampleStatus;
const RANGE = 'from=2019-03-04&to=2019-03-17';
const NOW = new Date('2019-03-18T00:00:00Z');
const at = (day: string, time = '00:00') => `2019-${day}T${time}:00Z`;

describe('turnaround (API)', function () {
  this.timeout(60_000);
  let t: TestApp;
  let clinic: Clinic;
  let other: Clinic;
  let lab: Session;
  let admin: Session;
  let provider: Session;
  let otherProvider: Session;
  const barcodes: Record<string, string> = {};

  /** A sample of `c` for `test`, in `status`, with its status events [from, to, when, reason?]. */
  async function sample(key: string, c: Clinic, test: TestName, status: SampleStatus, events: [SampleStatus | null, SampleStatus, string, string?][], extra: { statusBeforeStorage?: SampleStatus; rejectionReason?: string } = {}) {
    const m = t.ctx.db.models;
    const p = await m.Patient.create({ accountId: c.account.id, firstName: 'Tat', lastName: `Fixture${key}`, dateOfBirth: '1950-01-01', sex: 'M' });
    const order = await m.Order.create({
      orderNumber: `RF_${String(randomInt(0, 10 ** 9)).padStart(9, '0')}`, accountId: c.account.id, patientId: p.id, physicianId: c.physician.id,
      origin: TestOrigin.ProviderOrdered, portal: Portal.Clinical, createdByUserId: null,
      attestations: { medicalNecessity: true, informedConsent: true, reimbursementClaim: true, supportingDocumentation: true },
    });
    const barcode = freshBarcode();
    barcodes[key] = barcode;
    const s = await m.Sample.create({
      barcode, sampleType: SampleType.BuccalSwab, status, statusBeforeStorage: extra.statusBeforeStorage ?? null, accountId: c.account.id, patientId: p.id, orderId: order.id,
      ...(extra.rejectionReason ? { rejectionReason: extra.rejectionReason as RejectionReason } : {}),
    });
    await m.Test.create({ orderId: order.id, sampleId: s.id, name: test, parentType: catalogueEntry(test).parentType });
    for (const [from, to, when, reason] of events) {
      await t.ctx.db.sequelize.query(
        `INSERT INTO sample_status_events (sample_id, from_status, to_status, reason, actor_kind, created_at) VALUES (:id, :from, :to, :reason, 'lab', :when)`,
        { replacements: { id: s.id, from, to, reason: reason ?? null, when } },
      );
    }
    return s.id;
  }

  before(async () => {
    // The fixture's figures were worked out on UTC days and weeks; the lab's zone has its own test below.
    t = await buildTestApp({ LAB_TIME_ZONE: 'UTC' });
    clinic = await createClinic(t.ctx.db, 'tat');
    other = await createClinic(t.ctx.db, 'tat-other');
    lab = await signIn(t.app, 'lab1', 'lab', '10.30.4.1');
    admin = await signIn(t.app, 'admin', 'admin', '10.30.4.2');
    provider = await signInAs(t.app, clinic.email, 'provider', '10.30.4.3');
    otherProvider = await signInAs(t.app, other.email, 'provider', '10.30.4.4');
    const UA: TestName = 'PROSTOX ultra';
    const KRAS: TestName = 'KRAS';
    // Clinic one, PROSTOX ultra. Receipt → result: A 72 h, B 24, C 48 (week of 4 March); D 36, E 60, F 96, G 12 (week of 11 March).
    await sample('A', clinic, UA, S.Completed, [
      [S.PendingShipment, S.InTransit, at('02-27')], [S.InTransit, S.InQueue, at('03-01')], [S.InQueue, S.InTesting, at('03-02')],
      [S.InTesting, S.Resulted, at('03-04')], [S.Resulted, S.Completed, at('03-04', '12:00')],
      // Stored and taken out: not a second release.
      [S.Completed, S.InStorage, at('03-15')], [S.InStorage, S.Completed, at('03-16')],
    ]);
    await sample('B', clinic, UA, S.Completed, [
      [S.PendingShipment, S.InTransit, at('03-02')], [S.InTransit, S.InQueue, at('03-04')], [S.InTesting, S.Resulted, at('03-05')], [S.Resulted, S.Completed, at('03-06')],
    ]);
    await sample('C', clinic, UA, S.Resulted, [
      [S.PendingShipment, S.InQueue, at('03-04')], [S.InTesting, S.Resulted, at('03-06')],
      [S.Resulted, S.InStorage, at('03-15')], [S.InStorage, S.Resulted, at('03-16')],
    ]);
    await sample('D', clinic, UA, S.Resulted, [[S.InTransit, S.InQueue, at('03-10')], [S.InTesting, S.Resulted, at('03-11', '12:00')]]);
    await sample('E', clinic, UA, S.Resulted, [[S.InTransit, S.InQueue, at('03-09')], [S.InTesting, S.Resulted, at('03-11', '12:00')]]);
    await sample('F', clinic, UA, S.Resulted, [[S.InTransit, S.InQueue, at('03-10')], [S.InTesting, S.Resulted, at('03-14')]]);
    await sample('G', clinic, UA, S.Resulted, [[S.InTransit, S.InQueue, at('03-13')], [S.InTesting, S.Resulted, at('03-13', '12:00')]]);
    // KRAS: H 54 h (week of 4 March).
    await sample('H', clinic, KRAS, S.Resulted, [[S.InTransit, S.InQueue, at('03-05')], [S.InTesting, S.Resulted, at('03-07', '06:00')]]);
    // Open: I In Testing since 15 March 06:00 (received 15 March), J In Queue (received 17 March 12:00).
    await sample('I', clinic, UA, S.InTesting, [[S.InTransit, S.InQueue, at('03-15')], [S.InQueue, S.InTesting, at('03-15', '06:00')]]);
    await sample('J', clinic, UA, S.InQueue, [[S.InTransit, S.InQueue, at('03-17', '12:00')]]);
    // Rejected: K (received 5 March, rejected 6 March), L and M never received; N before the range.
    await sample('K', clinic, UA, S.Rejected, [[S.InTransit, S.InQueue, at('03-05', '12:00')], [S.InQueue, S.Rejected, at('03-06'), RejectionReason.QuantityNotSufficient]], { rejectionReason: RejectionReason.QuantityNotSufficient });
    await sample('L', clinic, UA, S.Rejected, [[S.InTransit, S.Rejected, at('03-12'), RejectionReason.IdentificationMismatch]], { rejectionReason: RejectionReason.IdentificationMismatch });
    await sample('M', clinic, UA, S.Rejected, [[S.InTransit, S.Rejected, at('03-13'), RejectionReason.QuantityNotSufficient]], { rejectionReason: RejectionReason.QuantityNotSufficient });
    await sample('N', clinic, UA, S.Rejected, [[S.InTransit, S.Rejected, at('02-20'), RejectionReason.SpecimenExpired]], { rejectionReason: RejectionReason.SpecimenExpired });
    // The other clinic: O KRAS 24 h (week of 11 March), P open since 1 March, Q rejected 7 March.
    await sample('O', other, KRAS, S.Resulted, [[S.InTransit, S.InQueue, at('03-11')], [S.InTesting, S.Resulted, at('03-12')]]);
    await sample('P', other, UA, S.InQueue, [[S.InTransit, S.InQueue, at('03-01')]]);
    await sample('Q', other, UA, S.Rejected, [[S.InTransit, S.Rejected, at('03-07'), RejectionReason.QuantityNotSufficient]], { rejectionReason: RejectionReason.QuantityNotSufficient });
    // The admin's target: PROSTOX ultra, 2 days.
    await admin.put('/api/admin/turnaround/targets', { testName: UA, amount: 2, unit: 'days' }).expect(200);
  });
  after(async () => {
    await t?.ctx.db.sequelize.query('DELETE FROM turnaround_targets');
    await t?.close();
  });

  type Row = { testName: string; measure: string; week: string | null; samples: number; medianHours: number | null; p90Hours: number | null };
  const row = (rows: Row[], testName: string, measure: string, week: string | null) =>
    rows.find((r) => r.testName === testName && r.measure === measure && r.week === week);
  const figures = (r: { samples: number; medianHours: number | null; p90Hours: number | null } | undefined) => r && [r.samples, r.medianHours, r.p90Hours];

  it('the lab: medians and 90th percentiles per test and week, and over the range', async () => {
    const res = await lab.agent.get(`/api/lab-toolbox/turnaround?${RANGE}`).expect(200);
    const rows = res.body.turnaround;
    expect(res.body).to.include({ from: '2019-03-04', to: '2019-03-17', timeZone: 'UTC' });
    const R = LabMeasure.ReceiptToResult;
    // [24, 48, 72]: median 48, p90 at 1.8 → 48 + 0.8·24 = 67.2
    expect(figures(row(rows, 'PROSTOX ultra', R, '2019-03-04'))).to.deep.equal([3, 48, 67.2]);
    // [12, 36, 60, 96]: median (36 + 60) / 2 = 48, p90 at 2.7 → 60 + 0.7·36 = 85.2
    expect(figures(row(rows, 'PROSTOX ultra', R, '2019-03-11'))).to.deep.equal([4, 48, 85.2]);
    // [12, 24, 36, 48, 60, 72, 96]: median 48, p90 at 5.4 → 72 + 0.4·24 = 81.6
    expect(figures(row(rows, 'PROSTOX ultra', R, null))).to.deep.equal([7, 48, 81.6]);
    // Receipt → release: A 84 h, B 48 h (A's return from storage is no second release): median 66, p90 48 + 0.9·36 = 80.4
    expect(figures(row(rows, 'PROSTOX ultra', LabMeasure.ReceiptToRelease, null))).to.deep.equal([2, 66, 80.4]);
    // KRAS across both clinics: H 54 (week of 4 March), O 24 (week of 11 March): median 39, p90 24 + 0.9·30 = 51
    expect(figures(row(rows, 'KRAS', R, '2019-03-04'))).to.deep.equal([1, 54, 54]);
    expect(figures(row(rows, 'KRAS', R, null))).to.deep.equal([2, 39, 51]);
  });

  it('the lab: throughput per day, rejections by reason, samples past the target', async () => {
    const res = await lab.agent.get(`/api/lab-toolbox/turnaround?${RANGE}`).expect(200);
    const day = (d: string) => res.body.throughput.find((r: { day: string }) => r.day === d);
    expect(res.body.throughput).to.have.length(14);
    expect(day('2019-03-04')).to.deep.equal({ day: '2019-03-04', received: 2, resulted: 1, rejected: 0 });
    expect(day('2019-03-05')).to.deep.equal({ day: '2019-03-05', received: 2, resulted: 1, rejected: 0 });
    expect(day('2019-03-11')).to.deep.equal({ day: '2019-03-11', received: 1, resulted: 2, rejected: 0 });
    expect(day('2019-03-13')).to.deep.equal({ day: '2019-03-13', received: 1, resulted: 1, rejected: 1 });
    expect(day('2019-03-16')).to.deep.equal({ day: '2019-03-16', received: 0, resulted: 0, rejected: 0 });
    expect(res.body.rejections).to.deep.equal([
      { reason: RejectionReason.QuantityNotSufficient, samples: 3 },
      { reason: RejectionReason.IdentificationMismatch, samples: 1 },
      { reason: RejectionReason.SpecimenExpired, samples: 0 },
      { reason: RejectionReason.SampleNotReceived, samples: 0 },
    ]);
    // Resulted later than 48 h: 72, 60 and 96 of seven.
    const ua = res.body.overdue.find((r: { testName: string }) => r.testName === 'PROSTOX ultra');
    expect(ua).to.include({ targetHours: 48, resulted: 7, resultedPastTarget: 3 });
    // Open on 18 March: I (72 h since receipt), J (12 h), P of the other clinic (17 days): two past 48 h.
    const atNow = await labTurnaround(t.ctx, { from: '2019-03-04', to: '2019-03-17' }, NOW);
    expect(atNow.overdue.find((r) => r.testName === 'PROSTOX ultra')).to.include({ open: 3, openPastTarget: 2 });
  });

  it('days and weeks are the lab’s (LAB_TIME_ZONE), across the switch to daylight saving time', async () => {
    // March 2018 (no other test writes events then); New York moved to EDT on Sunday 11 March.
    // Received Friday 9 March 11:00 PM EST (10 March 04:00 UTC); resulted Sunday 11 March 11:30 PM
    // EDT (12 March 03:30 UTC): 47.5 hours, in the lab's week of Monday 5 March (in UTC: 12 March).
    await sample('DST', clinic, 'KRAS', S.Resulted, [
      [S.InTransit, S.InQueue, '2018-03-10T04:00:00Z'], [S.InQueue, S.InTesting, '2018-03-11T15:00:00Z'], [S.InTesting, S.Resulted, '2018-03-12T03:30:00Z'],
    ]);
    const inZone = (labTimeZone: string) => labTurnaround({ ...t.ctx, config: { ...t.ctx.config, labTimeZone } }, { from: '2018-03-05', to: '2018-03-18' }, new Date('2018-03-19T12:00:00Z'));
    const newYork = await inZone('America/New_York');
    expect(newYork.timeZone).to.equal('America/New_York');
    expect(figures(row(newYork.turnaround, 'KRAS', LabMeasure.ReceiptToResult, '2018-03-05'))).to.deep.equal([1, 47.5, 47.5]);
    expect(row(newYork.turnaround, 'KRAS', LabMeasure.ReceiptToResult, '2018-03-12')).to.equal(undefined);
    const nyDay = (d: string) => newYork.throughput.find((r) => r.day === d);
    expect(nyDay('2018-03-09')).to.include({ received: 1 });
    expect(nyDay('2018-03-11')).to.include({ resulted: 1 });
    // The same events on UTC days: the week of 12 March, received the 10th, resulted the 12th.
    const utc = await inZone('UTC');
    expect(figures(row(utc.turnaround, 'KRAS', LabMeasure.ReceiptToResult, '2018-03-12'))).to.deep.equal([1, 47.5, 47.5]);
    expect(utc.throughput.find((r) => r.day === '2018-03-10')).to.include({ received: 1 });
    expect(utc.throughput.find((r) => r.day === '2018-03-12')).to.include({ resulted: 1 });
  });

  it('the clinic: its own samples only, shipped → received → resulted, overdue with where each is', async () => {
    const res = await provider.agent.get(`/api/provider-clinic/${clinic.account.id}/turnaround?${RANGE}`).expect(200);
    const rows = res.body.turnaround;
    expect(figures(row(rows, 'PROSTOX ultra', ClinicMeasure.ShippedToReceived, null))).to.deep.equal([1, 48, 48]);
    // A 120 h, B 72 h: median 96, p90 72 + 0.9·48 = 115.2
    expect(figures(row(rows, 'PROSTOX ultra', ClinicMeasure.ShippedToResulted, null))).to.deep.equal([2, 96, 115.2]);
    expect(figures(row(rows, 'PROSTOX ultra', ClinicMeasure.ReceivedToResulted, null))).to.deep.equal([7, 48, 81.6]);
    // KRAS: only H; the other clinic's O is never counted.
    expect(figures(row(rows, 'KRAS', ClinicMeasure.ReceivedToResulted, null))).to.deep.equal([1, 54, 54]);
    expect(res.body.rejections.map((r: { samples: number }) => r.samples)).to.deep.equal([2, 1, 0, 0]);
    // Overdue today: I (In Testing since 15 March 06:00) and J (In Queue since 17 March 12:00), oldest receipt first; never P.
    expect(res.body.overdue.map((o: { barcode: string; status: string; since: string; testNames: string[]; targetHours: number }) => [o.barcode, o.status, o.since, o.testNames, o.targetHours])).to.deep.equal([
      [barcodes.I, 'In Testing', '2019-03-15T06:00:00.000Z', ['PROSTOX ultra'], 48],
      [barcodes.J, 'In Queue', '2019-03-17T12:00:00.000Z', ['PROSTOX ultra'], 48],
    ]);

    const theirs = await otherProvider.agent.get(`/api/provider-clinic/${other.account.id}/turnaround?${RANGE}`).expect(200);
    expect(figures(row(theirs.body.turnaround, 'KRAS', ClinicMeasure.ReceivedToResulted, null))).to.deep.equal([1, 24, 24]);
    expect(row(theirs.body.turnaround, 'PROSTOX ultra', ClinicMeasure.ReceivedToResulted, null)).to.equal(undefined);
    expect(theirs.body.overdue.map((o: { barcode: string }) => o.barcode)).to.deep.equal([barcodes.P]);
  });

  it('another account’s id answers 404; a lab page refuses a provider; a bad range names its field', async () => {
    await provider.agent.get(`/api/provider-clinic/${other.account.id}/turnaround`).expect(404);
    await provider.agent.get(`/api/provider-clinic/${other.account.id}/turnaround/export.csv?table=overdue`).expect(404);
    await provider.agent.get('/api/lab-toolbox/turnaround').expect(403);
    const bad = await lab.agent.get('/api/lab-toolbox/turnaround?from=2019-03-20&to=2019-03-01').expect(400);
    expect(JSON.stringify(bad.body)).to.contain('from');
    const day = await lab.agent.get('/api/lab-toolbox/turnaround?to=2019-02-30').expect(400);
    expect(JSON.stringify(day.body)).to.contain('to');
  });

  it('CSV export of each table', async () => {
    const csv = async (table: string) => (await lab.agent.get(`/api/lab-toolbox/turnaround/export.csv?table=${table}&${RANGE}`).expect(200).expect('content-type', /text\/csv/)).text;
    const turnaround = await csv('turnaround');
    expect(turnaround.split('\r\n')[0]).to.equal('test,measure,week_starting,samples,median_hours,p90_hours');
    expect(turnaround).to.contain('PROSTOX ultra,Receipt → result,whole range,7,48,81.6\r\n');
    expect(turnaround).to.contain('PROSTOX ultra,Receipt → result,2019-03-11,4,48,85.2\r\n');
    expect(await csv('throughput')).to.contain('2019-03-13,1,1,1\r\n');
    expect(await csv('rejections')).to.contain(`${RejectionReason.QuantityNotSufficient},3\r\n`);
    expect(await csv('overdue')).to.match(/^test,target_hours,open,open_past_target,resulted,resulted_past_target\r\n/);
    const mine = (await provider.agent.get(`/api/provider-clinic/${clinic.account.id}/turnaround/export.csv?table=overdue&${RANGE}`).expect(200)).text;
    expect(mine).to.contain(`${barcodes.I},PROSTOX ultra,In Testing,2019-03-15T06:00:00.000Z`);
    expect(mine).not.to.contain(barcodes.P);
  });

  it('targets: the admin only, a bad target refused naming its field, each change audited with old and new values', async () => {
    const list = await admin.agent.get('/api/admin/turnaround/targets').expect(200);
    expect(list.body.find((r: { testName: string }) => r.testName === 'PROSTOX ultra')).to.include({ amount: 2, unit: 'days', hours: 48 });
    expect(list.body.find((r: { testName: string }) => r.testName === 'KRAS')).to.include({ amount: null, hours: null });
    expect(list.body.map((r: { testName: string }) => r.testName)).not.to.include('DNA Extraction');
    await lab.put('/api/admin/turnaround/targets', { testName: 'KRAS', amount: 3, unit: 'days' }).expect(403);
    await provider.put('/api/admin/turnaround/targets', { testName: 'KRAS', amount: 3, unit: 'days' }).expect(403);
    for (const [body, field] of [
      [{ testName: 'KRAS', amount: 0, unit: 'days' }, 'amount'],
      [{ testName: 'KRAS', amount: 91, unit: 'days' }, 'amount'],
      [{ testName: 'KRAS', amount: 1.5, unit: 'hours' }, 'amount'],
      [{ testName: 'KRAS', amount: 5, unit: 'weeks' }, 'unit'],
      [{ testName: 'DNA Extraction', amount: 5, unit: 'days' }, 'testName'],
    ] as const) {
      const res = await admin.put('/api/admin/turnaround/targets', body).expect(400);
      expect(JSON.stringify(res.body), JSON.stringify(body)).to.contain(`"${field}"`);
    }
    const put = await admin.put('/api/admin/turnaround/targets', { testName: 'PROSTOX ultra', amount: 36, unit: 'hours' }).expect(200);
    expect(put.body).to.include({ amount: 36, unit: 'hours', hours: 36 });
    const [audit] = await t.ctx.db.models.AuditEvent.findAll({ where: { action: 'turnaround_target.updated' }, order: [['id', 'DESC']], limit: 1 });
    expect(audit.details).to.deep.include({ testName: 'PROSTOX ultra', old: { amount: 2, unit: 'days' }, new: { amount: 36, unit: 'hours' } });
    await admin.put('/api/admin/turnaround/targets', { testName: 'PROSTOX ultra', amount: 2, unit: 'days' }).expect(200);
  });
});
