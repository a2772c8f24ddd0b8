/**
 * Fixtures of the result tests (reports*.test.ts, notify*.test.ts): a clinic account of their own
 * with a provider user, and a sample with a Released result written directly by models (entered
 * by lab1, approved by lab2), so these tests do not depend on the lab's endpoints. Also: run a
 * real job through the outbox and wait for its status row, and the text of a PDF (pdftotext).
 */
import { randomBytes, randomInt } from 'node:crypto';
import type { Express } from 'express';
import type { Db } from '@platform/db';
import {
  AccessStatus, AccountRole, AccountType, catalogueEntry, JobStatus, Portal, ProviderTitle, SampleStatus, SampleType,
  TestOrigin, TestResultStatus, type JobName, type JobPayloads, type TestName,
} from '@platform/domain';
import { hashPassword, type AppContext } from '@platform/api';
import { enqueueJob } from '@platform/api/jobs';
import { DEMO_PASSWORD, DEMO_USERS } from '../../scripts/demo-users';
import { newSession, type Session } from '../support/http';
import { waitForMail } from '../support/mail';

export const uniq = () => randomBytes(4).toString('hex');

/** A fresh kit barcode no seed or other test uses (4199 + 10 random digits). */
export const freshBarcode = () => `4199${String(randomInt(0, 10 ** 10)).padStart(10, '0')}`;

export interface Clinic {
  account: InstanceType<Db['models']['Account']>;
  physician: InstanceType<Db['models']['Physician']>;
  /** The provider user (a Physician member, linked to the physician above). */
  email: string;
  userId: number;
}

/** A clinic account with one approved provider user who is its physician. */
export async function createClinic(db: Db, label: string): Promise<Clinic> {
  const m = db.models;
  const tag = uniq();
  const email = `dr-${label}-${tag}@clinic.test`;
  const user = await m.User.create({ kind: 'provider', email, passwordHash: await hashPassword(DEMO_PASSWORD), firstName: 'Dana', lastName: `Doc${tag}`, isActive: true });
  const contact = await m.Contact.create({ userId: user.id, firstName: user.firstName, lastName: user.lastName, email, title: ProviderTitle.Physician, specialty: null, accessStatus: AccessStatus.Approved });
  const account = await m.Account.create({ name: `Results ${label} Clinic ${tag}`, type: AccountType.General, eapPartner: false, international: false, clinicAccess: true, researchAccess: false, isActive: true });
  await m.AccountMembership.create({ accountId: account.id, contactId: contact.id, role: AccountRole.Physician, isActive: true });
  const physician = await m.Physician.create({ accountId: account.id, contactId: contact.id, firstName: user.firstName, lastName: user.lastName, npi: '1234567893', specialty: null });
  return { account, physician, email, userId: user.id };
}

export async function signInAs(app: Express, email: string, portal: 'provider' | 'research' | 'lab' = 'provider', ip?: string): Promise<Session> {
  const s = await newSession(app, ip);
  await s.post('/api/auth/login', { email, password: DEMO_PASSWORD, portal }).expect(200);
  await s.refreshCsrf();
  return s;
}

export async function userId(db: Db, key: keyof typeof DEMO_USERS): Promise<number> {
  const u = await db.models.User.findOne({ where: { email: DEMO_USERS[key].email } });
  return u!.id;
}

export interface ResultFixture {
  barcode: string;
  sampleId: number;
  patientId: number;
  testId: number;
  resultId: number;
  patient: { firstName: string; lastName: string; dateOfBirth: string; email: string | null };
}

export interface ResultOptions {
  accountId: number;
  physicianId: number | null;
  testName?: TestName;
  value?: string;
  patientEmail?: string | null;
  /** Defaults to Released (entered by lab1, approved by lab2). */
  resultStatus?: (typeof TestResultStatus)[keyof typeof TestResultStatus] | null;
  sampleStatus?: (typeof SampleStatus)[keyof typeof SampleStatus];
}

