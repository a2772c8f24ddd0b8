/**
 * Orders from an EHR as HL7 ORM^O01 over MLLP (issue 28, item 3), sent to the real listener
 * (worker/src/hl7-listener.ts) by the MLLP client: an order the clinic then sees on its Pending
 * list, the patient matched by the EHR's id and never by name, a resent message answered once,
 * and every refusal an AE or AR naming the field, creating nothing. Every ACK is checked by the
 * independent hl7v2 library.
 */
import { expect } from 'chai';
import { Hl7Message } from '@medplum/core';
import { QueryTypes } from 'sequelize';
import { Hl7Client } from '@medplum/hl7';
import { buildAck, readAck, startMllpListener, type Ack, type MllpListener } from '@platform/server';
import { startHl7Listener, type RunningHl7Listener } from '@platform/worker';
import { buildTestApp, signIn, type Session, type TestApp } from '../support/http';
import { testConfig } from '../support/server';
import { expectValidHl7 } from '../support/hl7-validator';

const FACILITY = 'RIVERSIDE EHR';
const REYES_NPI = '1987654321';

/** An ORM^O01 as an EHR writes one (test data: the text an EHR would send). */
function orm(o: { controlId: string; facility?: string; mrn?: string; family?: string; given?: string; dob?: string; test?: string; npi?: string; specimen?: string }): Hl7Message {
  const segments = [
    `MSH|^~\\&|EPIC|${o.facility ?? FACILITY}|LAB|LAB|20261128100000||ORM^O01^ORM_O01|${o.controlId}|P|2.5.1`,
    `PID|1||${o.mrn ?? 'MRN-1'}^^^RIVERSIDE^MR||${o.family ?? 'Doe'}^${o.given ?? 'Jane'}||${o.dob ?? '19700101'}|F|||1 Main St^^Springfield^IL^62701^USA`,
    `ORC|NW|EHR-${o.controlId}||||||||||${o.npi ?? REYES_NPI}^Reyes^Omar^^^^^^NPI`,
    `OBR|1|EHR-${o.controlId}||${o.test ?? 'PROSTOX-ULTRA^PROSTOX ultra^L'}|||||||||||${o.specimen ?? '^Buccal Swab'}|${o.npi ?? REYES_NPI}^Reyes^Omar`,
  ];
  return Hl7Message.parse(segments.join('\r'));
}

