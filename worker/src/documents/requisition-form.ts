/**
 * The test requisition form of a clinic order: printed by the clinic and shipped in the kit with
 * the sample. Names the account, the ordering physician, the patient, the tests, the sample
 * type, the kit barcode (large, for the lab's intake), the order, and the four ordering
 * attestations as confirmed statements.
 */
import { UnrecoverableError } from 'bullmq';
import { attestationsFor, formatCalendarDate, formatDate, formatDateTime, fullName, patientLabel, patientSexLabel, type Portal } from '@platform/domain';
import { fields, paragraph, PDF_COLORS, renderPdf, rule, section } from '../pdf/pdf-document';
import type { WorkerDeps } from '../processors/types';

/** An order's day (an instant, in the lab's zone) or a calendar date (YYYY-MM-DD, never shifted) as MM/DD/YYYY. */
const usDate = (value: string | Date | null | undefined) => (!value ? null : typeof value === 'string' ? formatCalendarDate(value) : formatDate(value));

export async function renderRequisitionForm(deps: WorkerDeps, sampleId: number): Promise<Buffer> {
  const m = deps.db.models;
  const sample = await m.Sample.findByPk(sampleId, {
    include: [
      { model: m.Patient, as: 'patient' },
      { model: m.Account, as: 'account' },
      { model: m.Test, as: 'tests' },
      {
        model: m.Order,
        as: 'order',
        include: [
          { model: m.Physician, as: 'physician' },
          { model: m.User, as: 'createdBy', attributes: ['id', 'firstName', 'lastName'] },
        ],
      },
    ],
    order: [[{ model: m.Test, as: 'tests' }, 'id', 'ASC']],
  });
  if (!sample) throw new UnrecoverableError(`sample ${sampleId} does not exist`);
  const { patient, order, account } = sample;
  if (!patient || !order) throw new UnrecoverableError(`sample ${sampleId} has no patient or order`);
  const physician = order.physician ?? null;
  const attestations = (order.attestations ?? {}) as Record<string, unknown>;
  const tests = (sample.tests ?? []).map((t) => t.name);

  return renderPdf({ brand: deps.config.brand, title: 'Test Requisition Form', subtitle: `Order ${order.orderNumber}` }, (doc) => {
    section(doc, 'Kit barcode');
    doc.fillColor(PDF_COLORS.ink).font('Courier-Bold').fontSize(30).text(sample.barcode, 54, doc.y, { characterSpacing: 2 });
    doc.fillColor(PDF_COLORS.muted).font('Helvetica').fontSize(9).text('Write this barcode on the sample tube if its label is missing. Place this form in the kit with the sample.', 54, doc.y + 2);
    doc.moveDown(0.6);

    section(doc, 'Order');
    fields(doc, [
      ['Order number', order.orderNumber],
      ['Order date', usDate(order.createdAt)],
      ['Ordering account', account?.name],
      ['Test ordered', tests.join(', ')],
      ['Sample type', sample.sampleType],
    ]);

    section(doc, 'Ordering physician');
    fields(doc, [
      ['Name', fullName(physician)],
      ['NPI', physician?.npi],
      ['Specialty', physician?.specialty],
    ]);

    section(doc, 'Patient');
    fields(doc, [
      ['Name', patient.studyId ? null : patientLabel(patient)],
      ['Study ID', patient.studyId],
      ['Date of birth', usDate(patient.dateOfBirth)],
      ['Sex', patientSexLabel(patient.sex)],
      ['Medical record number', patient.medicalRecordNumber],
    ]);

    section(doc, 'Ordering attestations');
    // The attestations that apply where it was ordered (a research order confirms two of the four).
    for (const a of attestationsFor(order.portal as Portal)) {
      const confirmed = attestations[a.key] === true;
      paragraph(doc, `${confirmed ? 'Confirmed' : 'NOT CONFIRMED'}: ${a.confirmed}`, confirmed ? {} : { bold: true, color: PDF_COLORS.danger });
    }
    const confirmedAt = typeof attestations.confirmedAt === 'string' ? new Date(attestations.confirmedAt) : order.createdAt;
    paragraph(doc, `Attested by ${fullName(order.createdBy) ?? 'the ordering provider'} on ${formatDateTime(confirmedAt)}, in the ${order.portal}.`, { size: 9, color: PDF_COLORS.muted });
    rule(doc);
    paragraph(doc, 'For laboratory use: received on ____ / ____ / ________   by ______________________', { size: 9, color: PDF_COLORS.muted });
  });
}
