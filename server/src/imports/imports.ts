/**
 * Result-file imports (toxicity risk levels, KRAS genotypes): the upload stores the file and
 * queues its dry run (the worker's lab-import job checks every row and writes nothing); the
 * commit is queued only after a dry run of that file Completed without errors, and only by the
 * person who uploaded it (the results are entered in their name). The job row is the SPA's
 * progress bar; its errors download as CSV.
 */
import type { Transaction } from 'sequelize';
import {
  IMPORT_ERRORS_INLINE,
  JobStatus,
  sniffImportFile,
  UPLOAD_FILE_KIND,
  type ImportCommitAccepted,
  type ImportError,
  type ImportFileQuery,
  type ImportJob,
  type ImportJobResult,
  type ImportUploadAccepted,
  type LabImportKind,
  type LabImportMode, fullName,
} from '@platform/domain';
import type { ServerContext } from '../context';
import { auditActor, recordAudit, type UserCaller } from '../audit';
import { toIso } from '../answer-values';
import { badRequest, conflict, forbidden, notFound } from '../errors';
import { enqueueJob } from '../jobs/outbox';
import { storeFile } from '../files';

type Ctx = Pick<ServerContext, 'db' | 'relay'>;
type JobRow = InstanceType<ServerContext['db']['models']['Job']>;

export const LAB_IMPORT_JOB = 'lab-import';

interface ImportPayload { fileId: number; kind: LabImportKind; mode: LabImportMode; userId: number }
const payloadOf = (job: JobRow) => job.payload as ImportPayload;

/** POST import-files?kind=…&filename=… (the raw body is the file). */
export async function uploadImportFile(ctx: Ctx, caller: UserCaller, query: ImportFileQuery, body: unknown): Promise<ImportUploadAccepted> {
  const content = Buffer.isBuffer(body) ? body : Buffer.alloc(0);
  const sniff = sniffImportFile(content, query.filename);
  if (!sniff.ok) throw badRequest(sniff.error, [{ field: 'file', message: sniff.error }]);
  return ctx.db.sequelize.transaction(async (transaction) => {
    const file = await storeFile(ctx.db, transaction, { kind: UPLOAD_FILE_KIND, name: query.filename, contentType: sniff.contentType, content, uploadedByUserId: caller.userId });
    const { jobRowId } = await enqueueJob(ctx, transaction, LAB_IMPORT_JOB, { fileId: file.id, kind: query.kind, mode: 'dry-run', userId: caller.userId }, {
      idempotencyKey: `lab-import:dry-run:${file.id}`,
      createdByUserId: caller.userId,
    });
    await recordAudit(ctx.db, {
      ...auditActor(caller), action: 'lab_import.uploaded', entityKind: 'file', entityId: file.id,
      details: { kind: query.kind, format: sniff.format, sizeBytes: content.length, jobId: jobRowId },
    }, transaction);
    return { jobId: jobRowId, fileId: file.id };
  });
}

async function importJobsOf(ctx: Ctx, fileId: number, transaction?: Transaction): Promise<JobRow[]> {
  return ctx.db.models.Job.findAll({
    where: { name: LAB_IMPORT_JOB, payload: { fileId } } as never,
    order: [['id', 'ASC']],
    transaction,
  });
}

/** POST import-files/:fileId/commit */
export async function commitImportFile(ctx: Ctx, caller: UserCaller, fileId: number): Promise<ImportCommitAccepted> {
  return ctx.db.sequelize.transaction(async (transaction) => {
    const file = await ctx.db.models.StoredFile.findOne({ where: { id: fileId, kind: UPLOAD_FILE_KIND }, transaction, lock: transaction.LOCK.UPDATE });
    if (!file) throw notFound('Import file not found');
    const jobs = await importJobsOf(ctx, fileId, transaction);
    const dryRuns = jobs.filter((j) => payloadOf(j).mode === 'dry-run');
    if (!dryRuns.length) throw notFound('Import file not found');
    if (file.uploadedByUserId !== caller.userId) {
      throw forbidden('Only the person who uploaded this file can commit it (the results are entered in their name)');
    }
    const commits = jobs.filter((j) => payloadOf(j).mode === 'commit');
    const done = commits.find((j) => j.status === JobStatus.Completed);
    if (done) throw conflict(`This file was already committed (job ${done.id})`);
    const running = commits.find((j) => j.status === JobStatus.Pending);
    if (running) throw conflict(`This file is already being committed (job ${running.id})`);

    const dryRun = dryRuns[dryRuns.length - 1];
    if (dryRun.status === JobStatus.Pending) throw conflict('The dry run of this file has not finished yet');
    if (dryRun.status === JobStatus.Failed) throw conflict(`The dry run of this file failed: ${dryRun.error ?? 'unknown error'}. Correct the file and upload it again`);
    const errorCount = Number((dryRun.result as { errorCount?: number } | null)?.errorCount ?? 0);
    if (errorCount > 0) {
      throw conflict(`The dry run found ${errorCount === 1 ? '1 error' : `${errorCount.toLocaleString('en-US')} errors`} in this file: correct the file and upload it again`);
    }
    const { kind } = payloadOf(dryRun);
    const { jobRowId } = await enqueueJob(ctx, transaction, LAB_IMPORT_JOB, { fileId, kind, mode: 'commit', userId: caller.userId }, {
      idempotencyKey: `lab-import:commit:${fileId}:${commits.length + 1}`,
      createdByUserId: caller.userId,
    });
    await recordAudit(ctx.db, { ...auditActor(caller), action: 'lab_import.commit_requested', entityKind: 'file', entityId: fileId, details: { kind, jobId: jobRowId, dryRunJobId: dryRun.id } }, transaction);
    return { jobId: jobRowId };
  });
}

