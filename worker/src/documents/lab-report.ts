/**
 * The lab report PDF of one released result version, with what a CLIA inspector looks for
 * (42 CFR 493.1291(c)): the performing laboratory (name, address, CLIA number, director: from
 * configuration), the patient, the ordering account and physician, the specimen (type, source,
 * dates collected, received and reported), the test with its method and limitations (domain's
 * catalogue), the result with its interpretation, who entered and who approved it, and the
 * manifest of its electronic signatures (21 CFR 11.50: name, date and time, meaning). A
 * correction is re-issued as a "Corrected report" that names the reason and the value it replaces.
 */
import { UnrecoverableError } from 'bullmq';
import {
  formatCalendarDate, formatDate, formatDateTime, fullName, isTestName, patientLabel, specimenSourceOf, testMethodOf, TestResultStatus,
} from '@platform/domain';
import { loadLabReportData, type LabReportData } from '@platform/server';
import { fields, paragraph, PDF_COLORS, section, startPdf, type Pdf } from '../pdf/pdf-document';
import type { WorkerDeps } from '../processors/types';

// Missing dates and names are left out of the report's fields (null), not printed as a dash.
// Instants read on the lab's clock (LAB_TIME_ZONE), a time with the zone's abbreviation.
interface Clock {
  date: (d: Date | null | undefined) => string | null;
  dateTime: (d: Date | null | undefined) => string | null;
}
const clockOf = (zone: string): Clock => ({
  date: (d) => (d ? formatDate(d, zone) : null),
  dateTime: (d) => (d ? formatDateTime(d, zone) : null),
});
const dataDate = (ymd: string | null | undefined) => (ymd ? formatCalendarDate(ymd) : null);

type Sample = NonNullable<LabReportData['sample']>;

/** The released result version and its sample, read in one query; refuses anything else. */
async function loadReport(deps: WorkerDeps, sampleId: number, testResultId: number): Promise<LabReportData & { sample: Sample }> {
  const data = await loadLabReportData(deps.db, sampleId, testResultId);
  if (!data) throw new UnrecoverableError(`test result ${testResultId} does not exist`);
  if (data.test.sampleId !== sampleId) throw new UnrecoverableError(`test result ${testResultId} does not belong to sample ${sampleId}`);
  if (data.result.status !== TestResultStatus.Released) throw new UnrecoverableError(`test result ${testResultId} is ${data.result.status}, not Released`);
  if (!data.sample) throw new UnrecoverableError(`sample ${sampleId} does not exist`);
  return data as LabReportData & { sample: Sample };
}

function correctionNotice(doc: Pdf, report: LabReportData, clock: Clock): void {
  paragraph(doc, `Corrected. This report replaces the earlier report of this test${report.replaced?.reviewedAt ? ` released on ${clock.date(report.replaced.reviewedAt)}` : ''}.`, { bold: true, color: PDF_COLORS.danger });
  fields(doc, [
    ['Reason for correction', report.result.correctionReason?.trim() || 'Result corrected by the laboratory'],
    ['Earlier result (replaced)', report.replaced ? report.replaced.value : null],
  ]);
}

function patientAndOrder(doc: Pdf, sample: Sample): void {
  const { patient, order } = sample;
  const physician = order?.physician ?? null;
  section(doc, 'Patient');
  fields(doc, [
    ['Name', patient.studyId ? null : patientLabel(patient)],
    ['Study ID', patient.studyId],
    ['Date of birth', dataDate(patient.dateOfBirth)],
    ['Sex', patient.sex],
    ['Medical record number', patient.medicalRecordNumber],
  ]);
  section(doc, 'Ordered by');
  fields(doc, [
    ['Account', sample.accountName ?? 'Patient ordered'],
    ['Ordering physician', physician ? `${fullName(physician)}${physician.npi ? ` (NPI ${physician.npi})` : ''}` : null],
    ['Order number', order?.orderNumber],
  ]);
}

