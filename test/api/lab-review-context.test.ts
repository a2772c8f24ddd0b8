/**
 * The review list's context (issue 30, item 3): each row carries the sample's QC (its DNA
 * extraction's values and flags, its plate's controls), the patient's earlier released results of
 * the same test with whether the value changed, and the specimen (type, collected, received, age at
 * testing); a result whose QC blocks release cannot be approved, with the release rule's words —
 * and the whole page is read in one statement.
 */
import { expect } from 'chai';
import { DEMO_PASSWORD } from '../../scripts/demo-users';
import { buildTestApp, signIn, type Session, type TestApp } from '../support/http';
import { makeResult, makeSample, SampleStatus, TestName, TestResultStatus, userId } from '../support/fixtures/lab';

const LOW = 'Concentration 6.5 ng/µL is below 10 ng/µL';

describe('lab toolbox: the review list shows the context to decide', function () {
  this.timeout(60_000);
  let t: TestApp;
  let lab2: Session;
  let lab1Id: number;
  let lab2Id: number;

  before(async () => {
    t = await buildTestApp();
    lab2 = await signIn(t.app, 'lab2', 'lab');
    lab1Id = await userId(t.ctx.db, 'lab1');
    lab2Id = await userId(t.ctx.db, 'lab2');
  });
  after(() => t.close());

  /** A committed DNA extraction import, as the worker leaves one. */
  async function extractionJob(): Promise<number> {
    const job = await t.ctx.db.models.Job.create({ name: 'lab-import', status: 'Completed', payload: { kind: 'dna-extraction', mode: 'commit' } as object, createdByUserId: lab1Id, finishedAt: new Date() });
    return job.id;
  }

  it('a flagged extraction and an earlier released result on the row; the result cannot be approved and says why', async () => {
    const db = t.ctx.db;
    // The patient's earlier sample: PROSTOX ultra released as Low-Average Risk.
    const before = await makeSample(db, { status: SampleStatus.InTesting, tests: [TestName.ProstoxUltra] });
    const released = await makeResult(db, before.testIds[0], 'Low-Average Risk', lab1Id, { status: TestResultStatus.Released, reviewedBy: lab2Id });
    // Their new sample (the same patient), collected 30 hours before it went In Testing.
    const now = await makeSample(db, { status: SampleStatus.InTesting, tests: [TestName.ProstoxUltra, TestName.DnaExtraction] });
    await db.sequelize.query('UPDATE orders SET patient_id = :p WHERE id = (SELECT order_id FROM samples WHERE id = :s)', { replacements: { p: before.patientId, s: now.id } });
    await db.sequelize.query('UPDATE samples SET patient_id = :p WHERE id = :s', { replacements: { p: before.patientId, s: now.id } });
    const [{ tested }] = await db.sequelize.query<{ tested: Date }>(
      `SELECT min(created_at) AS tested FROM sample_status_events WHERE sample_id = :s AND to_status = 'In Testing'`, { replacements: { s: now.id }, type: 'SELECT' as never },
    ) as unknown as { tested: Date }[];
    const collectedAt = new Date(new Date(tested).getTime() - 30 * 3_600_000);
    const receivedAt = new Date(new Date(tested).getTime() - 2 * 3_600_000);
    await db.sequelize.query(`UPDATE samples SET collected_at = :collectedAt, received_at = :receivedAt, condition = 'insufficient', condition_note = 'Half the swab volume' WHERE id = :s`,
      { replacements: { collectedAt, receivedAt, s: now.id } });
    // Its DNA extraction, outside the acceptance range, waits for review and a decision.
    const exResult = await makeResult(db, now.testIds[1], 'Concentration 6.5 ng/µL; A260/280 1.8; volume 40 µL (EX-51 C1)', lab1Id);
    await db.models.DnaExtraction.create({
      sampleId: now.id, label: now.barcode, testResultId: exResult.id, importJobId: await extractionJob(), fileRow: 3,
      concentrationNgPerUl: 6.5, a260280: 1.8, volumeUl: 40, plate: 'EX-51', well: 'C1', flags: [LOW],
    });
    const risk = await makeResult(db, now.testIds[0], 'High Risk', lab1Id);

    const res = await lab2.agent.get(`/api/lab-toolbox/get-review-list?barcode=${now.barcode}`).expect(200);
    const row = res.body.find((r: { id: number }) => r.id === risk.id);
    const held = `The PROSTOX ultra result of sample ${now.barcode} cannot be released: its DNA extraction ${now.barcode} is outside the acceptance range (${LOW}) and waits for a decision`;
    expect([row.canApprove, row.cannotApprove]).to.deep.equal([false, held]);
    expect(row.context.extraction).to.deep.equal({
      label: now.barcode, concentration: 6.5, a260280: 1.8, volume: 40, plate: 'EX-51', well: 'C1', flags: [LOW], qc: 'flagged', own: false,
    });
    expect(row.context.earlier).to.have.length(1);
    expect(row.context.earlier[0]).to.deep.include({ resultId: released.id, barcode: before.barcode, value: 'Low-Average Risk', sameSample: false });
    expect(row.context.earlier[0].releasedAt).to.be.a('string');
    expect(row.context.changedFromLast).to.equal(true);
    expect(row.context.specimen).to.deep.equal({
      sampleType: 'Buccal Swab', condition: 'insufficient', conditionNote: 'Half the swab volume', collectedAt: collectedAt.toISOString(), receivedAt: receivedAt.toISOString(), testedAt: new Date(tested).toISOString(), ageAtTestingHours: 30,
    });
    expect(row.context.controls).to.deep.equal([]);

    // The extraction's own result: its values, flagged, and no Approve either (the rule's own words).
    const own = res.body.find((r: { id: number }) => r.id === exResult.id);
    expect(own.context.extraction).to.deep.include({ own: true, qc: 'flagged', flags: [LOW] });
    expect(own.canApprove).to.equal(false);
    expect(own.cannotApprove).to.equal(`The DNA extraction of ${now.barcode} is outside the acceptance range (${LOW}): send it to re-extraction or reject the sample instead`);
    expect(own.context.earlier).to.deep.equal([]);
    expect(own.context.changedFromLast).to.equal(null);

    // Approving it anyway is refused with the same words: the release rule decides once.
    const refused = await lab2.post('/api/lab-toolbox/approve-tests-cancer', { password: DEMO_PASSWORD, resultIds: [risk.id] }).expect(409);
    expect(refused.body.error.message).to.equal(held);
  });

  it('an unchanged value is not marked changed; a plate result carries its controls and their outcome', async () => {
    const db = t.ctx.db;
    const before = await makeSample(db, { status: SampleStatus.InTesting, tests: [TestName.Kras] });
    await makeResult(db, before.testIds[0], 'T/T negative', lab1Id, { status: TestResultStatus.Released, reviewedBy: lab2Id });
    const now = await makeSample(db, { status: SampleStatus.InTesting, tests: [TestName.Kras] });
    await db.sequelize.query('UPDATE samples SET patient_id = :p WHERE id = :s', { replacements: { p: before.patientId, s: now.id } });
    const same = await makeResult(db, now.testIds[0], 'T/T negative', lab1Id);
    const kras = (await lab2.agent.get(`/api/lab-toolbox/get-review-list?barcode=${now.barcode}`).expect(200)).body[0];
    expect(kras.id).to.equal(same.id);
    expect([kras.context.changedFromLast, kras.context.earlier.map((e: { value: string }) => e.value)]).to.deep.equal([false, ['T/T negative']]);
    expect([kras.context.specimen.condition, kras.context.specimen.collectedAt, kras.context.specimen.ageAtTestingHours]).to.deep.equal([null, null, null]);

    const s = await makeSample(db, { status: SampleStatus.InQueue, tests: [TestName.CovidPcr] });
    const lab1 = await signIn(t.app, 'lab1', 'lab');
    const plate = await lab1.post('/api/lab-toolbox/pcr/plates', {
      name: `CTX-${s.barcode.slice(-6)}`, wells: [{ well: 'A1', barcode: 'POS PCR CTRL' }, { well: 'B1', barcode: 'NEG PCR CTRL' }, { well: 'C1', barcode: s.barcode }],
    }).expect(201);
    await lab1.post(`/api/lab-toolbox/pcr/plates/${plate.body.id}/results`, {
      results: [{ well: 'A1', result: 'DETECTED' }, { well: 'B1', result: 'DETECTED' }, { well: 'C1', result: 'NOT DETECTED' }],
    }).expect(200);
    const pcr = (await lab2.agent.get(`/api/lab-toolbox/get-review-list?plateId=${plate.body.id}`).expect(200)).body[0];
    expect(pcr.plate).to.deep.include({ well: 'C1', controlsPassed: false });
    expect(pcr.context.controls).to.deep.equal([
      { well: 'A1', label: 'POS PCR CTRL', kind: 'positive', result: 'DETECTED', expected: 'DETECTED', passed: true },
      { well: 'B1', label: 'NEG PCR CTRL', kind: 'negative', result: 'DETECTED', expected: 'NOT DETECTED', passed: false },
    ]);
    expect([pcr.canApprove, pcr.cannotApprove]).to.deep.equal([false, `Plate ${plate.body.name} cannot be released: its controls failed (the negative control NEG PCR CTRL in B1 is DETECTED (expected NOT DETECTED))`]);
  });

  it('a page of the list, context and all, is one statement (no query per row)', async () => {
    const db = t.ctx.db;
    const pool = db.preparedPool();
    const statements: string[] = [];
    const query = pool.query.bind(pool);
    const hook = (_options: unknown, q: { sql?: string }) => {
      if (/test_results|dna_extractions|pcr_plate_wells/.test(String(q.sql ?? ''))) statements.push(String(q.sql));
    };
    (pool as { query: unknown }).query = (...args: Parameters<typeof pool.query>) => {
      statements.push(String((args[0] as { text?: string }).text ?? args[0]));
      return (query as (...a: unknown[]) => unknown)(...args);
    };
    db.sequelize.addHook('afterQuery', 'count-review-queries', hook as never);
    let res;
    try {
      res = await lab2.agent.get('/api/lab-toolbox/get-review-list?pageSize=50').expect(200);
    } finally {
      db.sequelize.removeHook('afterQuery', 'count-review-queries');
      (pool as { query: unknown }).query = query;
    }
    expect(res.body.length).to.be.at.least(4);
    expect(statements, statements.join('\n---\n')).to.have.length(1);
  });
});
