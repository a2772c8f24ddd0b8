/**
 * The lab report PDF of one released result version, with what a CLIA inspector looks for
 * (42 CFR 493.1291(c)): the performing laboratory (name, address, CLIA number, director: from
 * configuration), the patient, the ordering account and physician, the specimen (type, source,
 * dates collected, received and reported), the test with its method and limitations (domain's
 * catalogue), the result with its interpretation, and who entered and who approved it. A
 * correction is re-issued as a "Corrected report" that names the reason and the value it replaces.
 */
import { UnrecoverableError } from 'bullmq';
import {
  formatCalendarDate, formatDate, formatDateTime, fullName, isTestName, patientLabel, specimenSourceOf, testMethodOf, TestResultStatus,
} from '@platform/domain';
import type { Sample, TestResult } from '@platform/db';
import { describeResult, releasedResultsOf, type ReleasedResult } from '@platform/server';
import { fields, paragraph, PDF_COLORS, renderPdf, section, type Pdf } from '../pdf/pdf-document';
import type { WorkerDeps } from '../processors/types';

// Missing dates and names are left out of the report's fields (null), not printed as a dash.
const date = (d: Date | null | undefined) => (d ? formatDate(d) : null);
const dateTime = (d: Date | null | undefined) => (d ? formatDateTime(d) : null);
const dataDate = (ymd: string | null | undefined) => (ymd ? formatCalendarDate(ymd) : null);

/** The released result version, with its test and the users who entered and approved it; refuses anything else. */
async function loadResult(deps: WorkerDeps, sampleId: number, testResultId: number): Promise<TestResult> {
  const m = deps.db.models;
  const result = await m.TestResult.findByPk(testResultId, {
    include: [
      { model: m.Test, as: 'test' },
      { model: m.User, as: 'enteredBy' },
      { model: m.User, as: 'reviewedBy' },
    ],
  });
  if (!result || !result.test) throw new UnrecoverableError(`test result ${testResultId} does not exist`);
  if (result.test.sampleId !== sampleId) throw new UnrecoverableError(`test result ${testResultId} does not belong to sample ${sampleId}`);
  if (result.status !== TestResultStatus.Released) throw new UnrecoverableError(`test result ${testResultId} is ${result.status}, not Released`);
  return result;
}

async function loadSample(deps: WorkerDeps, sampleId: number): Promise<Sample> {
  const m = deps.db.models;
  const sample = await m.Sample.findByPk(sampleId, {
    include: [
      { model: m.Patient, as: 'patient' },
      { model: m.Account, as: 'account' },
      { model: m.Order, as: 'order', include: [{ model: m.Physician, as: 'physician' }] },
    ],
  });
  if (!sample || !sample.patient) throw new UnrecoverableError(`sample ${sampleId} does not exist`);
  return sample;
}

function correctionNotice(doc: Pdf, result: TestResult, main: ReleasedResult): void {
  paragraph(doc, `Corrected. This report replaces the earlier report of this test${main.replaced?.reviewedAt ? ` released on ${date(main.replaced.reviewedAt)}` : ''}.`, { bold: true, color: PDF_COLORS.danger });
  fields(doc, [
    ['Reason for correction', result.correctionReason?.trim() || 'Result corrected by the laboratory'],
    ['Earlier result (replaced)', main.replaced ? main.replaced.value : null],
  ]);
}

function patientAndOrder(doc: Pdf, sample: Sample): void {
  const { patient, order } = sample;
  const physician = order?.physician ?? null;
  section(doc, 'Patient');
  fields(doc, [
    ['Name', patient!.studyId ? null : patientLabel(patient!)],
    ['Study ID', patient!.studyId],
    ['Date of birth', dataDate(patient!.dateOfBirth)],
    ['Sex', patient!.sex],
    ['Medical record number', patient!.medicalRecordNumber],
  ]);
  section(doc, 'Ordered by');
  fields(doc, [
    ['Account', sample.account?.name ?? 'Patient ordered'],
    ['Ordering physician', physician ? `${fullName(physician)}${physician.npi ? ` (NPI ${physician.npi})` : ''}` : null],
    ['Order number', order?.orderNumber],
  ]);
}

/** The specimen and its three dates: collected, received at the lab, reported (this report's date). */
function specimen(doc: Pdf, sample: Sample, reportedAt: Date): void {
  section(doc, 'Specimen');
  fields(doc, [
    ['Barcode', sample.barcode],
    ['Specimen type', sample.sampleType],
    ['Specimen source', specimenSourceOf(sample.sampleType)],
    ['Collected', date(sample.collectedAt)],
    ['Received at the lab', date(sample.receivedAt)],
    ['Reported', date(reportedAt)],
  ]);
}

function resultSection(doc: Pdf, main: ReleasedResult): void {
  const test = main.test;
  const method = isTestName(test.name) ? testMethodOf(test.name) : null;
  section(doc, 'Result');
  fields(doc, [['Test', test.name], ['Method', method?.method]]);
  doc.moveDown(0.2);
  paragraph(doc, `Result: ${main.valueText}`, { bold: true, size: 13 });
  if (main.interpretation && main.interpretation !== main.valueText) {
    paragraph(doc, 'Interpretation', { bold: true });
    paragraph(doc, main.interpretation);
  }
  if (method) paragraph(doc, `Limitations: ${method.limitations}`, { size: 8.5, color: PDF_COLORS.muted });
}

function otherResults(doc: Pdf, others: ReleasedResult[]): void {
  if (!others.length) return;
  section(doc, 'Other results on this sample');
  fields(doc, others.map((o) => [o.test.name, `${o.valueText}${o.corrected ? ' (corrected)' : ''}, released ${date(o.result.reviewedAt) ?? ''}`] as [string, string]));
}

function review(doc: Pdf, result: TestResult): void {
  section(doc, 'Review');
  fields(doc, [
    ['Entered by', `${fullName(result.enteredBy) ?? '—'}${result.importJobId ? ' (imported file)' : ''}, ${dateTime(result.createdAt)}`],
    ['Approved by', result.reviewedBy ? `${fullName(result.reviewedBy)}, ${dateTime(result.reviewedAt)}` : null],
    ['Approval date', date(result.reviewedAt)],
  ]);
}

export async function renderLabReport(deps: WorkerDeps, sampleId: number, testResultId: number): Promise<{ pdf: Buffer; corrected: boolean }> {
  const result = await loadResult(deps, sampleId, testResultId);
  const sample = await loadSample(deps, sampleId);
  const main = await describeResult(deps.db, result.test!, result);
  const others = (await releasedResultsOf(deps.db, sampleId)).filter((r) => r.test.id !== result.test!.id);
  const reportedAt = new Date();

  const pdf = await renderPdf(
    {
      brand: deps.config.brand,
      title: 'Laboratory report',
      subtitle: `${result.test!.name} · sample ${sample.barcode}`,
      banner: main.corrected ? 'Corrected report' : undefined,
      laboratory: deps.config.lab,
    },
    (doc) => {
      if (main.corrected) correctionNotice(doc, result, main);
      patientAndOrder(doc, sample);
      specimen(doc, sample, reportedAt);
      resultSection(doc, main);
      otherResults(doc, others);
      review(doc, result);
    },
  );
  return { pdf, corrected: main.corrected };
}