/** The specimen and its three dates: collected, received at the lab, reported (this report's date). */
function specimen(doc: Pdf, sample: Sample, reportedAt: Date, clock: Clock): void {
  section(doc, 'Specimen');
  fields(doc, [
    ['Barcode', sample.barcode],
    ['Specimen type', sample.sampleType],
    ['Specimen source', specimenSourceOf(sample.sampleType)],
    ['Collected', clock.dateTime(sample.collectedAt)],
    ['Received at the lab', clock.dateTime(sample.receivedAt)],
    ['Reported', clock.dateTime(reportedAt)],
  ]);
}

function resultSection(doc: Pdf, report: LabReportData): void {
  const test = report.test;
  const method = isTestName(test.name) ? testMethodOf(test.name) : null;
  section(doc, 'Result');
  fields(doc, [['Test', test.name], ['Method', method?.method]]);
  doc.moveDown(0.2);
  paragraph(doc, `Result: ${report.valueText}`, { bold: true, size: 13 });
  if (report.interpretation && report.interpretation !== report.valueText) {
    paragraph(doc, 'Interpretation', { bold: true });
    paragraph(doc, report.interpretation);
  }
  if (method) paragraph(doc, `Limitations: ${method.limitations}`, { size: 8.5, color: PDF_COLORS.muted });
}

function otherResults(doc: Pdf, others: LabReportData['others'], clock: Clock): void {
  if (!others.length) return;
  section(doc, 'Other results on this sample');
  fields(doc, others.map((o) => [o.testName, `${o.valueText}${o.corrected ? ' (corrected)' : ''}, released ${clock.date(o.reviewedAt) ?? ''}`] as [string, string]));
}

function review(doc: Pdf, result: LabReportData['result'], clock: Clock): void {
  section(doc, 'Review');
  fields(doc, [
    ['Entered by', `${fullName(result.enteredBy) ?? '—'}${result.importJobId ? ' (imported file)' : ''}, ${clock.dateTime(result.createdAt)}`],
    ['Approved by', result.reviewedBy ? `${fullName(result.reviewedBy)}, ${clock.dateTime(result.reviewedAt)}` : null],
    ['Approval date', clock.date(result.reviewedAt)],
  ]);
}

/** 21 CFR 11.50: each signature's printed name, date and time, and meaning (a correction's with its reason). */
function signatureManifest(doc: Pdf, signatures: LabReportData['signatures'], clock: Clock): void {
  if (!signatures.length) return;
  section(doc, 'Electronic signatures');
  fields(doc, signatures.map((sg) => [
    sg.meaning,
    `Signed by ${sg.printedName}, ${clock.dateTime(sg.signedAt)}${sg.reason ? `. Reason: ${sg.reason}` : ''}`,
  ] as [string, string]));
}

export async function renderLabReport(deps: WorkerDeps, sampleId: number, testResultId: number): Promise<{ pdf: Buffer; corrected: boolean }> {
  const loading = loadReport(deps, sampleId, testResultId);
  // The heading needs no data: it is drawn while the query runs.
  const document = startPdf({ brand: deps.config.brand, title: 'Laboratory report', laboratory: deps.config.lab });
  const report = await loading;
  const { sample } = report;
  const reportedAt = new Date();
  const clock = clockOf(deps.config.labTimeZone);

  const pdf = await document.finish(
    { subtitle: `${report.test.name} · sample ${sample.barcode}`, banner: report.corrected ? 'Corrected report' : undefined },
    (doc) => {
      if (report.corrected) correctionNotice(doc, report, clock);
      patientAndOrder(doc, sample);
      specimen(doc, sample, reportedAt, clock);
      resultSection(doc, report);
      otherResults(doc, report.others, clock);
      review(doc, report.result, clock);
      signatureManifest(doc, report.signatures, clock);
    },
  );
  return { pdf, corrected: report.corrected };
}
