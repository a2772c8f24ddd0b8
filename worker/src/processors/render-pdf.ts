import { UnrecoverableError } from 'bullmq';
import type { Transaction } from 'sequelize';
import { DocumentType, FileKind, labReportFileName } from '@platform/domain';
import { renderRequisitionForm } from '../documents/requisition-form';
import { renderLabReport } from '../documents/lab-report';
import type { Processor } from './types';
import { storeFile } from '@platform/server';

/**
 * Renders a sample's document and stores it as a new version. Idempotent: a requisition form is
 * rendered once per sample; a lab report once per released result version.
 */
export const renderPdf: Processor<'render-pdf'> = async ({ sampleId, documentType, testResultId }, deps) => {
  const { db } = deps;
  const sample = await db.models.Sample.findByPk(sampleId);
  if (!sample) throw new UnrecoverableError(`sample ${sampleId} does not exist`);
  const fileName = documentType === DocumentType.LabReport ? labReportFileName(sample.barcode, testResultId!) : `test-requisition-${sample.barcode}.pdf`;

  const stored = (transaction?: Transaction) => db.models.SampleDocument.findOne({
    where: { sampleId, type: documentType },
    include: [{ model: db.models.StoredFile, as: 'file', where: { name: fileName } }],
    transaction,
  });
  const existing = await stored();
  if (existing) return { documentId: existing.id, skipped: 'already rendered' };

  const rendered =
    documentType === DocumentType.LabReport
      ? await renderLabReport(deps, sampleId, testResultId!)
      : { pdf: await renderRequisitionForm(deps, sampleId), corrected: false };

  const document = await db.sequelize.transaction(async (transaction) => {
    // One writer of a sample's documents at a time: a release queues render-pdf and send-hl7, which
    // renders the report it sends; the second to get here finds the first's report and keeps it.
    await db.models.Sample.findByPk(sampleId, { transaction, lock: transaction.LOCK.UPDATE, attributes: ['id'] });
    const already = await stored(transaction);
    if (already) return already;
    const previous = await db.models.SampleDocument.findAll({ where: { sampleId, type: documentType, supersededAt: null }, transaction, lock: transaction.LOCK.UPDATE });
    const version = (await db.models.SampleDocument.max<number, InstanceType<typeof db.models.SampleDocument>>('version', { where: { sampleId, type: documentType }, transaction })) ?? 0;
    const file = await storeFile(db, transaction, { kind: documentType === DocumentType.LabReport ? FileKind.Ecm : FileKind.Order, name: fileName, contentType: 'application/pdf', content: rendered.pdf });
    // The earlier versions are kept (a corrected report never erases the first one), only marked superseded.
    for (const p of previous) await p.update({ supersededAt: new Date() }, { transaction });
    return db.models.SampleDocument.create({ type: documentType, sampleId, fileId: file.id, version: version + 1, corrected: rendered.corrected }, { transaction });
  });
  return { documentId: document.id, version: document.version };
};
