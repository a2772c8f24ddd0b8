/**
 * The lab report PDF of one released result version: patient, account and ordering physician,
 * sample, the result with its interpretation, who entered and who approved it. A correction is
 * re-issued as a "Corrected report" that names the reason and the value it replaces.
 */
import { UnrecoverableError } from 'bullmq';
import { formatCalendarDate, formatDate, formatDateTime, fullName, TestResultStatus } from '@platform/domain';
import { fields, paragraph, PDF_COLORS, renderPdf, section } from '../pdf/pdf-document';
import type { WorkerDeps } from '../processors/types';
import { describeResult, releasedResultsOf } from '@platform/server';

// Missing dates and names are left out of the report's fields (null), not printed as a dash.
const date = (d: Date | null | undefined) => (d ? formatDate(d) : null);
const dateTime = (d: Date | null | undefined) => (d ? formatDateTime(d) : null);
const dataDate = (ymd: string | null | undefined) => (ymd ? formatCalendarDate(ymd) : null);

export async function renderLabReport(deps: WorkerDeps, sampleId: number, testResultId: number): Promise<{ pdf: Buffer; corrected: boolean }> {
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

  const sample = await m.Sample.findByPk(sampleId, {
    include: [
      { model: m.Patient, as: 'patient' },
      { model: m.Account, as: 'account' },
      { model: m.Order, as: 'order', include: [{ model: m.Physician, as: 'physician' }] },
    ],
  });
  if (!sample || !sample.patient) throw new UnrecoverableError(`sample ${sampleId} does not exist`);
  const { patient, order } = sample;
  const physician = order?.physician ?? null;

  const main = await describeResult(deps.db, result.test, result);
  const others = (await releasedResultsOf(deps.db, sampleId)).filter((r) => r.test.id !== result.test!.id);
  const test = result.test;

  const pdf = await renderPdf(
    {
      brand: deps.config.brand,
      title: 'Laboratory report',
      subtitle: `${test.name} · sample ${sample.barcode}`,
      banner: main.corrected ? 'Corrected report' : undefined,
    },
    (doc) => {
      if (main.corrected) {
        paragraph(doc, `Corrected. This report replaces the earlier report of this test${main.replaced?.reviewedAt ? ` released on ${date(main.replaced.reviewedAt)}` : ''}.`, { bold: true, color: PDF_COLORS.danger });
        fields(doc, [
          ['Reason for correction', result.correctionReason?.trim() || 'Result corrected by the laboratory'],
          ['Earlier result (replaced)', main.replaced ? main.replaced.value : null],
        ]);
      }

      section(doc, 'Patient');
      fields(doc, [
        ['Name', fullName(patient)],
        ['Date of birth', dataDate(patient.dateOfBirth)],
        ['Sex', patient.sex],
        ['Medical record number', patient.medicalRecordNumber],
      ]);

      section(doc, 'Ordered by');
      fields(doc, [
        ['Account', sample.account?.name ?? 'Patient ordered'],
        ['Ordering physician', physician ? `${fullName(physician)}${physician.npi ? ` (NPI ${physician.npi})` : ''}` : null],
        ['Order number', order?.orderNumber],
      ]);

      section(doc, 'Sample');
      fields(doc, [
        ['Barcode', sample.barcode],
        ['Sample type', sample.sampleType],
        ['Collected', date(sample.collectedAt)],
        ['Received at the lab', date(sample.receivedAt)],
      ]);

      section(doc, 'Result');
      fields(doc, [['Test', test.name]]);
      doc.moveDown(0.2);
      paragraph(doc, `Result: ${main.valueText}`, { bold: true, size: 13 });
      if (main.interpretation && main.interpretation !== main.valueText) {
        paragraph(doc, 'Interpretation', { bold: true });
        paragraph(doc, main.interpretation);
      }

      if (others.length) {
        section(doc, 'Other results on this sample');
        fields(doc, others.map((o) => [o.test.name, `${o.valueText}${o.corrected ? ' (corrected)' : ''}, released ${date(o.result.reviewedAt) ?? ''}`] as [string, string]));
      }

      section(doc, 'Review');
      fields(doc, [
        ['Entered by', `${fullName(result.enteredBy) ?? '—'}${result.importJobId ? ' (imported file)' : ''}, ${dateTime(result.createdAt)}`],
        ['Approved by', result.reviewedBy ? `${fullName(result.reviewedBy)}, ${dateTime(result.reviewedAt)}` : null],
        ['Approval date', date(result.reviewedAt)],
        ['Report date', date(new Date())],
      ]);
    },
  );
  return { pdf, corrected: main.corrected };
}
