/**
 * The test requisition form of an order: for a clinic order, printed by the clinic and shipped in
 * the kit with the sample; for a patient's own order (rendered when a physician of the clinic signs
 * it off), kept by the clinic with the patient's record while the lab mails the kit to the patient.
 * Names the account, the order's origin, the ordering physician, the patient, the tests, the
 * sample type, the kit barcode (a Code 128 barcode and its digits, for the lab's intake), the order, and the ordering
 * attestations as confirmed statements, with who confirmed them and when.
 */
import { UnrecoverableError } from 'bullmq';
import { attestationsFor, DIAGNOSIS_CODE_SYSTEM, diagnosisViews, formatCalendarDate, formatDate, formatDateTime, fullName, patientLabel, patientSexLabel, TestOrigin, type Portal } from '@platform/domain';
import { drawCode128, encodeBarcode } from '@platform/server';
import { fields, paragraph, PDF_COLORS, renderPdf, rule, section } from '../pdf/pdf-document';
import type { WorkerDeps } from '../processors/types';

/** An order's day (an instant, on the lab's clock: `zone`) or a calendar date (YYYY-MM-DD, never shifted) as MM/DD/YYYY. */
const usDate = (value: string | Date | null | undefined, zone: string) => (!value ? null : typeof value === 'string' ? formatCalendarDate(value) : formatDate(value, zone));

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
  const patientOrdered = order.origin === TestOrigin.PatientOrdered;
  // Who confirmed the attestations: the clinic user who placed the order, or the physician who signed a patient's order off.
  const confirmedByUserId = typeof attestations.confirmedByUserId === 'number' ? attestations.confirmedByUserId : null;
  const confirmedBy = confirmedByUserId && confirmedByUserId !== order.createdByUserId
    ? await m.User.findByPk(confirmedByUserId, { attributes: ['id', 'firstName', 'lastName'] })
    : order.createdBy;

  // The kit barcode as a Code 128 barcode the lab's scanner reads at intake, its digits under it.
  const barcode = await encodeBarcode('code128', sample.barcode);
  const zone = deps.config.labTimeZone;

  return renderPdf({ brand: deps.config.brand, title: 'Test Requisition Form', subtitle: `Order ${order.orderNumber}` }, (doc) => {
    section(doc, 'Kit barcode');
    if (barcode.symbology === 'code128') {
      const top = doc.y + 4;
      drawCode128(doc, barcode, { x: 54, y: top, width: 260, height: 48 }, 1, 2);
      doc.y = top + 52;
    }
    doc.fillColor(PDF_COLORS.ink).font('Courier-Bold').fontSize(30).text(sample.barcode, 54, doc.y, { characterSpacing: 2 });
    const kitNote = patientOrdered
      ? "The patient ordered this test; the lab mails this kit to them and they return the sample in it. Keep this form with the patient's record."
      : 'Write this barcode on the sample tube if its label is missing. Place this form in the kit with the sample.';
    doc.fillColor(PDF_COLORS.muted).font('Helvetica').fontSize(9).text(kitNote, 54, doc.y + 2);
    doc.moveDown(0.6);

    section(doc, 'Order');
    fields(doc, [
      ['Order number', order.orderNumber],
      ['Order date', usDate(order.createdAt, zone)],
      ['Order origin', order.origin],
      ...(patientOrdered ? [['Signed off', usDate(order.signedOffAt, zone)] as [string, string | null]] : []),
      ['Ordering account', account?.name],
      ['Test ordered', tests.join(', ')],
      ['Sample type', sample.sampleType],
      // The order's ICD-10-CM codes with CMS's descriptions as they were when it was placed (the claim's diagnoses).
      [`Diagnosis (${DIAGNOSIS_CODE_SYSTEM})`, diagnosisViews(order.diagnosisCodes).map((d) => `${d.display} ${d.description}`).join('; ') || null],
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
      ['Date of birth', usDate(patient.dateOfBirth, zone)],
      ['Sex', patientSexLabel(patient.sex)],
      ['Medical record number', patient.medicalRecordNumber],
    ]);

    section(doc, 'Ordering attestations');
    // The attestations that apply where it was ordered (a research order confirms two of the four).
    for (const a of attestationsFor(order.portal as Portal, order.paymentMethod)) {
      const confirmed = attestations[a.key] === true;
      paragraph(doc, `${confirmed ? 'Confirmed' : 'NOT CONFIRMED'}: ${a.confirmed}`, confirmed ? {} : { bold: true, color: PDF_COLORS.danger });
    }
    const confirmedAt = typeof attestations.confirmedAt === 'string' ? new Date(attestations.confirmedAt) : order.createdAt;
    const where = patientOrdered ? "when signing off the patient's order in the Clinical Portal" : `in the ${order.portal}`;
    paragraph(doc, `Attested by ${fullName(confirmedBy) ?? 'the ordering provider'} on ${formatDateTime(confirmedAt, zone)}, ${where}.`, { size: 9, color: PDF_COLORS.muted });
    rule(doc);
    paragraph(doc, 'For laboratory use: received on ____ / ____ / ________   by ______________________', { size: 9, color: PDF_COLORS.muted });
  });
}
