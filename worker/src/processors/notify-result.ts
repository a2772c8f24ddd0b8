/**
 * Tells the provider and the patient that a released result is ready, in one transaction:
 * - the provider's email (the ordering physician's contact address, else the account's active
 *   Physician members): test and barcode only, no patient name and no result, with a link to the
 *   completed list;
 * - the patient's email, when the patient has an address: a new result link (earlier ones
 *   revoked), no result; for a test whose patient release policy is "To the clinic first", a hold
 *   instead (sent at the clinic's review or when the hold ends: results/patient-release.ts);
 * - the sample moves Resulted → Completed ("result delivered") once every test of the sample that
 *   reports a result has a released one; a sample In Storage stays there and goes back to
 *   Completed when taken out (moveSample).
 * At-least-once delivery sends nothing twice: the result row is locked and a 'result.notified'
 * audit marker per result version is written with the emails; a second run finds it and stops.
 */
import { Op } from 'sequelize';
import {
  AccessStatus, AccountRole, catalogueEntry, isTestName, resultGoesToPatient, SampleStatus, TestResultStatus, workStatusOf, type TestName,
} from '@platform/domain';
import type { Db } from '@platform/db';
import type { Processor } from './types';
import {
  auditActor, decidePatientRelease, describeResult, moveSample, queueEmail, recordAudit, resultReadyProviderEmail, supportMailboxFor, systemCaller,
} from '@platform/server';

export const RESULT_NOTIFIED_ACTION = 'result.notified';

type SampleRow = InstanceType<Db['models']['Sample']>;

/** Where the provider's email goes: the ordering physician's own address, else the account's physicians. */
async function providerRecipients(db: Db, sample: SampleRow): Promise<string[]> {
  const m = db.models;
  if (!sample.accountId) return [];
  const physician = sample.order?.physicianId ? await m.Physician.findByPk(sample.order.physicianId, { include: [{ model: m.Contact, as: 'contact' }] }) : null;
  const own = physician?.contact?.email?.trim();
  if (own) return [own.toLowerCase()];
  const memberships = await m.AccountMembership.findAll({
    where: { accountId: sample.accountId, role: AccountRole.Physician, isActive: true },
    include: [{ model: m.Contact, as: 'contact', where: { accessStatus: AccessStatus.Approved } }],
  });
  return [...new Set(memberships.map((ms) => ms.contact?.email?.trim().toLowerCase()).filter((e): e is string => Boolean(e)))];
}

/** The provider's page listing completed results of the account. */
function completedListUrl(publicUrl: string, account: { id: number; clinicAccess: boolean; researchAccess: boolean }): string {
  return !account.clinicAccess && account.researchAccess
    ? `${publicUrl}/provider-research/${account.id}/tests`
    : `${publicUrl}/provider-clinic/${account.id}/completed`;
}

/** True when every test of the sample that reports a result has a released one. */
async function everyResultReleased(db: Db, sampleId: number, transaction: import('sequelize').Transaction): Promise<boolean> {
  const tests = await db.models.Test.findAll({ where: { sampleId }, transaction });
  const reporting = tests.filter((t) => !isTestName(t.name) || catalogueEntry(t.name as TestName).scale !== null);
  if (!reporting.length) return false;
  const released = await db.models.TestResult.count({
    where: { testId: { [Op.in]: reporting.map((t) => t.id) }, status: TestResultStatus.Released },
    transaction,
  });
  return released >= reporting.length;
}

