/** Stored files and a sample's documents: the spec's file kinds, uploads, and the document types. */
import { valuesOf } from './values';

export const DocumentType = { LabReport: 'lab_report', TestRequisitionForm: 'test_requisition_form' } as const;
export type DocumentType = (typeof DocumentType)[keyof typeof DocumentType];
export const DOCUMENT_TYPES = valuesOf(DocumentType);

export const FileKind = { Ecm: 'ECM File', Billing: 'Billing File', Order: 'Order File' } as const;
export type FileKind = (typeof FileKind)[keyof typeof FileKind];
export const FILE_KINDS = valuesOf(FileKind);

/** files.kind: the spec's file kinds plus a plain upload (an import file, for example). */
export const UPLOAD_FILE_KIND = 'Upload';
export type StoredFileKind = FileKind | typeof UPLOAD_FILE_KIND;
export const STORED_FILE_KINDS: StoredFileKind[] = [...FILE_KINDS, UPLOAD_FILE_KIND];