/** Patient, order, sample (Resulted), test and one result version, written directly. */
export async function createResult(db: Db, options: ResultOptions): Promise<ResultFixture> {
  const m = db.models;
  const tag = uniq();
  const testName = options.testName ?? 'PROSTOX ultra';
  const patient = {
    firstName: 'Walter',
    lastName: `Quill${tag}`,
    dateOfBirth: '1957-08-19',
    email: options.patientEmail === undefined ? `walter.${tag}@patients.test` : options.patientEmail,
  };
  const p = await m.Patient.create({ accountId: options.accountId, ...patient, sex: 'M' });
  const order = await m.Order.create({
    orderNumber: `RF_${String(randomInt(0, 10 ** 9)).padStart(9, '0')}`,
    accountId: options.accountId, patientId: p.id, physicianId: options.physicianId,
    origin: TestOrigin.ProviderOrdered, portal: Portal.Clinical, createdByUserId: null,
    attestations: { medicalNecessity: true, informedConsent: true, reimbursementClaim: true, supportingDocumentation: true },
  });
  const barcode = freshBarcode();
  const sample = await m.Sample.create({
    barcode, sampleType: SampleType.BuccalSwab, status: options.sampleStatus ?? SampleStatus.Resulted,
    accountId: options.accountId, patientId: p.id, orderId: order.id,
    collectedAt: new Date('2026-10-02T15:00:00Z'), receivedAt: new Date('2026-10-06T15:00:00Z'),
  });
  const test = await m.Test.create({ orderId: order.id, sampleId: sample.id, name: testName, parentType: catalogueEntry(testName).parentType });
  let resultId = 0;
  if (options.resultStatus !== null) {
    const status = options.resultStatus ?? TestResultStatus.Released;
    const reviewed = status === TestResultStatus.Released || status === TestResultStatus.Superseded;
    const result = await m.TestResult.create({
      testId: test.id, version: 1, value: options.value ?? 'High Risk', scale: 'risk4', status,
      enteredByUserId: await userId(db, 'lab1'), importJobId: null,
      reviewedByUserId: reviewed ? await userId(db, 'lab2') : null, reviewedAt: reviewed ? new Date('2026-10-20T16:30:00Z') : null,
      reviewNote: null, correctionReason: null,
    });
    resultId = result.id;
  }
  return { barcode, sampleId: sample.id, patientId: p.id, testId: test.id, resultId, patient };
}

/** A correction of the released result, approved: the old version Superseded, the new one Released. */
export async function releaseCorrection(db: Db, fixture: ResultFixture, value: string, reason: string): Promise<number> {
  const m = db.models;
  return db.sequelize.transaction(async (transaction) => {
    const latest = await m.TestResult.max<number, InstanceType<typeof m.TestResult>>('version', { where: { testId: fixture.testId }, transaction });
    const correction = await m.TestResult.create({
      testId: fixture.testId, version: (latest ?? 0) + 1, value, scale: 'risk4', status: TestResultStatus.InReview,
      enteredByUserId: await userId(db, 'lab1'), importJobId: null, reviewedByUserId: null, reviewedAt: null, reviewNote: null, correctionReason: reason,
    }, { transaction });
    await m.TestResult.update({ status: TestResultStatus.Superseded }, { where: { testId: fixture.testId, status: TestResultStatus.Released }, transaction });
    await correction.update({ status: TestResultStatus.Released, reviewedByUserId: await userId(db, 'lab2'), reviewedAt: new Date() }, { transaction });
    return correction.id;
  });
}

export async function until<T>(what: string, fn: () => Promise<T | null | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Enqueues a real job through the outbox and waits until its status row is Completed or Failed. */
export async function runJob<N extends JobName>(ctx: AppContext, name: N, payload: JobPayloads[N]) {
  const { jobRowId } = await ctx.db.sequelize.transaction((transaction) =>
    enqueueJob(ctx, transaction, name, payload, { idempotencyKey: `test:${name}:${uniq()}` }),
  );
  return until(`job ${name} #${jobRowId} to finish`, async () => {
    const row = await ctx.db.models.Job.findByPk(jobRowId);
    return row && row.status !== JobStatus.Pending ? row : null;
  }, 30_000);
}

/** The current (not superseded) lab report document of a sample, with its bytes. */
export async function currentReport(db: Db, sampleId: number) {
  const doc = await db.models.SampleDocument.findOne({ where: { sampleId, type: 'lab_report', supersededAt: null }, order: [['version', 'DESC']] });
  if (!doc) return null;
  const file = await db.models.StoredFile.scope('withContent').findByPk(doc.fileId);
  return { doc, content: file!.content };
}

export { pdfText, binaryBody as binary } from '../support/pdf';

/** The result page link in a patient's email: barcode and token. */
export function resultLinkIn(text: string): { url: string; barcode: string; token: string } {
  const match = /(https?:\/\/\S+\/reports\/patient_result\/([A-Za-z0-9_.-]+)\?token=([0-9a-f]{64}))/.exec(text);
  if (!match) throw new Error('no result link in the email');
  return { url: match[1], barcode: match[2], token: match[3] };
}

/**
 * A released result as the lab's approval leaves it, carried through the real worker: the lab
 * report rendered, the notifications sent; answers the fixture and the link from the patient's email.
 */
export async function deliveredResult(ctx: AppContext, options: ResultOptions & { withReport?: boolean }) {
  const fixture = await createResult(ctx.db, options);
  if (options.withReport !== false) {
    const rendered = await runJob(ctx, 'render-pdf', { sampleId: fixture.sampleId, documentType: 'lab_report', testResultId: fixture.resultId });
    if (rendered.status !== JobStatus.Completed) throw new Error(`render-pdf failed: ${rendered.error}`);
  }
  const notified = await runJob(ctx, 'notify-result', { testResultId: fixture.resultId });
  if (notified.status !== JobStatus.Completed) throw new Error(`notify-result failed: ${notified.error}`);
  if (!fixture.patient.email) return { fixture, link: null };
  const mails = await waitForMail(fixture.patient.email);
  return { fixture, link: resultLinkIn(mails[mails.length - 1].text) };
}

