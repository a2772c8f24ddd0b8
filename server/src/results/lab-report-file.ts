/** The current lab report of a sample: the latest lab_report document not superseded, with its bytes. */
import type { Db } from '@platform/db';
import { DocumentType } from '@platform/domain';
import { readFileContent } from '../files';

export interface LabReportFile {
  documentId: number;
  version: number;
  corrected: boolean;
  content: Buffer;
  contentType: string;
}

/** The current report's row (no bytes), or null when none has been rendered yet. */
export function currentLabReportDocument(db: Db, sampleId: number) {
  return db.models.SampleDocument.findOne({
    where: { sampleId, type: DocumentType.LabReport, supersededAt: null },
    order: [['version', 'DESC']],
  });
}

export async function latestLabReport(db: Db, sampleId: number): Promise<LabReportFile | null> {
  const document = await currentLabReportDocument(db, sampleId);
  if (!document) return null;
  const file = await readFileContent(db, document.fileId);
  if (!file) return null;
  return { documentId: document.id, version: document.version, corrected: document.corrected, content: file.content, contentType: file.contentType };
}
