/**
 * Patient invitations: the clinic invites a patient by email; the link opens the order page with
 * the clinic and the test filled in, works for one order, and dies when resent or cancelled.
 */
import { expect } from 'chai';
import { InvitationStatus } from '@platform/domain';
import type { RunningWorker } from '@platform/worker';
import { newSession, type Session } from '../support/http';
import { startTestWorker } from '../support/server';
import { startPaymentStack, type PaymentStack } from '../support/stripe';
import { createPatientClinic, eligibleAnswers, orderingPatient, type PatientClinic } from '../support/fixtures/patient-orders';
import { waitForMail } from '../support/mail';
import { uniq } from '../support/fixtures/reports';
import { until } from '../support/wait';

describe('patient invitations', function () {
  this.timeout(60_000);
  let stack: PaymentStack;
  let worker: RunningWorker;
  let clinic: PatientClinic;
  let other: PatientClinic;
  let patient: Session;

  before(async () => {
    stack = await startPaymentStack();
    worker = await startTestWorker(stack.env);
    clinic = await createPatientClinic(stack.t.ctx, stack.t.app, 'Inviting Clinic');
    other = await createPatientClinic(stack.t.ctx, stack.t.app, 'Other Clinic');
    patient = await newSession(stack.t.app, '10.68.0.1');
  });
  after(async () => {
    await worker?.close();
    await stack?.close();
  });

  const invite = (s: Session, body: Record<string, unknown>, accountId = clinic.accountId) => s.post(`/api/provider-clinic/${accountId}/patient/invitations/create`, body);
  const update = (s: Session, body: Record<string, unknown>, accountId = clinic.accountId) => s.post(`/api/provider-clinic/${accountId}/patient/invitations/update`, body);
  const lookup = (token: string) => patient.post('/api/order/invitation', { invitationToken: token });

  /** The token of the newest invitation email to an address, read from its link. */
  async function linkToken(email: string, count = 1): Promise<{ token: string; link: URL }> {
    const mails = await waitForMail(email, count);
    const link = new URL(/https?:\/\/\S+invitation=[0-9a-f]{64}/.exec(mails[count - 1].text)![0]);
    return { token: link.searchParams.get('invitation')!, link };
  }

  const order = (token: string, accountId = clinic.accountId, product = 'kras') => patient.post('/api/order/create', {
    product, answers: eligibleAnswers(product as 'kras'), patient: orderingPatient(), accountId, invitationToken: token, mirakind: false,
  });

  it('emails a link that opens the order page prefilled; the link works for one order (then 410)', async () => {
    const email = `invited-${uniq()}@patients.test`;
    const res = await invite(clinic.staff, { email, firstName: 'Ines', lastName: null, product: 'kras' }).expect(201);
    expect(res.body).to.include({ email, firstName: 'Ines', product: 'kras', status: InvitationStatus.Requested, sendCount: 1, orderNumber: null });
    const { token, link } = await linkToken(email);
    expect(link.pathname).to.equal('/patient-portal/order/kras/new');
    const mail = (await waitForMail(email))[0];
    expect(mail.subject).to.equal(`${clinic.name} invites you to order the KRAS test`);

    const prefill = await lookup(token).expect(200);
    expect(prefill.body).to.deep.equal({ accountId: clinic.accountId, accountName: clinic.name, product: 'kras', email, firstName: 'Ines', lastName: null });
    await order(token, clinic.accountId, 'prostox').expect(422);
    const created = await order(token).expect(201);
    const stored = await stack.t.ctx.db.models.PatientInvitation.findByPk(res.body.id);
    expect(stored).to.deep.include({ status: InvitationStatus.Accepted });
    expect(stored!.usedAt).to.be.an.instanceOf(Date);
    expect((await lookup(token).expect(410)).body.error.message).to.equal('This invitation has already been used');
    expect((await order(token).expect(410)).body.error.message).to.equal('This invitation has already been used');

    const list = await clinic.physician.agent.get(`/api/provider-clinic/${clinic.accountId}/patient/invitations?pageSize=5`).expect(200);
    expect(list.headers['x-total-count']).to.equal('1');
    expect(list.body[0]).to.include({ id: res.body.id, status: InvitationStatus.Accepted, orderNumber: created.body.order.orderNumber });
    // Once sent, the email log keeps no usable link.
    const logged = await until(async () => {
      const e = await stack.t.ctx.db.models.Email.findOne({ where: { toAddress: email } });
      return e?.status === 'Sent' ? e : null;
    }, { what: 'the invitation email to be sent' });
    expect(logged.textBody).to.include('invitation=[redacted]').and.not.include(token);
  });

  it('resending makes a new link and kills the old one; cancelling kills the link', async () => {
    const email = `resend-${uniq()}@patients.test`;
    const res = await invite(clinic.session, { email, firstName: null, lastName: null, product: 'prostox' }).expect(201);
    const first = await linkToken(email);
    const resent = await update(clinic.session, { id: res.body.id, action: 'resend' }).expect(200);
    expect(resent.body.sendCount).to.equal(2);
    const second = await linkToken(email, 2);
    expect(second.token).to.not.equal(first.token);
    expect((await lookup(first.token).expect(404)).body.error.message).to.equal('This invitation link is not valid');
    await lookup(second.token).expect(200);

    await update(clinic.session, { id: res.body.id, action: 'cancel' }).expect(200);
    expect((await lookup(second.token).expect(410)).body.error.message).to.equal('This invitation was cancelled');
    expect((await update(clinic.session, { id: res.body.id, action: 'resend' }).expect(409)).body.error.message).to.equal('This invitation was cancelled');
  });

  it('refuses an expired link (410)', async () => {
    const email = `expired-${uniq()}@patients.test`;
    const res = await invite(clinic.session, { email, firstName: null, lastName: null, product: 'previotox' }).expect(201);
    const { token } = await linkToken(email);
    await stack.t.ctx.db.models.PatientInvitation.update({ expiresAt: new Date(Date.now() - 1000) }, { where: { id: res.body.id } });
    expect((await lookup(token).expect(410)).body.error.message).to.equal('This invitation has expired');
  });

  it('keeps each account\'s invitations to itself (404) and checks the input', async () => {
    const res = await invite(clinic.session, { email: `mine-${uniq()}@patients.test`, firstName: null, lastName: null, product: 'kras' }).expect(201);
    await update(other.session, { id: res.body.id, action: 'cancel' }, other.accountId).expect(404);
    await update(other.session, { id: res.body.id, action: 'cancel' }).expect(404);
    await other.session.agent.get(`/api/provider-clinic/${clinic.accountId}/patient/invitations`).expect(404);
    const foreignList = await other.session.agent.get(`/api/provider-clinic/${other.accountId}/patient/invitations`).expect(200);
    expect(foreignList.body.map((r: { id: number }) => r.id)).to.not.include(res.body.id);
    const bad = await invite(clinic.session, { email: 'not-an-email', firstName: null, lastName: null, product: 'kras' }).expect(400);
    expect(bad.body.error.fields[0].field).to.equal('email');
    await invite(clinic.session, { email: `x-${uniq()}@patients.test`, firstName: null, lastName: null, product: 'covid' }).expect(400);
    await lookup('z'.repeat(64)).expect(404);
  });
});
