/** Stored files and a sample's documents: the spec's file kinds, uploads, and the document types. */
import { valuesOf } from './values';

export const DocumentType = { LabReport: 'lab_report', TestRequisitionForm: 'test_requisition_form' } as const;
export type DocumentType = (typeof DocumentType)[keyof typeof DocumentType];
export const DOCUMENT_TYPES = valuesOf(DocumentType);

export const FileKind = { Ecm: 'ECM File', Billing: 'Billing File', Order: 'Order File' } as const;
export type FileKind = (typeof FileKind)[keyof typeof FileKind];
export const FILE_KINDS = valuesOf(FileKind);

/** files.kind: the spec's file kinds plus a plain upload (an import file, for example) and a carrier's shipping label. */
export const UPLOAD_FILE_KIND = 'Upload';
/** A carrier's label bought for a kit shipment (allowed in files.kind from migration 20261206100000 on). */
export const SHIPPING_LABEL_FILE_KIND = 'Shipping Label';
export type StoredFileKind = FileKind | typeof UPLOAD_FILE_KIND | typeof SHIPPING_LABEL_FILE_KIND;
/** The kinds files.kind first allowed (migration 20261121120400); every kind is STORED_FILE_KINDS. */
export const FIRST_STORED_FILE_KINDS: StoredFileKind[] = [...FILE_KINDS, UPLOAD_FILE_KIND];
export const STORED_FILE_KINDS: StoredFileKind[] = [...FIRST_STORED_FILE_KINDS, SHIPPING_LABEL_FILE_KIND];