describe('orders from an EHR as HL7 ORM^O01 over MLLP', function () {
  this.timeout(60_000);
  let t: TestApp;
  let listener: RunningHl7Listener;
  let ehr: MllpListener;
  let admin: Session;
  let physician: Session;
  let riversideId: number;
  const serial = Date.now().toString(36);

  before(async () => {
    t = await buildTestApp();
    listener = await startHl7Listener(testConfig({ HL7_PORT: '0' }));
    // Riverside's EHR also takes its results while this file runs: a listener that answers AA.
    ehr = await startMllpListener({ port: 0, onMessage: (m) => buildAck(m, { code: 'AA' }) });
    admin = await signIn(t.app, 'admin', 'admin', '10.83.0.1');
    physician = await signIn(t.app, 'physician', 'provider', '10.83.0.2');
    riversideId = (await t.ctx.db.models.Account.findOne({ where: { name: 'Riverside Oncology' } }))!.id;
    await admin.put(`/api/admin/accounts/${riversideId}/hl7-interface`, {
      enabled: true, host: '127.0.0.1', port: ehr.port, receivingApplication: 'EPIC', receivingFacility: 'RIVERSIDE', sendingFacilityOfOrders: FACILITY,
    }).expect(200);
  });
  after(async () => {
    if (riversideId) await t.ctx.db.sequelize.query('DELETE FROM hl7_interfaces WHERE account_id = :riversideId', { replacements: { riversideId } });
    await listener?.close();
    await ehr?.close();
    await t?.close();
  });

  /** Sends an ORM to the listener as an EHR's MLLP client would; its ACK, checked by hl7v2, and read. */
  async function send(message: Hl7Message): Promise<{ ack: Ack }> {
    const client = new Hl7Client({ host: '127.0.0.1', port: listener.port });
    try {
      const answer = await client.sendAndWait(message);
      expectValidHl7(answer.toString());
      return { ack: readAck(answer) };
    } finally {
      await client.close();
    }
  }
  const ordersOfMrn = async (mrn: string) => {
    const [{ n }] = await t.ctx.db.sequelize.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM orders o JOIN patients p ON p.id = o.patient_id WHERE p.medical_record_number = :mrn AND p.account_id = :riversideId',
      { replacements: { mrn, riversideId }, type: QueryTypes.SELECT },
    );
    return n;
  };

  it('creates the order the clinic then sees on its Pending list, with a new patient under the EHR\'s id; a second order reuses that patient', async () => {
    const mrn = `MRN-${serial}-A`;
    const { ack } = await send(orm({ controlId: `A1-${serial}`, mrn, family: `Okafor${serial.replace(/\d/g, '')}` }));
    expect(ack.code, ack.text).to.equal('AA');
    const [, orderNumber, barcode] = /^Order (\S+) created, sample (\S+)$/.exec(ack.text) ?? [];
    expect(orderNumber, ack.text).to.be.a('string');
    const pending = await physician.agent.get(`/api/provider-clinic/${riversideId}/tests?category=PENDING&pageSize=50`).expect(200);
    const row = (pending.body as { barcode: string; tests: string[]; physician: { name: string }; patient: { lastName: string } }[]).find((r) => r.barcode === barcode);
    expect(row, 'the order on the Pending list').to.not.equal(undefined);
    expect(row!.tests).to.deep.equal(['PROSTOX ultra']);
    expect(row!.physician.name).to.match(/Reyes/);
    const patient = await t.ctx.db.models.Patient.findOne({ where: { accountId: riversideId, medicalRecordNumber: mrn } });
    expect(patient).to.include({ dateOfBirth: '1970-01-01', firstName: 'Jane', sex: 'F', city: 'Springfield' });
    const audit = await t.ctx.db.models.AuditEvent.findOne({ where: { action: 'order.created', entityKind: 'sample' }, order: [['id', 'DESC']] });
    expect(audit?.details).to.deep.include({ via: { interface: 'hl7', sendingFacility: FACILITY, controlId: `A1-${serial}` } });

    const again = await send(orm({ controlId: `A2-${serial}`, mrn, family: patient!.lastName! }));
    expect(again.ack.code, again.ack.text).to.equal('AA');
    expect(await t.ctx.db.models.Patient.count({ where: { accountId: riversideId, medicalRecordNumber: mrn } })).to.equal(1);
    expect(await ordersOfMrn(mrn)).to.equal(2);
  });

  it('answers a resent message (the same control id) as the first time and creates nothing more', async () => {
    const mrn = `MRN-${serial}-B`;
    const first = await send(orm({ controlId: `B1-${serial}`, mrn }));
    const second = await send(orm({ controlId: `B1-${serial}`, mrn }));
    expect(first.ack.code).to.equal('AA');
    expect(second.ack).to.deep.include({ code: 'AA', text: first.ack.text });
    expect(await ordersOfMrn(mrn)).to.equal(1);
  });

  it('refuses, naming the field, and creates nothing: no date of birth, an unknown test, a research-only test, an unknown NPI, an id of another person, a specimen the lab does not take, an unknown facility', async () => {
    const known = `MRN-${serial}-C`;
    expect((await send(orm({ controlId: `C0-${serial}`, mrn: known, family: 'Known' }))).ack.code).to.equal('AA');
    const cases: { message: Hl7Message; code: string; location: string; text: RegExp }[] = [
      { message: orm({ controlId: `C1-${serial}`, mrn: `${known}-1`, dob: '' }), code: 'AE', location: 'PID-7', text: /^PID-7: the patient's date of birth is required$/ },
      { message: orm({ controlId: `C2-${serial}`, mrn: `${known}-2`, dob: '19701332' }), code: 'AE', location: 'PID-7', text: /is not a date/ },
      { message: orm({ controlId: `C3-${serial}`, mrn: `${known}-3`, test: 'NOPE^Nothing^L' }), code: 'AE', location: 'OBR-4.1', text: /"NOPE" is not a test code of this lab/ },
      { message: orm({ controlId: `C4-${serial}`, mrn: `${known}-4`, test: 'SARCOMA^Sarcoma^L' }), code: 'AE', location: 'OBR-4', text: /^OBR-4: .*cannot be ordered in the/ },
      { message: orm({ controlId: `C5-${serial}`, mrn: `${known}-5`, npi: '1111111112' }), code: 'AE', location: 'ORC-12.1', text: /no physician with NPI 1111111112 orders for this account/ },
      { message: orm({ controlId: `C6-${serial}`, mrn: known, family: 'Someoneelse' }), code: 'AE', location: 'PID-3.1', text: /belongs to another person/ },
      { message: orm({ controlId: `C7-${serial}`, mrn: `${known}-7`, specimen: '^Hair' }), code: 'AE', location: 'OBR-15.1', text: /"hair" is not a specimen this lab takes/i },
      { message: orm({ controlId: `C8-${serial}`, mrn: `${known}-8`, facility: 'NOBODY' }), code: 'AR', location: 'MSH-4', text: /no account takes orders from this sending facility/ },
    ];
    const ordersBefore = await t.ctx.db.models.Order.count();
    const patientsBefore = await t.ctx.db.models.Patient.count();
    for (const c of cases) {
      const { ack } = await send(c.message);
      expect(ack.code, `${c.location}: ${ack.text}`).to.equal(c.code);
      expect(ack.errors[0]?.location, ack.text).to.equal(c.location);
      expect(ack.errors[0]?.text).to.match(c.text);
    }
    expect(await t.ctx.db.models.Order.count()).to.equal(ordersBefore);
    expect(await t.ctx.db.models.Patient.count()).to.equal(patientsBefore);
    const log = (await admin.agent.get(`/api/admin/accounts/${riversideId}/hl7-messages`).expect(200)).body as { controlId: string; reason: string; status: string; ackCode: string }[];
    expect(log.find((m) => m.controlId === `C1-${serial}`)).to.include({ reason: 'order', status: 'Failed', ackCode: 'AE' });
  });
});
