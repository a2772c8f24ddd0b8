import { auditExportFileName, auditPdfContent, AUDIT_EXPORT_FILE_KIND, storeFile } from '@platform/server';
import { renderAuditTrailPdf } from '../documents/audit-trail';
import type { Processor } from './types';

/**
 * A PDF of the audit trail for the user who asked (the filters and scope of their request), stored
 * as a file the export's job row names. Idempotent: a run after a crash finds the file stored.
 */
export const auditTrailPdf: Processor<'audit-trail-pdf'> = async (payload, deps, { jobRowId }) => {
  const { db } = deps;
  const name = auditExportFileName(jobRowId);
  const stored = await db.models.StoredFile.findOne({ where: { name, kind: AUDIT_EXPORT_FILE_KIND, uploadedByUserId: payload.userId }, attributes: ['id'] });
  const content = await auditPdfContent(deps, payload);
  if (stored) return { fileId: stored.id, events: content.events.length };
  const pdf = await renderAuditTrailPdf({ brand: deps.config.brand, timeZone: deps.config.labTimeZone, filters: payload.filters, generatedAt: new Date(), ...content });
  const file = await db.sequelize.transaction((transaction) =>
    storeFile(db, transaction, { kind: AUDIT_EXPORT_FILE_KIND, name, contentType: 'application/pdf', content: pdf, uploadedByUserId: payload.userId }));
  return { fileId: file.id, events: content.events.length };
};