export const notifyResult: Processor<'notify-result'> = async ({ testResultId }, deps) => {
  const { db, config } = deps;
  const m = db.models;

  return db.sequelize.transaction(async (transaction) => {
    // Lock the result version: two deliveries of this job run one after the other.
    const result = await m.TestResult.findByPk(testResultId, { transaction, lock: transaction.LOCK.UPDATE });
    if (!result) return { skipped: 'no such result' };
    if (result.status !== TestResultStatus.Released) return { skipped: `result is ${result.status}` };

    const already = await m.AuditEvent.findOne({
      where: { action: RESULT_NOTIFIED_ACTION, entityKind: 'test', entityId: String(result.testId), details: { testResultId: result.id } } as never,
      transaction,
    });
    if (already) return { skipped: 'already notified' };

    const test = await m.Test.findByPk(result.testId, { transaction });
    if (!test) return { skipped: 'no such test' };
    const sample = await m.Sample.findByPk(test.sampleId, {
      include: [
        { model: m.Patient, as: 'patient' },
        { model: m.Account, as: 'account' },
        { model: m.Order, as: 'order' },
      ],
      transaction,
      lock: { level: transaction.LOCK.UPDATE, of: m.Sample },
    });
    if (!sample || !sample.patient) return { skipped: 'no such sample' };
    const { patient, account } = sample;
    const { corrected } = await describeResult(db, test, result, transaction);

    // (a) the provider: test and barcode only.
    const recipients = account ? await providerRecipients(db, sample) : [];
    const supportEmail = await supportMailboxFor(db, config.lab, sample.accountId, test.name, transaction);
    const providerEmailIds: number[] = [];
    for (const to of recipients) {
      const email = await queueEmail({ db, relay: deps.relay, config }, transaction, {
        to,
        ...resultReadyProviderEmail({
          brand: config.brand, testName: test.name, barcode: sample.barcode, accountName: account!.name, corrected, supportEmail,
          listUrl: completedListUrl(config.publicUrl, account!), releasedAt: result.reviewedAt ?? result.updatedAt, timeZone: config.labTimeZone,
        }),
        entity: { kind: 'sample', id: sample.id },
      });
      providerEmailIds.push(email.id);
    }

    // (b) the patient: a new link, no result, or, for a test the lab releases to the clinic first, a
    // hold until the clinic's review or the hold's end (server/src/results/patient-release.ts).
    // Research tests and Research Portal orders go to the research provider only.
    const toPatient = resultGoesToPatient(sample.order?.portal, test.name);
    const decision = toPatient
      ? await decidePatientRelease({ db, relay: deps.relay, config }, transaction, {
        resultId: result.id, testId: test.id, testName: test.name, sample, patient, corrected,
      })
      : null;
    const patientEmail = decision?.kind === 'sent' && decision.emailId !== null ? { linkId: decision.linkId!, emailId: decision.emailId } : null;

    // The result is delivered: Resulted → Completed, once every test of the sample has its result
    // (a sample In Storage counts by the status it goes back to, and stays In Storage).
    let moved = false;
    if (workStatusOf(sample) === SampleStatus.Resulted && (await everyResultReleased(db, sample.id, transaction))) {
      await moveSample(db, transaction, sample, { to: SampleStatus.Completed, by: systemCaller(), reason: 'Result delivered' });
      moved = true;
    }

    await recordAudit(db, {
      ...auditActor(systemCaller()),
      action: RESULT_NOTIFIED_ACTION,
      entityKind: 'test',
      entityId: result.testId,
      details: {
        testResultId: result.id,
        sampleId: sample.id,
        corrected,
        providerEmailIds,
        patientEmailId: patientEmail?.emailId ?? null,
        linkId: patientEmail?.linkId ?? null,
        ...(patient.email ? {} : { patientEmail: 'none on file' }),
        ...(decision?.kind === 'held' ? { patientEmail: 'held for the clinic\'s review', releaseDueAt: decision.releaseDueAt.toISOString() } : {}),
        ...(toPatient ? {} : { patientEmail: 'research: not sent to the participant' }),
      },
    }, transaction);

    return {
      providerEmails: providerEmailIds.length,
      patientEmail: patientEmail !== null,
      ...(decision?.kind === 'held' ? { patientHeldUntil: decision.releaseDueAt.toISOString() } : {}),
      sampleCompleted: moved,
    };
  });
};
