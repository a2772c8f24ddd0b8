/**
 * Patient ordering end to end through the API, the local Stripe stand-in and a real worker:
 * eligibility, self-pay with the stand-in's card page and its signed webhook, financial
 * assistance, the MiraKind donation, insurance, the clinic's Patient-ordered list and sign-off,
 * cancellation with a refund, and who may do what.
 */
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import {
  ItemKind, PatientOrderStage, UNPAID_ORDER_EXPIRED_REASON, UNPAID_ORDER_EXPIRY_DAYS, PaymentMethod, type OrderingPatient, PaymentStatus, ResultListCategory, SampleStatus, ShipmentStatus, TestOrigin, Portal,
} from '@platform/domain';
import type { RunningWorker } from '@platform/worker';
import request from 'supertest';
import { expireUnpaidOrders, signShippingPayload } from '@platform/server';
import { DECLINED_CARD, SUCCEEDING_CARD } from '../../scripts/stripe-stand-in';
import { newSession, signIn, type Session } from '../support/http';
import { startTestWorker, testConfig } from '../support/server';
import { paymentIntentCalls, startPaymentStack, type PaymentStack } from '../support/stripe';
import { ALL_ATTESTED } from '../support/fixtures/clinic';
import {
  choosePayment, createPatientClinic, eligibleAnswers, orderingPatient, payOnCardPage, placePatientOrder, type PatientClinic, type PlacedPatientOrder,
} from '../support/fixtures/patient-orders';
import { emailsSettled, outboxJobSettled } from '../support/jobs';
import { mailTo, waitForMail } from '../support/mail';
import { until } from '../support/wait';

