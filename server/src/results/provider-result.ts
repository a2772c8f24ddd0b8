/**
 * The provider's side of a result: downloading a sample's current lab report (only for samples
 * of the caller's own accounts, every download audited) and re-sending the patient's result link
 * (a new link: the old one stops working, and a lockout is cleared).
 */
import { Op } from 'sequelize';
import { resultGoesToPatient, type AccountSummary } from '@platform/domain';
import type { ServerContext } from '../context';
import { reportNotReady } from './patient-result';
import { auditActor, type Caller, recordAudit } from '../audit';
import { conflict, notFound } from '../errors';
import { latestLabReport } from './lab-report-file';
import { releasedResultsOf } from './released-results';
import { patientHeldResults } from './patient-release';
import { sendPatientResultLink } from './result-links';

const sampleNotFound = () => notFound('Sample not found');

/** GET metabase/samples/{id}/reports/download: the current report of a sample of one of the caller's accounts. */
export async function providerReportDownload(ctx: ServerContext, accounts: AccountSummary[], sampleId: number, caller: Caller) {
  const accountIds = accounts.filter((a) => a.clinicAccess || a.researchAccess).map((a) => a.id);
  if (!accountIds.length) throw sampleNotFound();
  const sample = await ctx.db.models.Sample.findOne({ where: { id: sampleId, accountId: { [Op.in]: accountIds } } });
  if (!sample) throw sampleNotFound();
  const report = await latestLabReport(ctx.db, sample.id);
  if (!report) throw reportNotReady();
  await recordAudit(ctx.db, {
    ...auditActor(caller),
    action: 'report.downloaded',
    entityKind: 'sample',
    entityId: sample.id,
    details: { accountId: sample.accountId, documentId: report.documentId, version: report.version, corrected: report.corrected },
  });
  return { ...report, fileName: `lab-report-${sample.barcode}${report.corrected ? '-corrected' : ''}.pdf` };
}

/**
 * POST patient/send-result-email: a new result link to the patient of a sample of this account
 * with a released result. 409 when there is nothing to send or nowhere to send it.
 */
export async function resendResultEmail(ctx: ServerContext, accountId: number, sampleId: number, caller: Caller) {
  const { Sample, Patient } = ctx.db.models;
  return ctx.db.sequelize.transaction(async (transaction) => {
    const sample = await Sample.findOne({ where: { id: sampleId, accountId }, transaction, lock: transaction.LOCK.UPDATE });
    if (!sample) throw sampleNotFound();
    const released = await releasedResultsOf(ctx.db, sample.id, transaction);
    if (!released.length) throw conflict('This sample has no released result yet');
    const order = await ctx.db.models.Order.findByPk(sample.orderId, { attributes: ['portal'], transaction });
    const goesToPatient = released.filter((r) => resultGoesToPatient(order?.portal, r.test.name));
    if (!goesToPatient.length) throw conflict('Results of research tests are not sent to patients');
    // A result the clinic reviews first goes to the patient with the review ("Mark reviewed"), not with a new link.
    const held = await patientHeldResults(ctx.db, sample.id, transaction);
    const forPatient = goesToPatient.filter((r) => !held.has(r.result.id));
    if (!forPatient.length) throw conflict('This result is waiting for your review. Mark it reviewed to send it to the patient.');
    const patient = await Patient.findByPk(sample.patientId, { transaction });
    if (!patient) throw sampleNotFound();
    if (!patient.email) throw conflict('The patient has no email address on file. Add one to the patient before sending the result.');
    const sent = await sendPatientResultLink(ctx, transaction, {
      sample,
      patient,
      testNames: forPatient.map((r) => r.test.name),
      corrected: forPatient.some((r) => r.corrected),
      createdByUserId: caller.userId,
    });
    await recordAudit(ctx.db, {
      ...auditActor(caller),
      action: 'result.link_sent',
      entityKind: 'sample',
      entityId: sample.id,
      details: { accountId, linkId: sent.linkId, emailId: sent.emailId },
    }, transaction);
    return { sentTo: patient.email, linkId: sent.linkId };
  });
}
