/**
 * Text-message notices (issue 31, item 5; docs/sms.md), on the real worker and API with the local
 * Twilio stand-in (test/support/hooks.ts starts one per test process, as `npm start` does): a
 * patient who consents gets "your result is ready" by text in their language, with the email's
 * link and nothing more; without consent nothing is texted; a reply of STOP (or Twilio's other
 * opt-out words) stops later texts, the row saying why, and START lets them through again; an
 * inbound webhook with a wrong signature is refused and changes nothing. Negative checks wait for
 * the job rows' final state, never a fixed time.
 */
import { randomInt } from 'node:crypto';
import { expect } from 'chai';
import { ItemKind, JobStatus, NOT_SENT_REASONS, SampleStatus, ShipmentStatus, SMS_OPT_OUT_KEYWORDS, SmsConsentSource, TextMessageStatus } from '@platform/domain';
import { createContext, closeContext, type AppContext } from '@platform/api';
import { handleShippingOrderEvent, SMS_INBOUND_PATH } from '@platform/server';
import type { RunningWorker } from '@platform/worker';
import { startServer, startTestWorker, testConfig } from '../support/server';
import type { RunningServer } from '../support/browser';
import { smsStandIn } from '../support/hooks';
import { freePort } from '../support/stripe';
import { waitForMail } from '../support/mail';
import { outboxJobSettled } from '../support/jobs';
import { createClinic, createResult, deliveredResult, releaseCorrection, resultLinkIn, runJob, withoutResultLinks, type Clinic, type ResultFixture } from '../support/fixtures/reports';
import { buildTestApp, newSession, signIn, type TestApp } from '../support/http';
import { createPatientClinic, eligibleAnswers, orderingPatient, type PatientClinic } from '../support/fixtures/patient-orders';

/** A fresh US mobile number in the 555-01xx range kept for fiction (unique per test). */
const newMobile = () => `+1415555${String(randomInt(0, 10_000)).padStart(4, '0')}`;