describe('patient ordering', function () {
  this.timeout(60_000);
  let stack: PaymentStack;
  let worker: RunningWorker;
  let clinic: PatientClinic;
  let other: PatientClinic;
  let patient: Session;

  before(async () => {
    stack = await startPaymentStack();
    worker = await startTestWorker(stack.env);
    clinic = await createPatientClinic(stack.t.ctx, stack.t.app, 'Harbor Oncology');
    other = await createPatientClinic(stack.t.ctx, stack.t.app, 'Summit Urology');
    patient = await newSession(stack.t.app, '10.66.0.1');
  });
  after(async () => {
    await worker?.close();
    await stack?.close();
  });

  const m = () => stack.t.ctx.db.models;
  const summary = async (key: PlacedPatientOrder['key']) => (await patient.post('/api/order/summary', key).expect(200)).body;

  /** Insurance: nothing to charge, the order moves on to sign-off at once. */
  async function payByInsurance(key: PlacedPatientOrder['key']) {
    const plan = await m().InsurancePlan.findOne({ where: { isActive: true } });
    await choosePayment(patient, key, PaymentMethod.Insurance, { insurancePlanId: plan!.id, insuranceMemberId: 'AET-5678' });
  }

  /** create-payment-intent and the card page: answers where the page sent the browser back. */
  async function payByCard(order: PlacedPatientOrder, card = SUCCEEDING_CARD) {
    const intent = (await patient.post('/api/stripe/create-payment-intent', order.key).expect(200)).body;
    return { intent, back: await payOnCardPage(intent.checkoutUrl, card) };
  }

  describe('eligibility', () => {
    it('says why an answer is not eligible and what to do instead', async () => {
      const res = await patient.post('/api/order/eligibility-inquiry', { product: 'prostox', answers: eligibleAnswers('prostox', { adult: 'No', radiationFinished: 'Yes' }) }).expect(200);
      expect(res.body.eligible).to.equal(false);
      expect(res.body.tests).to.deep.equal([]);
      expect(res.body.problems.map((p: { questionId: string }) => p.questionId)).to.deep.equal(['adult', 'radiationFinished']);
      expect(res.body.problems[0]).to.include({ reason: 'Patients must be 18 or older to order a test themselves.' });
      const ok = await patient.post('/api/order/eligibility-inquiry', { product: 'prostox', answers: eligibleAnswers('prostox', { treatmentOption: 'both' }) }).expect(200);
      expect(ok.body).to.deep.equal({ eligible: true, tests: ['PROSTOX ultra', 'PROSTOX CFRT'], problems: [] });
    });

    it('refuses bad answers naming the field, and unknown keys', async () => {
      const res = await patient.post('/api/order/eligibility-inquiry', { product: 'kras', answers: { ...eligibleAnswers('kras'), adult: 'Maybe' } }).expect(400);
      expect(res.body.error.fields[0].field).to.equal('answers.adult');
      await patient.post('/api/order/eligibility-inquiry', { product: 'kras', answers: eligibleAnswers('kras'), price: 1 }).expect(400);
    });

    it('stops an ineligible order before any order or payment intent exists (the stand-in saw no call)', async () => {
      const before = { orders: await m().Order.count(), intents: paymentIntentCalls(stack.standIn).length };
      const res = await patient.post('/api/order/create', {
        product: 'prostox', answers: eligibleAnswers('prostox', { diagnosis: 'No' }), patient: orderingPatient(), accountId: clinic.accountId, invitationToken: null, mirakind: false,
      }).expect(422);
      expect(res.body.error.code).to.equal('not_eligible');
      expect(res.body.error.fields.map((f: { field: string }) => f.field)).to.deep.equal(['answers.diagnosis']);
      expect(await m().Order.count()).to.equal(before.orders);
      expect(paymentIntentCalls(stack.standIn).length).to.equal(before.intents);
    });
  });

  it('lists the treating providers that take patient orders and the active insurance plans', async () => {
    const accounts = (await patient.agent.get('/api/order/prostox/get-prp-accounts').expect(200)).body as { id: number; name: string }[];
    expect(accounts.map((a) => a.name)).to.include.members(['Riverside Oncology', clinic.name, other.name]);
    expect(accounts.map((a) => a.name)).to.not.include('Lakeside Urology');
    const plans = (await patient.agent.get('/api/insurance-plans').expect(200)).body as { name: string }[];
    expect(plans.map((p) => p.name)).to.include.members(['Aetna', 'Medicare']);
  });

  describe('self-pay by card', () => {
    let order: PlacedPatientOrder;

    it('writes the order waiting for payment: Patient Ordered, Patient Portal, invisible to the clinic', async () => {
      order = await placePatientOrder(stack.t.ctx, patient, { accountId: clinic.accountId });
      expect(order.order).to.deep.include({ product: 'prostox', tests: ['PROSTOX ultra'], accountName: clinic.name, paymentStatus: PaymentStatus.AwaitingPayment, stage: PatientOrderStage.AwaitingPayment, priceCents: null, mirakind: false });
      expect(order.orderNumber).to.match(/^RPD\d{10}$/);
      const row = await m().Order.findByPk(order.orderId);
      expect(row).to.deep.include({ origin: TestOrigin.PatientOrdered, portal: Portal.Patient, referralSource: 'My doctor or clinic' });
      expect(row!.orderTokenHash).to.not.equal(order.orderToken);
      expect(await m().Sample.count({ where: { orderId: order.orderId } })).to.equal(0);
      const list = await clinic.physician.agent.get(`/api/provider-clinic/${clinic.accountId}/tests?category=${ResultListCategory.PatientOrdered}`).expect(200);
      expect(list.body.map((r: { orderNumber: string }) => r.orderNumber)).to.not.include(order.orderNumber);
    });

    it('prices the order from the catalogue; the client cannot name an amount', async () => {
      const priced = await choosePayment(patient, order.key, PaymentMethod.SelfPay);
      expect(priced).to.include({ priceCents: 500_00, donationCents: null, paymentMethod: PaymentMethod.SelfPay });
      await patient.post('/api/stripe/create-payment-intent', { ...order.key, amount: 1 }).expect(400);
      await patient.post('/api/order/set-payment', { ...order.key, method: 'Self-Pay', insurancePlanId: null, insuranceMemberId: null, priceCents: 100 }).expect(400);
    });

    it('creates one payment intent per order, for the server\'s amount, with the order\'s idempotency key', async () => {
      const first = (await patient.post('/api/stripe/create-payment-intent', order.key).expect(200)).body;
      const second = (await patient.post('/api/stripe/create-payment-intent', order.key).expect(200)).body;
      expect(first).to.include({ amountCents: 500_00, currency: 'usd', publishableKey: stack.env.STRIPE_PUBLISHABLE_KEY });
      expect(second.paymentIntentId).to.equal(first.paymentIntentId);
      expect(first.checkoutUrl).to.equal(`${stack.standIn.url}/pay/${first.paymentIntentId}?return_url=${encodeURIComponent(`${stack.t.ctx.config.publicUrl}/patient-portal/order/complete?order=${order.orderNumber}`)}`);
      const creates = stack.standIn.calls.filter((c) => c.method === 'POST' && c.path === '/v1/payment_intents' && c.idempotencyKey?.startsWith(`order-${order.orderId}-`));
      expect(creates.map((c) => c.idempotencyKey)).to.deep.equal([`order-${order.orderId}-payment-50000`]);
      expect((await m().Order.findByPk(order.orderId))!.stripePaymentIntentId).to.equal(first.paymentIntentId);
    });

    it('a declined card leaves the order Payment Failed with no kit (the patient may try the card again)', async () => {
      const declined = await payByCard(order, DECLINED_CARD);
      expect(declined.back.searchParams.get('redirect_status')).to.equal('failed');
      expect((await summary(order.key)).paymentStatus).to.equal(PaymentStatus.PaymentFailed);
      expect(await m().Sample.count({ where: { orderId: order.orderId } })).to.equal(0);
    });

    it('paying on the card page sends the signed webhook: Paid, a kit sample and a shipment to the patient, the receipt emailed', async () => {
      const { back } = await payByCard(order);
      expect(back.pathname).to.equal('/patient-portal/order/complete');
      expect(back.searchParams.get('order')).to.equal(order.orderNumber);
      expect(back.searchParams.get('redirect_status')).to.equal('succeeded');
      const s = await summary(order.key);
      expect(s).to.include({ paymentStatus: PaymentStatus.Paid, stage: PatientOrderStage.AwaitingSignOff, priceCents: 500_00 });

      const sample = await m().Sample.findOne({ where: { orderId: order.orderId }, include: [{ model: m().Test, as: 'tests' }] });
      expect(sample).to.deep.include({ status: SampleStatus.OrderPlaced, accountId: clinic.accountId });
      expect(sample!.barcode).to.match(/^41\d{12}$/);
      expect(sample!.tests!.map((t) => t.name)).to.deep.equal(['PROSTOX ultra']);
      const item = await m().ShipmentItem.findOne({ where: { sampleId: sample!.id }, include: [{ model: m().Shipment, as: 'shipment' }] });
      expect(item!.kind).to.equal(ItemKind.Test);
      expect(item!.shipment).to.deep.include({ status: ShipmentStatus.NotReadyToShip, patientId: sample!.patientId, accountId: clinic.accountId });

      const [mail] = await waitForMail(order.patient.email);
      expect(mail.subject).to.include(order.orderNumber);
      expect(mail.text).to.include('Amount paid: $500.00 (Self-Pay, paid by card)');
      expect(mail.text).to.include(`Treating provider: ${clinic.name}`);
      expect(mail.text).to.not.include('donation');
      expect(mail.text).to.not.include(order.patient.dateOfBirth);
    });

    it('shows under Patient-ordered to the account only; a physician of the account signs it off and the kit becomes Ready to Ship', async () => {
      const list = await clinic.physician.agent.get(`/api/provider-clinic/${clinic.accountId}/tests?category=${ResultListCategory.PatientOrdered}`).expect(200);
      const row = list.body.find((r: { orderNumber: string }) => r.orderNumber === order.orderNumber);
      expect(row.patientOrder).to.deep.equal({ orderId: order.orderId, orderNumber: order.orderNumber, stage: PatientOrderStage.AwaitingSignOff, paymentStatus: PaymentStatus.Paid, paymentMethod: PaymentMethod.SelfPay });
      const foreign = await other.physician.agent.get(`/api/provider-clinic/${other.accountId}/tests?category=${ResultListCategory.PatientOrdered}`).expect(200);
      expect(foreign.body.map((r: { orderNumber: string }) => r.orderNumber)).to.not.include(order.orderNumber);

      // A card-paid order is not claimed from an insurer: the reimbursement claim is not asked (issue 25, item 9; it was required).
      const context = (await clinic.physician.agent.get(`/api/provider-clinic/${clinic.accountId}/patient-orders/${order.orderId}/sign-off`).expect(200)).body;
      expect(context.attestations).to.deep.equal(['medicalNecessity', 'informedConsent', 'supportingDocumentation']);
      expect(context.answers[0]).to.deep.equal({ question: 'Are you 18 years of age or older?', answer: 'Yes' });
      const { reimbursementClaim: _notAsked, ...asked } = ALL_ATTESTED;
      const signOff = (s: Session, accountId = clinic.accountId) => s.post(`/api/provider-clinic/${accountId}/patient-orders/${order.orderId}/sign-off`, { attestations: asked });
      await signOff(other.physician, other.accountId).expect(404);
      await signOff(other.physician).expect(404);
      expect((await signOff(clinic.staff).expect(403)).body.error.message).to.equal('Your role in this account does not allow this');
      const missing = await clinic.physician.post(`/api/provider-clinic/${clinic.accountId}/patient-orders/${order.orderId}/sign-off`, { attestations: { ...ALL_ATTESTED, informedConsent: false } }).expect(400);
      expect(missing.body.error.fields[0].field).to.equal('attestations.informedConsent');

      const res = await signOff(clinic.physician).expect(200);
      expect(res.body).to.include({ stage: PatientOrderStage.SignedOff, paymentStatus: PaymentStatus.Paid });
      const stored = await m().Order.findByPk(order.orderId);
      expect(stored!.physicianId).to.equal(clinic.physician.physicianId);
      expect(stored!.signedOffByUserId).to.equal(clinic.physician.userId);
      expect(stored!.attestations).to.include({ ...asked, reimbursementClaim: false });
      const shipment = await m().Shipment.findOne({ where: { patientId: stored!.patientId } });
      expect(shipment!.status).to.equal(ShipmentStatus.ReadyToShip);
      expect((await signOff(clinic.physician).expect(409)).body.error.message).to.equal('Only an order awaiting sign-off can be signed off; this one is Signed Off');
    });

    it('when the shipping service ships the kit to the patient, the sample waits for them to send it back (Pending Shipment)', async () => {
      const sample = await m().Sample.findOne({ where: { orderId: order.orderId } });
      const shipment = await m().Shipment.findOne({ where: { patientId: sample!.patientId } });
      const raw = JSON.stringify({ id: `evt_kit_${order.orderId}`, type: 'order.shipped', data: { externalOrderId: shipment!.externalOrderId, carrier: 'USPS', trackingNumber: '9400' } });
      await request(stack.t.app).post('/api/webhooks/shipping-service/orders').set('Content-Type', 'application/json')
        .set('x-shipping-signature', signShippingPayload(stack.t.ctx.config.shippingWebhookSecret, raw)).send(raw).expect(200);
      expect((await sample!.reload()).status).to.equal(SampleStatus.PendingShipment);
      expect((await shipment!.reload()).status).to.equal(ShipmentStatus.Shipped);
      const res = await clinic.physician.post(`/api/provider-clinic/${clinic.accountId}/patient-orders/${order.orderId}/cancel`, { reason: 'Too late' }).expect(409);
      expect(res.body.error.message).to.equal('The kit has already been shipped; the order can no longer be cancelled');
    });
  });

  describe('financial assistance', () => {
    let admin: Session;
    before(async () => {
      admin = await signIn(stack.t.app, 'admin', 'admin', '10.66.0.9');
    });

    /** The admin's grant for a person (a new patient record, as the admin page enters one): answers the record as the API answered it. */
    async function grantAid(who: OrderingPatient, approvedPriceCents: number) {
      return (await admin.post('/api/admin/patients/financial-assistance/create', {
        patient: { firstName: who.firstName, lastName: who.lastName, dateOfBirth: who.dateOfBirth, email: who.email }, approvedPriceCents, validUntil: '2099-12-31', note: null,
      }).expect(201)).body;
    }

    /** The assistance code in the grant's email to the person. */
    async function emailedCode(who: OrderingPatient): Promise<string> {
      const [mail] = await waitForMail(who.email, 1, { matching: (m) => /assistance code/.test(m.text) });
      const code = /Your assistance code: ([A-Z2-9]{5}-[A-Z2-9]{5})/.exec(mail.text);
      expect(code, mail.text).to.not.equal(null);
      return code![1];
    }

    const exists = async (key: PlacedPatientOrder['key'], assistanceCode: string) =>
      (await patient.post('/api/patient/financial-assistance-patient-exists', { ...key, assistanceCode }).expect(200)).body.exists;
    const payWithAid = (key: PlacedPatientOrder['key'], assistanceCode?: string) =>
      patient.post('/api/order/set-payment', { ...key, method: PaymentMethod.FinancialAssistance, insurancePlanId: null, insuranceMemberId: null, ...(assistanceCode ? { assistanceCode } : {}) });

    it("the code emailed with the admin's grant makes the granted person's order cost the approved price", async () => {
      const who = orderingPatient();
      const granted = await grantAid(who, 100_00);
      const [mail] = await waitForMail(who.email, 1, { matching: (m) => /assistance code/.test(m.text) });
      expect(mail.subject).to.equal(`Your ${stack.t.ctx.config.brand} financial assistance is approved`);
      expect(mail.text).to.include('your test costs $100.00 if you order it by December 31, 2099.');
      const code = await emailedCode(who);
      expect(granted).to.include({ assistanceCode: code, codeEmailedTo: who.email, approvedPriceCents: 100_00, current: true });

      const order = await placePatientOrder(stack.t.ctx, patient, { accountId: clinic.accountId, patient: who });
      expect(await exists(order.key, 'ABCDE-23456')).to.equal(false);
      expect(await exists(order.key, code.toLowerCase().replace('-', ' '))).to.equal(true);
      const wrong = await payWithAid(order.key, 'ABCDE-23456').expect(422);
      expect(wrong.body.error.message).to.equal('No approved financial assistance was found for this patient with this assistance code');
      expect(wrong.body.error.fields[0].field).to.equal('assistanceCode');

      const priced = (await payWithAid(order.key, code).expect(200)).body;
      expect(priced).to.include({ priceCents: 100_00, paymentMethod: PaymentMethod.FinancialAssistance });
      const { intent } = await payByCard(order);
      expect(intent.amountCents).to.equal(100_00);
      expect((await summary(order.key)).paymentStatus).to.equal(PaymentStatus.Paid);
      const [receipt] = await waitForMail(who.email, 1, { matching: (m) => /Amount paid/.test(m.text) });
      expect(receipt.text).to.include('Amount paid: $100.00 (Financial Assistance price, paid by card)');
    });

    it('a code opens only a current record: one past its last day does not count', async () => {
      const who = orderingPatient();
      const aidPatient = await m().Patient.create({ accountId: null, firstName: who.firstName.toUpperCase(), lastName: who.lastName, dateOfBirth: who.dateOfBirth });
      const codeHash = createHash('sha256').update('HJK7MN2P3Q').digest('hex');
      await m().FinancialAssistanceRecord.create({ patientId: aidPatient.id, status: 'Approved', approvedPriceCents: 50_00, validUntil: '2020-12-31', codeHash });
      const order = await placePatientOrder(stack.t.ctx, patient, { accountId: clinic.accountId, patient: who });
      expect(await exists(order.key, 'HJK7M-N2P3Q')).to.equal(false);
      await payWithAid(order.key, 'HJK7M-N2P3Q').expect(422);
    });

    it("a stranger who knows a person's name and date of birth can neither use their aid nor learn whether they have it", async () => {
      const victim = orderingPatient();
      await grantAid(victim, 0); // aid at no cost: before the fix, the stranger's kit shipped for nothing
      const stranger = orderingPatient({ firstName: victim.firstName, lastName: victim.lastName, dateOfBirth: victim.dateOfBirth });
      const order = await placePatientOrder(stack.t.ctx, patient, { accountId: clinic.accountId, patient: stranger });

      // The attack as it worked: Financial Assistance with the person's name and date of birth, and nothing else.
      const bare = await payWithAid(order.key);
      expect(bare.status, JSON.stringify(bare.body)).to.equal(400);
      expect(bare.body.error.fields[0]).to.include({ field: 'assistanceCode' });
      await payWithAid(order.key, 'ABCDE-23456').expect(422);
      // The stranger's own code (their own aid, under another name) does not open the victim-named order either.
      const strangerOwn = orderingPatient({ email: stranger.email });
      await grantAid(strangerOwn, 10_00);
      await payWithAid(order.key, await emailedCode(strangerOwn)).expect(422);
      const after = await summary(order.key);
      expect(after).to.include({ paymentStatus: PaymentStatus.AwaitingPayment, paymentMethod: null, priceCents: null });
      expect(await m().Sample.count({ where: { orderId: order.orderId } })).to.equal(0);

      // No public endpoint answers whether someone has aid: the bare name and date of birth is refused, and an order's key is required.
      const oracle = await patient.post('/api/patient/financial-assistance-patient-exists', { firstName: victim.firstName, lastName: victim.lastName, dateOfBirth: victim.dateOfBirth }).expect(400);
      expect(oracle.body.error.fields.map((f: { field: string }) => f.field)).to.include.members(['orderNumber', 'orderToken']);
      await patient.post('/api/patient/financial-assistance-patient-exists', { ...order.key, orderToken: 'x'.repeat(order.key.orderToken.length), assistanceCode: 'ABCDE-23456' }).expect(404);
    });

    it('one address may ask whether aid exists ten times a quarter hour, then waits (429 with Retry-After)', async () => {
      const order = await placePatientOrder(stack.t.ctx, patient, { accountId: clinic.accountId, patient: orderingPatient() });
      const asker = await newSession(stack.t.app, '10.66.7.1');
      const ask = () => asker.post('/api/patient/financial-assistance-patient-exists', { ...order.key, assistanceCode: 'ABCDE-23456' });
      for (let i = 0; i < 10; i += 1) expect((await ask()).status).to.equal(200);
      const refused = await ask().expect(429);
      expect(refused.body.error).to.include({ code: 'too_many_attempts', message: 'Too many checks from your network. Please try again in 15 minutes.' });
      expect(Number(refused.headers['retry-after'])).to.be.within(890, 900);
      await patient.post('/api/patient/financial-assistance-patient-exists', { ...order.key, assistanceCode: 'ABCDE-23456' }).expect(200);
    });
  });

  it("a stranger who knows a patient's name and date of birth cannot change their record or where their results go", async () => {
    const victim = orderingPatient();
    const record = await m().Patient.create({ accountId: clinic.accountId, ...victim, country: 'US' });
    const onFile = () => m().Patient.findByPk(record.id, { attributes: ['email', 'phone', 'addressLine1', 'city', 'state', 'postalCode', 'preferredLanguage'], raw: true });
    const before = await onFile();
    const page = async () => (await clinic.physician.agent.get(`/api/provider-clinic/${clinic.accountId}/patient/${record.id}`).expect(200)).body;
    const pageBefore = await page();

    // The same name (another case) and date of birth, the stranger's own contact and address, no session.
    const stranger = { ...victim, firstName: victim.firstName.toUpperCase(), email: 'stranger@elsewhere.test', phone: '(555) 999-0000', addressLine1: '1 Stranger Road', city: 'Faraway' };
    const order = await placePatientOrder(stack.t.ctx, patient, { accountId: clinic.accountId, patient: stranger, language: 'es' });

    expect(await onFile(), 'the patient on file').to.deep.equal(before);
    expect(await page(), "the clinic's patient page").to.deep.equal(pageBefore);
    const placed = await m().Order.findByPk(order.orderId);
    expect(placed!.patientId, "the stranger's order is not on the patient's record").to.not.equal(record.id);
    expect((await m().Patient.findByPk(placed!.patientId))!.email).to.equal('stranger@elsewhere.test');

    // At sign-off the clinic sees the possible match and must answer; "a different person" keeps the records apart.
    await payByInsurance(order.key);
    const base = `/api/provider-clinic/${clinic.accountId}/patient-orders/${order.orderId}`;
    const { match } = (await clinic.physician.agent.get(`${base}/sign-off`).expect(200)).body;
    expect(match).to.include({ patientId: record.id, dateOfBirth: victim.dateOfBirth, email: victim.email });
    const unanswered = await clinic.physician.post(`${base}/sign-off`, { attestations: ALL_ATTESTED }).expect(409);
    expect(unanswered.body.error.fields[0].field).to.equal('patientMatch');
    expect(unanswered.body.error.message).to.match(/is already a patient of this account: say whether this order's patient is the same person$/);
    await clinic.physician.post(`${base}/sign-off`, { attestations: ALL_ATTESTED, patientMatch: { patientId: record.id, samePerson: false } }).expect(200);
    expect((await m().Order.findByPk(order.orderId))!.patientId).to.equal(placed!.patientId);
    expect(await onFile(), 'the patient on file').to.deep.equal(before);
  });

  it("the clinic confirms a self-order's patient is a patient it has: the order and kit are filed under that record, its contact details kept", async () => {
    const known = orderingPatient();
    const record = await m().Patient.create({ accountId: clinic.accountId, ...known, country: 'US' });
    const onFile = () => m().Patient.findByPk(record.id, { attributes: ['email', 'phone', 'addressLine1', 'city', 'state', 'postalCode'], raw: true });
    const before = await onFile();
    const order = await placePatientOrder(stack.t.ctx, patient, { accountId: clinic.accountId, patient: { ...known, email: 'new-address@patients.test' } });
    await payByInsurance(order.key);
    const base = `/api/provider-clinic/${clinic.accountId}/patient-orders/${order.orderId}`;
    await other.physician.agent.get(`/api/provider-clinic/${other.accountId}/patient-orders/${order.orderId}/sign-off`).expect(404);
    // Billed to insurance: the reimbursement claim is asked.
    const { reimbursementClaim: _claim, ...withoutClaim } = ALL_ATTESTED;
    const noClaim = await clinic.physician.post(`${base}/sign-off`, { attestations: withoutClaim, patientMatch: { patientId: record.id, samePerson: true } }).expect(400);
    expect(noClaim.body.error.fields).to.deep.equal([{ field: 'attestations.reimbursementClaim', message: 'The attestation of reimbursement claim must be confirmed' }]);
    // An answer about another patient than the match is not an answer.
    await clinic.physician.post(`${base}/sign-off`, { attestations: ALL_ATTESTED, patientMatch: { patientId: record.id + 1_000_000, samePerson: true } }).expect(409);
    await clinic.physician.post(`${base}/sign-off`, { attestations: ALL_ATTESTED, patientMatch: { patientId: record.id, samePerson: true } }).expect(200);
    const sample = await m().Sample.findOne({ where: { orderId: order.orderId } });
    expect([(await m().Order.findByPk(order.orderId))!.patientId, sample!.patientId]).to.deep.equal([record.id, record.id]);
    const item = await m().ShipmentItem.findOne({ where: { sampleId: sample!.id } });
    expect((await m().Shipment.findByPk(item!.shipmentId))!.patientId).to.equal(record.id);
    expect(await onFile(), "the clinic's contact details stay").to.deep.equal(before);
    const audit = await m().AuditEvent.findOne({ where: { action: 'patient_order.signed_off', entityId: String(record.id) } });
    expect(audit!.details).to.deep.include({ possibleMatch: record.id, samePerson: true, after: { patientId: record.id } });
  });

  it('a new order that replaces this browser\'s unpaid one cancels it (its card payment too); a paid one is left alone', async () => {
    const first = await placePatientOrder(stack.t.ctx, patient, { accountId: clinic.accountId });
    await choosePayment(patient, first.key, PaymentMethod.SelfPay);
    await patient.post('/api/stripe/create-payment-intent', first.key).expect(200);
    const second = await placePatientOrder(stack.t.ctx, patient, { accountId: clinic.accountId, replaces: first.key });
    const old = (await m().Order.findByPk(first.orderId))!;
    // Before: every abandoned attempt stayed Awaiting Payment for the clinic to cancel (issue 25, item 7).
    expect([old.cancelledAt !== null, old.cancellationReason]).to.deep.equal([true, 'Replaced by a new order the patient started']);
    expect((await summary(first.key)).stage).to.equal(PatientOrderStage.Cancelled);
    expect((await summary(second.key)).stage).to.equal(PatientOrderStage.AwaitingPayment);
    const cancelled = await outboxJobSettled(stack.t.ctx, `cancel-payment-intent:${first.orderId}`);
    expect(cancelled.status).to.equal('Completed');
    const unpaid = (await clinic.physician.agent.get(`/api/provider-clinic/${clinic.accountId}/patient-orders/unpaid?pageSize=100`).expect(200)).body as { orderId: number }[];
    expect(unpaid.map((o) => o.orderId)).to.include(second.orderId).and.not.include(first.orderId);

    // A paid order is never cancelled by a replacement.
    const paid = await placePatientOrder(stack.t.ctx, patient, { accountId: clinic.accountId });
    await choosePayment(patient, paid.key, PaymentMethod.SelfPay);
    await payByCard(paid);
    await placePatientOrder(stack.t.ctx, patient, { accountId: clinic.accountId, replaces: paid.key });
    expect((await m().Order.findByPk(paid.orderId))!.cancelledAt).to.equal(null);
  });

  it(`an unpaid order closes by itself ${UNPAID_ORDER_EXPIRY_DAYS} days after it was placed: its card payment cancelled, the patient told, the clinic's list clear`, async () => {
    /** Moves an order's placing back in time (only this test's orders are that old: the look leaves every other one alone). */
    const placedAgo = (orderId: number, ms: number) =>
      stack.t.ctx.db.sequelize.query('UPDATE orders SET created_at = now() - make_interval(secs => :secs) WHERE id = :orderId', { replacements: { orderId, secs: ms / 1000 } });
    const days = UNPAID_ORDER_EXPIRY_DAYS * 24 * 3600_000;
    const stale = await placePatientOrder(stack.t.ctx, patient, { accountId: clinic.accountId, language: 'es' });
    await choosePayment(patient, stale.key, PaymentMethod.SelfPay);
    await patient.post('/api/stripe/create-payment-intent', stale.key).expect(200);
    const young = await placePatientOrder(stack.t.ctx, patient, { accountId: clinic.accountId });
    const paid = await placePatientOrder(stack.t.ctx, patient, { accountId: clinic.accountId });
    await choosePayment(patient, paid.key, PaymentMethod.SelfPay);
    await payByCard(paid);
    await placedAgo(stale.orderId, days + 60_000);
    await placedAgo(young.orderId, days - 3600_000);
    await placedAgo(paid.orderId, days + 60_000);

    // Before: nothing ever closed it; it stayed Awaiting Payment on the clinic's list (issue 25, item 7).
    // (Any worker's look may be the one that closes it: the order's state is what counts.)
    await expireUnpaidOrders(stack.t.ctx, { now: new Date() });
    const closed = (await m().Order.findByPk(stale.orderId))!;
    expect([closed.cancelledAt !== null, closed.cancellationReason, closed.paymentStatus]).to.deep.equal([true, UNPAID_ORDER_EXPIRED_REASON, PaymentStatus.AwaitingPayment]);
    expect((await summary(stale.key)).stage).to.equal(PatientOrderStage.Cancelled);
    await patient.post('/api/stripe/create-payment-intent', stale.key).expect(409);
    expect((await outboxJobSettled(stack.t.ctx, `cancel-payment-intent:${stale.orderId}`)).status).to.equal('Completed');
    for (const left of [young, paid]) expect((await m().Order.findByPk(left.orderId))!.cancelledAt, left.orderNumber).to.equal(null);

    // The patient is told in their language (Spanish here), with where to order again.
    const [mail] = await waitForMail(stale.patient.email);
    expect(mail.subject).to.equal(`Su pedido ${stale.orderNumber} de Prostox se cerró`);
    expect(mail.text).to.include(`no se pagó dentro de los ${UNPAID_ORDER_EXPIRY_DAYS} días`).and.include('No se cobró nada');
    expect(mail.text).to.include(`${testConfig().publicUrl}/patient-portal/order/prostox/new?lang=es`);

    const unpaid = (await clinic.physician.agent.get(`/api/provider-clinic/${clinic.accountId}/patient-orders/unpaid?pageSize=100`).expect(200)).body as { orderId: number }[];
    expect(unpaid.map((o) => o.orderId)).to.include(young.orderId).and.not.include(stale.orderId);
    const audit = await m().AuditEvent.findOne({ where: { action: 'patient_order.expired', entityId: String(closed.patientId) } });
    expect(audit!.actorKind).to.equal('system');
    // A second look (another worker's, say) closes nothing more.
    expect(await expireUnpaidOrders(stack.t.ctx, { now: new Date() })).to.deep.equal({ expired: 0 });
  });

  it('MiraKind: the clinic orders for a patient; the summary and the receipt show the 20% tax-deductible donation', async () => {
    const who = orderingPatient();
    const body = { product: 'kras', answers: eligibleAnswers('kras'), patient: who, accountId: clinic.accountId, invitationToken: null, mirakind: true };
    await patient.post('/api/order/create', body).expect(401);
    await other.session.post('/api/order/create', body).expect(404);
    const created = await clinic.session.post('/api/order/create', body).expect(201);
    expect(created.body.order).to.include({ mirakind: true, accountName: clinic.name });
    const key = { orderNumber: created.body.order.orderNumber, orderToken: created.body.orderToken };
    const stored = await m().Order.findOne({ where: { orderNumber: key.orderNumber } });
    expect(stored!.createdByUserId).to.equal(clinic.userId);

    const priced = await choosePayment(clinic.session, key, PaymentMethod.SelfPay);
    expect(priced).to.include({ priceCents: 129_00, donationCents: 25_80 });
    const intent = (await clinic.session.post('/api/stripe/create-payment-intent', key).expect(200)).body;
    await payOnCardPage(intent.checkoutUrl, SUCCEEDING_CARD);
    const [mail] = await waitForMail(who.email);
    expect(mail.text).to.include('Amount paid: $129.00 (Self-Pay, paid by card)');
    expect(mail.text).to.include('Of this price, $25.80 (20%) is a tax-deductible donation to the MiraKind non-profit.');
  });

  it('insurance: no charge, the order moves on at once', async () => {
    const order = await placePatientOrder(stack.t.ctx, patient, { accountId: clinic.accountId, product: 'previotox' });
    const plan = await m().InsurancePlan.findOne({ where: { name: 'Aetna' } });
    await patient.post('/api/order/set-payment', { ...order.key, method: PaymentMethod.Insurance, insurancePlanId: 999999, insuranceMemberId: 'AET-1234' }).expect(404);
    const bad = await patient.post('/api/order/set-payment', { ...order.key, method: PaymentMethod.Insurance, insurancePlanId: plan!.id, insuranceMemberId: '!' }).expect(400);
    expect(bad.body.error.fields[0].field).to.equal('insuranceMemberId');
    const res = await choosePayment(patient, order.key, PaymentMethod.Insurance, { insurancePlanId: plan!.id, insuranceMemberId: 'AET-1234' });
    expect(res).to.include({ paymentStatus: PaymentStatus.NotCharged, stage: PatientOrderStage.AwaitingSignOff, priceCents: 0, insurancePlanName: 'Aetna' });
    expect(await m().Sample.count({ where: { orderId: order.orderId } })).to.equal(1);
    expect(stack.standIn.calls.filter((c) => c.idempotencyKey?.startsWith(`order-${order.orderId}-`))).to.deep.equal([]);
    await patient.post('/api/stripe/create-payment-intent', order.key).expect(409);
    const [mail] = await waitForMail(order.patient.email);
    expect(mail.text).to.include('Payment: Insurance (Aetna). Nothing was charged');
  });

  it('Spanish: an order placed in Spanish keeps the patient\'s language, and the receipt is written in it', async () => {
    const order = await placePatientOrder(stack.t.ctx, patient, { accountId: clinic.accountId, product: 'kras', language: 'es' });
    const row = await m().Order.findByPk(order.orderId);
    expect((await m().Patient.findByPk(row!.patientId))!.preferredLanguage).to.equal('es');
    const plan = await m().InsurancePlan.findOne({ where: { name: 'Aetna' } });
    await choosePayment(patient, order.key, PaymentMethod.Insurance, { insurancePlanId: plan!.id, insuranceMemberId: 'AET-5678' });
    const [mail] = await waitForMail(order.patient.email);
    expect(mail.subject).to.match(new RegExp(`^Su pedido de .+ ${order.orderNumber}: confirmación y recibo$`));
    expect(mail.text).to.include(`Hola, ${order.patient.firstName}:`);
    expect(mail.text).to.include('Pago: seguro médico (Insurance, Aetna). No se cobró nada');
    expect(mail.text).to.include('Prueba: KRAS');
    const bad = await patient.post('/api/order/create', {
      product: 'kras', answers: eligibleAnswers('kras'), patient: orderingPatient(), accountId: clinic.accountId, invitationToken: null, mirakind: false, language: 'fr',
    }).expect(400);
    expect(bad.body.error.fields[0].field).to.equal('language');
  });

  describe('cancellation', () => {
    it('refunds a paid order through Stripe: Refunded, the kit Discarded, the shipment Cancelled, the patient told', async () => {
      const order = await placePatientOrder(stack.t.ctx, patient, { accountId: clinic.accountId });
      await choosePayment(patient, order.key, PaymentMethod.SelfPay);
      const { intent } = await payByCard(order);
      await waitForMail(order.patient.email); // the receipt
      const cancel = (s: Session, reason = 'Patient chose another treatment', accountId = clinic.accountId) =>
        s.post(`/api/provider-clinic/${accountId}/patient-orders/${order.orderId}/cancel`, { reason });
      await cancel(other.physician, undefined, other.accountId).expect(404);
      await cancel(clinic.staff).expect(403);
      await clinic.physician.post(`/api/provider-clinic/${clinic.accountId}/patient-orders/${order.orderId}/cancel`, { reason: ' ' }).expect(400);

      const res = await cancel(clinic.session).expect(200);
      expect(res.body).to.include({ stage: PatientOrderStage.Cancelled, paymentStatus: PaymentStatus.RefundPending });
      const job = await outboxJobSettled(stack.t.ctx, `refund-payment:${order.orderId}`);
      expect(job.status).to.equal('Completed');
      const refunds = stack.standIn.calls.filter((c) => c.path === '/v1/refunds' && c.idempotencyKey === `refund-${order.orderId}`);
      expect(refunds).to.have.length(1);
      await until(async () => stack.standIn.deliveries.some((d) => d.type === 'charge.refunded' && d.status === 200), { what: 'the charge.refunded webhook' });
      const stored = await m().Order.findByPk(order.orderId);
      expect(stored).to.deep.include({ paymentStatus: PaymentStatus.Refunded, cancellationReason: 'Patient chose another treatment', stripePaymentIntentId: intent.paymentIntentId });
      expect(stored!.refundedAt).to.be.an.instanceOf(Date);
      const sample = await m().Sample.findOne({ where: { orderId: order.orderId } });
      expect(sample!.status).to.equal(SampleStatus.Discarded);
      const last = await m().SampleStatusEvent.findOne({ where: { sampleId: sample!.id }, order: [['id', 'DESC']] });
      expect(last).to.deep.include({ fromStatus: SampleStatus.OrderPlaced, toStatus: SampleStatus.Discarded, reason: 'Order cancelled: Patient chose another treatment', actorKind: 'provider' });
      expect((await m().Shipment.findOne({ where: { patientId: sample!.patientId } }))!.status).to.equal(ShipmentStatus.Cancelled);
      const mails = await waitForMail(order.patient.email, 2);
      expect(mails[1].subject).to.include('was cancelled');
      expect(mails[1].text).to.include('Your payment of $500.00 is refunded');
      expect((await cancel(clinic.session).expect(409)).body.error.message).to.equal('This order is already cancelled');
      expect((await summary(order.key)).stage).to.equal(PatientOrderStage.Cancelled);
      await emailsSettled(stack.t.ctx, order.patient.email);
      expect(await mailTo(order.patient.email)).to.have.length(2);
    });
  });

  it('an order is only reachable with its token; another account\'s order is a 404 to the clinic', async () => {
    const order = await placePatientOrder(stack.t.ctx, patient, { accountId: other.accountId });
    const wrong = await patient.post('/api/order/summary', { orderNumber: order.orderNumber, orderToken: 'a'.repeat(64) }).expect(404);
    expect(wrong.body.error.message).to.equal('Order not found');
    await clinic.physician.post(`/api/provider-clinic/${clinic.accountId}/patient-orders/${order.orderId}/cancel`, { reason: 'not ours' }).expect(404);
    await clinic.physician.post(`/api/provider-clinic/${clinic.accountId}/patient-orders/${order.orderId}/sign-off`, { attestations: ALL_ATTESTED }).expect(404);
    await patient.post('/api/order/create', {
      product: 'prostox', answers: eligibleAnswers('prostox'), patient: orderingPatient(), accountId: 999999, invitationToken: null, mirakind: false,
    }).expect(404);
  });
});