async function findImportJob(ctx: Ctx, jobId: number): Promise<JobRow> {
  const job = await ctx.db.models.Job.findOne({
    where: { id: jobId, name: LAB_IMPORT_JOB },
    include: [{ model: ctx.db.models.User, as: 'createdBy', attributes: ['id', 'firstName', 'lastName'] }],
  });
  if (!job) throw notFound('Import job not found');
  return job;
}

/** GET jobs/:jobId: the job row as the SPA polls it (errors inline up to IMPORT_ERRORS_INLINE; the CSV has them all). */
export async function getImportJob(ctx: Ctx, caller: UserCaller, jobId: number): Promise<ImportJob> {
  const job = await findImportJob(ctx, jobId);
  const payload = payloadOf(job);
  const file = await ctx.db.models.StoredFile.findByPk(payload.fileId, { attributes: ['id', 'name', 'sizeBytes', 'uploadedByUserId'] });
  // What the worker's lab-import processor wrote: a dry run's or a commit's result (null while Pending).
  let result = job.result as ImportJobResult | null;
  if (result && 'errors' in result && Array.isArray(result.errors) && result.errors.length > IMPORT_ERRORS_INLINE) {
    result = { ...result, errors: result.errors.slice(0, IMPORT_ERRORS_INLINE), errorsTruncated: true };
  }
  if (job.status !== JobStatus.Pending) {
    await recordAudit(ctx.db, { ...auditActor(caller), action: 'lab_import.viewed', entityKind: 'file', entityId: payload.fileId, details: { jobId, status: job.status } });
  }
  return {
    id: job.id,
    name: job.name,
    status: job.status,
    progress: job.progress,
    error: job.error,
    result,
    kind: payload.kind,
    mode: payload.mode,
    file: file ? { id: file.id, name: file.name, sizeBytes: Number(file.sizeBytes), uploadedByUserId: file.uploadedByUserId } : null,
    createdBy: job.createdBy ? { id: job.createdBy.id, name: fullName(job.createdBy) ?? 'Unknown' } : null,
    createdAt: job.createdAt.toISOString(),
    finishedAt: toIso(job.finishedAt),
  };
}

/** A CSV cell: quoted when needed, and never read by a spreadsheet as a formula. */
export function csvCell(value: unknown): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** GET jobs/:jobId/errors.csv: every error of a dry run (a failed run's one error on its own line). */
export async function importErrorsCsv(ctx: Ctx, caller: UserCaller, jobId: number): Promise<{ fileName: string; csv: string }> {
  const job = await findImportJob(ctx, jobId);
  if (job.status === JobStatus.Pending) throw conflict('The check of this file has not finished yet');
  const payload = payloadOf(job);
  const errors: ImportError[] = job.status === JobStatus.Failed
    ? [{ row: null, column: '', value: '', message: job.error ?? 'The file could not be checked' }]
    : ((job.result as { errors?: ImportError[] } | null)?.errors ?? []);
  const lines = ['row,column,value,message', ...errors.map((e) => [e.row ?? '', e.column, e.value, e.message].map(csvCell).join(','))];
  await recordAudit(ctx.db, { ...auditActor(caller), action: 'lab_import.errors_downloaded', entityKind: 'file', entityId: payload.fileId, details: { jobId, errors: errors.length } });
  return { fileName: `import-${job.id}-errors.csv`, csv: `${lines.join('\r\n')}\r\n` };
}