describe('text-message notices (SMS through the Twilio stand-in)', function () {
  this.timeout(60_000);
  let ctx: AppContext;
  let worker: RunningWorker;
  let api: RunningServer;
  let clinic: Clinic;
  let t: TestApp;

  before(async () => {
    t = await buildTestApp();
    ctx = await createContext(testConfig(), 'test');
    worker = await startTestWorker();
    // The API on a known port: the webhook's signature is over PUBLIC_URL's address, as Twilio's is over the URL it was given.
    const port = await freePort();
    api = await startServer({ PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` });
    smsStandIn.setWebhookUrl(`${api.baseUrl}/api/webhooks${SMS_INBOUND_PATH}`);
    clinic = await createClinic(ctx.db, 'sms');
  });
  after(async () => {
    smsStandIn.setWebhookUrl('');
    await api?.stop();
    await t?.close();
    await worker?.close();
    await closeContext(ctx);
  });

  /** A released result whose patient has this mobile number and consent (given at the clinic). */
  async function resultFor(options: { mobile: string; consent: boolean; language?: 'en' | 'es'; value?: string }): Promise<ResultFixture> {
    const r = await createResult(ctx.db, { accountId: clinic.account.id, physicianId: clinic.physician.id, value: options.value ?? 'Very High Risk', preferredLanguage: options.language });
    await ctx.db.models.Patient.update(
      { mobilePhone: options.mobile, smsConsent: options.consent, smsConsentAt: options.consent ? new Date() : null, smsConsentSource: options.consent ? SmsConsentSource.Clinic : null },
      { where: { id: r.patientId } },
    );
    return r;
  }

  /** Notifies the result and waits for the text's send-sms job to be over; answers its row (null when none was written). */
  async function notifyAndSettle(r: ResultFixture) {
    const job = await runJob(ctx, 'notify-result', { testResultId: r.resultId });
    expect(job.status, String(job.error)).to.equal(JobStatus.Completed);
    // The text's row and job are written in notify-result's transaction: none now means none ever.
    const row = await ctx.db.models.TextMessage.findOne({ where: { patientId: r.patientId }, order: [['id', 'DESC']] });
    if (!row) return null;
    const sendJob = await outboxJobSettled(ctx, `send-sms:${row.id}`);
    expect(sendJob.status, String(sendJob.error)).to.equal(JobStatus.Completed);
    return row.reload();
  }

  it('consent given: "your result is ready" is texted in the patient\'s language (Spanish) with the email\'s link and no result, name or date of birth', async () => {
    const mobile = newMobile();
    const r = await resultFor({ mobile, consent: true, language: 'es' });
    const row = await notifyAndSettle(r);
    expect(row?.status, String(row?.error)).to.equal(TextMessageStatus.Sent);
    expect(row!.attempts).to.equal(1);

    const texts = smsStandIn.messagesTo(mobile);
    expect(texts, 'one text to the number').to.have.length(1);
    const [text] = texts;
    expect(row!.providerSid).to.equal(text.sid);
    expect(text.body).to.match(/^Prostox: su resultado está listo\. Ábralo aquí \(le pediremos su fecha de nacimiento\): /);
    expect(text.body).to.match(/Responda STOP para no recibir más mensajes\.$/);
    const [mail] = await waitForMail(r.patient.email!);
    const emailed = resultLinkIn(mail.text);
    const texted = resultLinkIn(text.body);
    expect(texted.token, 'the text carries the same link as the email (a second link would revoke the first)').to.equal(emailed.token);
    expect(text.body).to.include(`${emailed.url}&lang=es`);
    for (const secret of ['Very High', 'Risk', 'PROSTOX', r.patient.firstName, r.patient.lastName, '1957', '08/19', '19/08']) {
      expect(withoutResultLinks(text.body), `the text must not hold "${secret}"`).to.not.include(secret);
    }
    // The row keeps what was sent less the link's token (it works only from the phone).
    expect(row!.body).to.include('token=[redacted]');
    expect(row!.body).to.not.include(texted.token);
  });

  it('in English for an English-speaking patient', async () => {
    const mobile = newMobile();
    const row = await notifyAndSettle(await resultFor({ mobile, consent: true }));
    expect(row?.status).to.equal(TextMessageStatus.Sent);
    const [text] = smsStandIn.messagesTo(mobile);
    expect(text.body).to.match(/^Prostox: your test result is ready\. Open it here \(we will ask for your date of birth\): http\S+\/reports\/patient_result\/\S+\?token=[0-9a-f]{64} Reply STOP to stop texts\.$/);
  });

  it('no consent: nothing is texted (a mobile number alone is not consent)', async () => {
    const mobile = newMobile();
    const r = await resultFor({ mobile, consent: false });
    expect(await notifyAndSettle(r), 'no text message row').to.equal(null);
    await waitForMail(r.patient.email!); // the email still goes
    expect(smsStandIn.messagesTo(mobile)).to.deep.equal([]);
  });

  it('a reply of STOP stops later texts (the row says why), START lets them through again; each opt-out word works', async () => {
    const mobile = newMobile();
    const stop = await smsStandIn.reply(mobile, ' stop ');
    expect(stop.status, 'the webhook is taken').to.equal(200);
    expect(await ctx.db.models.SmsOptOut.findByPk(mobile)).to.not.equal(null);
    const audit = await ctx.db.models.AuditEvent.findOne({ where: { action: 'sms.opted_out' }, order: [['id', 'DESC']] });
    expect(audit?.details).to.include({ phone: `…${mobile.slice(-4)}`, keyword: 'STOP' });

    const held = await notifyAndSettle(await resultFor({ mobile, consent: true }));
    expect(held?.status).to.equal(TextMessageStatus.NotSent);
    expect(held?.error).to.equal(NOT_SENT_REASONS.optedOut);
    expect(smsStandIn.messagesTo(mobile), 'nothing reached the phone').to.deep.equal([]);

    expect((await smsStandIn.reply(mobile, 'START')).status).to.equal(200);
    expect(await ctx.db.models.SmsOptOut.findByPk(mobile)).to.equal(null);
    const sent = await notifyAndSettle(await resultFor({ mobile, consent: true }));
    expect(sent?.status).to.equal(TextMessageStatus.Sent);
    expect(smsStandIn.messagesTo(mobile)).to.have.length(1);

    for (const word of SMS_OPT_OUT_KEYWORDS) {
      const other = newMobile();
      expect((await smsStandIn.reply(other, word.toLowerCase())).status, word).to.equal(200);
      expect(await ctx.db.models.SmsOptOut.findByPk(other), word).to.not.equal(null);
    }
    // Any other reply changes nothing.
    const chatty = newMobile();
    expect((await smsStandIn.reply(chatty, 'Stop sending me the results please')).status).to.equal(200);
    expect(await ctx.db.models.SmsOptOut.findByPk(chatty)).to.equal(null);
  });

  it('an inbound webhook with a wrong or missing X-Twilio-Signature is refused (403) and changes nothing', async () => {
    const mobile = newMobile();
    const forged = await smsStandIn.reply(mobile, 'STOP', { signWith: 'not-the-auth-token-of-this-lab' });
    expect(forged.status).to.equal(403);
    const unsigned = await fetch(`${api.baseUrl}/api/webhooks${SMS_INBOUND_PATH}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ MessageSid: 'SM0', From: mobile, Body: 'STOP' }).toString(),
    });
    expect(unsigned.status).to.equal(403);
    expect(await ctx.db.models.SmsOptOut.findByPk(mobile)).to.equal(null);
    expect(await ctx.db.models.WebhookEvent.count({ where: { source: 'twilio-sms', eventId: forged.messageSid } })).to.equal(0);
    // The patient still gets their texts.
    const row = await notifyAndSettle(await resultFor({ mobile, consent: true }));
    expect(row?.status).to.equal(TextMessageStatus.Sent);
  });

  it('the patient gives their mobile number and consent on their result page (recorded with when and where, audited); the corrected result is then texted', async () => {
    const { fixture, link } = await deliveredResult(ctx, { accountId: clinic.account.id, physicianId: clinic.physician.id, withReport: false });
    const base = '/api/reports/patient-result';
    const body = { barcode: link!.barcode, token: link!.token };
    const stranger = await newSession(t.app, '10.20.0.9');
    await stranger.post(`${base}/set-text-messages`, { ...body, mobilePhone: '4155550123', smsConsent: true }).expect(403);

    const s = await newSession(t.app, '10.20.0.10');
    await s.post(`${base}/verify-patient`, { ...body, dateOfBirth: fixture.patient.dateOfBirth }).expect(200);
    const noNumber = await s.post(`${base}/set-text-messages`, { ...body, mobilePhone: '', smsConsent: true }).expect(400);
    expect(noNumber.body.error.fields).to.deep.include({ field: 'mobilePhone', message: 'Give a mobile number to get texts' });
    const badNumber = await s.post(`${base}/set-text-messages`, { ...body, mobilePhone: '555-0100', smsConsent: true }).expect(400);
    expect(JSON.stringify(badNumber.body)).to.include('Mobile phone must be a mobile number');
    expect((await ctx.db.models.Patient.findByPk(fixture.patientId))!.smsConsent, 'nothing changed').to.equal(false);

    const mobile = newMobile();
    const typed = `(${mobile.slice(2, 5)}) ${mobile.slice(5, 8)}-${mobile.slice(8)}`;
    const saved = await s.post(`${base}/set-text-messages`, { ...body, mobilePhone: typed, smsConsent: true }).expect(200);
    expect(saved.body).to.include({ mobilePhone: mobile, smsConsent: true, consentSource: 'result-page' });
    expect(Date.parse(saved.body.consentAt)).to.be.closeTo(Date.now(), 60_000);
    const audit = await ctx.db.models.AuditEvent.findOne({ where: { action: 'patient.sms_consent_changed', entityId: String(fixture.patientId) }, order: [['id', 'DESC']] });
    expect(audit?.actorKind).to.equal('patient');
    expect(audit?.details).to.deep.include({
      source: 'result-page', old: { smsConsent: false, mobilePhone: null }, new: { smsConsent: true, mobilePhone: `…${mobile.slice(-4)}` },
    });
    const view = await s.agent.get(`${base}/${link!.barcode}?token=${link!.token}`).expect(200);
    expect(view.body.result.texts).to.include({ mobilePhone: mobile, smsConsent: true });

    const correctionId = await releaseCorrection(ctx.db, fixture, 'Low-Average Risk', 'Plate review');
    const job = await runJob(ctx, 'notify-result', { testResultId: correctionId });
    expect(job.status, String(job.error)).to.equal(JobStatus.Completed);
    const row = await ctx.db.models.TextMessage.findOne({ where: { patientId: fixture.patientId } });
    expect((await outboxJobSettled(ctx, `send-sms:${row!.id}`)).status).to.equal(JobStatus.Completed);
    const [text] = smsStandIn.messagesTo(mobile);
    expect(text.body).to.match(/^Prostox: an updated \(corrected\) test result is ready\. /);
    expect(text.body).to.not.match(/Low-Average|Risk|Walter/);

    // The texted link opens the result page (the earlier link was replaced); there, consent is withdrawn and recorded the same way.
    const texted = resultLinkIn(text.body);
    const phone = await newSession(t.app, '10.20.0.11');
    await phone.post(`${base}/verify-patient`, { barcode: texted.barcode, token: texted.token, dateOfBirth: fixture.patient.dateOfBirth }).expect(200);
    const withdrawn = await phone.post(`${base}/set-text-messages`, { barcode: texted.barcode, token: texted.token, mobilePhone: mobile, smsConsent: false }).expect(200);
    expect(withdrawn.body).to.include({ mobilePhone: mobile, smsConsent: false, consentSource: 'result-page' });
  });

  describe('the patient\'s own order asks for a mobile number and consent', () => {
    let patientClinic: PatientClinic;
    before(async () => {
      patientClinic = await createPatientClinic(t.ctx, t.app, 'SMS Patient Clinic');
    });
    const order = (s: Awaited<ReturnType<typeof newSession>>, extra: Record<string, unknown>) => s.post('/api/order/create', {
      product: 'prostox', answers: eligibleAnswers('prostox'), patient: orderingPatient(), accountId: patientClinic.accountId, invitationToken: null, mirakind: false, language: 'es', ...extra,
    });

    it('records the number (E.164) and the consent with when and where (patient-order), audited', async () => {
      const s = await newSession(t.app, '10.20.1.1');
      const mobile = newMobile();
      const res = await order(s, { mobilePhone: `1-${mobile.slice(2, 5)}-${mobile.slice(5, 8)}-${mobile.slice(8)}`, smsConsent: true });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      const placed = await ctx.db.models.Order.findOne({ where: { orderNumber: res.body.order.orderNumber } });
      const patient = await ctx.db.models.Patient.findByPk(placed!.patientId!);
      expect(patient).to.include({ mobilePhone: mobile, smsConsent: true, smsConsentSource: 'patient-order', preferredLanguage: 'es' });
      expect(Date.now() - patient!.smsConsentAt!.getTime()).to.be.below(60_000);
      const audit = await ctx.db.models.AuditEvent.findOne({ where: { action: 'patient.sms_consent_changed', entityId: String(patient!.id) } });
      expect(audit?.details).to.deep.include({ source: 'patient-order', new: { smsConsent: true, mobilePhone: `…${mobile.slice(-4)}` } });
    });

    it('without consent keeps no consent; consent without a number or a number that is not one is refused naming the field, and nothing is created', async () => {
      const s = await newSession(t.app, '10.20.1.2');
      const before = await ctx.db.models.Order.count();
      const noNumber = await order(s, { smsConsent: true });
      expect(noNumber.status).to.equal(400);
      expect(noNumber.body.error.fields).to.deep.include({ field: 'smsConsent', message: 'Give a mobile number to get texts' });
      const badNumber = await order(s, { mobilePhone: '12345', smsConsent: true });
      expect(badNumber.status).to.equal(400);
      expect(badNumber.body.error.fields.map((f: { field: string }) => f.field)).to.include('mobilePhone');
      expect(await ctx.db.models.Order.count()).to.equal(before);

      const numberOnly = await order(s, { mobilePhone: newMobile() });
      expect(numberOnly.status).to.equal(201);
      const placed = await ctx.db.models.Order.findOne({ where: { orderNumber: numberOnly.body.order.orderNumber } });
      expect(await ctx.db.models.Patient.findByPk(placed!.patientId!)).to.include({ smsConsent: false, smsConsentAt: null });
    });
  });

  it('the clinic records the number and consent the patient gave it (source clinic, the user audited) and sees the texts\' status, never their words; another account\'s patient is a 404', async () => {
    const mobile = newMobile();
    const r = await resultFor({ mobile, consent: false });
    const account = await ctx.db.models.Account.findOne({ where: { name: 'Riverside Oncology' } });
    await ctx.db.models.Patient.update({ accountId: account!.id }, { where: { id: r.patientId } });
    const superAdmin = await signIn(t.app, 'superAdmin', 'provider');
    const path = `/api/provider-clinic/${account!.id}/patient/${r.patientId}/text-messages`;
    const empty = await superAdmin.agent.get(path).expect(200);
    expect(empty.body).to.deep.equal({ texts: { mobilePhone: mobile, smsConsent: false, consentAt: null, consentSource: null }, optedOut: false, messages: [] });

    const refused = await superAdmin.put(path, { mobilePhone: 'call me', smsConsent: true }).expect(400);
    expect(JSON.stringify(refused.body)).to.include('mobilePhone');
    const saved = await superAdmin.put(path, { mobilePhone: mobile, smsConsent: true }).expect(200);
    expect(saved.body.texts).to.include({ mobilePhone: mobile, smsConsent: true, consentSource: 'clinic' });
    const audit = await ctx.db.models.AuditEvent.findOne({ where: { action: 'patient.sms_consent_changed', entityId: String(r.patientId) }, order: [['id', 'DESC']] });
    expect(audit?.actorKind).to.equal('provider');
    expect(audit?.actorUserId).to.be.a('number');
    expect(audit?.details).to.deep.include({ source: 'clinic', old: { smsConsent: false, mobilePhone: `…${mobile.slice(-4)}` }, new: { smsConsent: true, mobilePhone: `…${mobile.slice(-4)}` } });

    await smsStandIn.reply(mobile, 'STOP');
    await notifyAndSettle(r);
    const after = await superAdmin.agent.get(path).expect(200);
    expect(after.body.optedOut).to.equal(true);
    expect(after.body.messages).to.have.length(1);
    expect(after.body.messages[0]).to.include({ kind: 'result-ready', status: 'Not sent', error: NOT_SENT_REASONS.optedOut });
    expect(JSON.stringify(after.body)).to.not.include('http');

    const other = await ctx.db.models.Account.findOne({ where: { name: 'Lakeside Urology' } });
    await superAdmin.agent.get(`/api/provider-clinic/${other!.id}/patient/${r.patientId}/text-messages`).expect(404);
  });

  describe('kit notices', () => {
    /** A patient's kit (Order Placed) in a shipment to them, as a patient order leaves it; the patient's texts as given. */
    async function kitFor(options: { mobile: string; consent: boolean; language?: 'en' | 'es' }) {
      const r = await createResult(ctx.db, {
        accountId: clinic.account.id, physicianId: clinic.physician.id, resultStatus: null, sampleStatus: SampleStatus.OrderPlaced, preferredLanguage: options.language,
      });
      await ctx.db.models.Patient.update(
        { mobilePhone: options.mobile, smsConsent: options.consent, smsConsentAt: options.consent ? new Date() : null, smsConsentSource: options.consent ? SmsConsentSource.PatientOrder : null },
        { where: { id: r.patientId } },
      );
      const shipment = await ctx.db.models.Shipment.create({ accountId: clinic.account.id, patientId: r.patientId, status: ShipmentStatus.NotReadyToShip, createdByUserId: null });
      await shipment.update({ externalOrderId: `SMS-KIT-${shipment.id}`, trackingUrl: `https://www.ups.com/track?tracknum=1Z999AA1${shipment.id}` });
      await ctx.db.models.ShipmentItem.create({ shipmentId: shipment.id, kind: ItemKind.Test, sampleId: r.sampleId });
      return { r, shipment };
    }
    const ship = (externalOrderId: string) => handleShippingOrderEvent(ctx, {
      id: `evt_sms_${externalOrderId}`, type: 'order.shipped', data: { externalOrderId, carrier: 'ups', trackingNumber: '1Z999AA10123456784' },
    }, { requestId: null });

    it('a kit shipped to a patient who consents: a text in their language with the tracking link, then one when it is delivered, nothing about the test or the patient; none without consent', async () => {
      const mobile = newMobile();
      const { r, shipment } = await kitFor({ mobile, consent: true, language: 'es' });
      await ship(shipment.externalOrderId!);
      const row = await ctx.db.models.TextMessage.findOne({ where: { patientId: r.patientId } });
      expect(row?.kind).to.equal('kit-shipped');
      expect((await outboxJobSettled(ctx, `send-sms:${row!.id}`)).status).to.equal(JobStatus.Completed);
      const [text] = smsStandIn.messagesTo(mobile);
      expect(text.body).to.equal(`Prostox: su kit de prueba fue enviado. Sígalo aquí: ${shipment.trackingUrl} Responda STOP para no recibir más mensajes.`);
      for (const secret of ['PROSTOX', r.patient.firstName, r.patient.lastName, '1957', r.barcode]) expect(text.body).to.not.include(secret);

      // The carrier's first delivery scan at the patient's home: one text, however often the scan is reported.
      for (const n of [1, 2]) {
        await handleShippingOrderEvent(ctx, {
          id: `evt_sms_de${n}_${shipment.id}`, type: 'order.tracking', data: { externalOrderId: shipment.externalOrderId!, statusCode: 'DE', occurredAt: new Date() },
        }, { requestId: null });
      }
      const rows = await ctx.db.models.TextMessage.findAll({ where: { patientId: r.patientId }, order: [['id', 'ASC']] });
      expect(rows.map((m) => m.kind)).to.deep.equal(['kit-shipped', 'kit-delivered']);
      expect((await outboxJobSettled(ctx, `send-sms:${rows[1].id}`)).status).to.equal(JobStatus.Completed);
      expect(smsStandIn.messagesTo(mobile).map((m) => m.body)[1]).to.equal('Prostox: su kit de prueba fue entregado. Siga las instrucciones de la caja. Responda STOP para no recibir más mensajes.');

      const silent = newMobile();
      const without = await kitFor({ mobile: silent, consent: false });
      await ship(without.shipment.externalOrderId!);
      // The text would have been written in the webhook's transaction: none now means none ever.
      expect(await ctx.db.models.TextMessage.count({ where: { patientId: without.r.patientId } })).to.equal(0);
      expect(smsStandIn.messagesTo(silent)).to.deep.equal([]);
    });
  });
});
