import { createHash } from 'node:crypto';
import { QueryTypes, type Transaction } from 'sequelize';
import type { Db, StoredFileKind } from '@platform/db';

export interface NewFile {
  kind: StoredFileKind;
  name: string;
  contentType: string;
  content: Buffer;
  uploadedByUserId?: number | null;
}

/** Stores a file's bytes in PostgreSQL (the system of record) with its size and SHA-256. */
export async function storeFile(db: Db, transaction: Transaction, file: NewFile) {
  return db.models.StoredFile.create(
    {
      kind: file.kind,
      name: file.name,
      contentType: file.contentType,
      sizeBytes: file.content.length,
      sha256: createHash('sha256').update(file.content).digest('hex'),
      content: file.content,
      uploadedByUserId: file.uploadedByUserId ?? null,
    },
    { transaction },
  );
}

/** A file's bytes (the default scope leaves them out of every other query). */
export async function readFileContent(db: Db, fileId: number): Promise<{ name: string; contentType: string; content: Buffer } | null> {
  const file = await db.models.StoredFile.scope('withContent').findByPk(fileId);
  return file ? { name: file.name, contentType: file.contentType, content: file.content } : null;
}

/** A sample's stored document of one type filed under one name (its newest version), with its bytes. */
export interface SampleDocumentFile {
  document_id: number;
  document_version: number;
  corrected: boolean;
  content_type: string;
  content: Buffer;
}

export async function sampleDocumentNamed(db: Db, sampleId: number, type: string, fileName: string): Promise<SampleDocumentFile | null> {
  const [row] = await db.sequelize.query<SampleDocumentFile>(
    `SELECT d.id AS document_id, d.version AS document_version, d.corrected, f.content_type, f.content
       FROM documents d JOIN files f ON f.id = d.file_id AND f.name = :fileName
      WHERE d.sample_id = :sampleId AND d.type = :type
      ORDER BY d.version DESC LIMIT 1`,
    { replacements: { sampleId, type, fileName }, type: QueryTypes.SELECT },
  );
  return row ?? null;
}
