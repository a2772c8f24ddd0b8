/**
 * A lab file's job (the `lab-import` job): a result file (toxicity risk levels or KRAS genotypes)
 * or a DNA extraction run (extraction-rows.ts: measurements per sample, rows outside the
 * acceptance range flagged) uploaded in the Lab Toolbox.
 * - dry-run: reads the file and checks every row; writes nothing but its result (jobs.result):
 *   the first rows as read, the row count and every error with its row number and column.
 * - commit: reads and checks the file again inside ONE transaction (samples locked) and writes
 *   every row, or nothing at all when any row fails now.
 * A file that is not an import at all (junk, empty, wrong columns, too many rows) fails the job
 * at once with one sentence (UnrecoverableError: no retry).
 */
import { UnrecoverableError } from 'bullmq';
import type { Logger } from 'pino';
import type { Db } from '@platform/db';
import {
  IMPORT_PREVIEW_ROWS, type ExtractionCommitResult, type ExtractionDryRunResult, type ImportCommitResult, type ImportDryRunResult, type JobPayloads,
} from '@platform/domain';
import type { Config } from '../config';
import { readFileContent } from '../files';
import { checkRows } from './check-rows';
import { commitRows } from './commit-rows';
import { checkExtractions, commitExtractions, readExtractionSheet } from './extraction-rows';
import { readImportSheet } from './result-sheet';

/** What a lab file's job needs: the database, the acceptance range of extractions, a log. */
export type ImportJobDeps = { db: Db; logger: Logger; config: Pick<Config, 'extractionAcceptance'> };
/** The running job: its row (results written are tagged with it) and its progress. */
export interface ImportJobTools {
  jobRowId: number;
  progress(percent: number): Promise<void>;
}

/** Runs one lab file's job (dry run or commit); answers the job's result. */
export async function runLabImport(payload: JobPayloads['lab-import'], deps: ImportJobDeps, tools: ImportJobTools): Promise<Record<string, unknown>> {
  if (payload.kind === 'dna-extraction') return extractionImport(payload, deps, tools);
  const { fileId, mode, userId } = payload;
  const kind = payload.kind;
  const { db } = deps;
  const file = await readFileContent(db, fileId);
  if (!file) throw new UnrecoverableError(`Import file ${fileId} does not exist`);
  const sheet = await readImportSheet(file.content, file.name, kind);
  const progress = progressAlongside(tools);
  progress.report(mode === 'dry-run' ? 30 : 10);

  if (mode === 'dry-run') {
    const { preview, errors } = await checkRows(db, kind, sheet, { previewRows: IMPORT_PREVIEW_ROWS });
    await progress.settled();
    const result: ImportDryRunResult = {
      mode, kind, fileId, fileName: file.name, format: sheet.format,
      rowCount: sheet.rows.length, rows: preview, errorCount: errors.length, errors,
    };
    deps.logger.info({ jobRowId: tools.jobRowId, fileId, rows: sheet.rows.length, errors: errors.length }, 'lab import dry run checked');
    return result as unknown as Record<string, unknown>;
  }

  const done = await db.models.TestResult.count({ where: { importJobId: tools.jobRowId } });
  const base: Omit<ImportCommitResult, 'resultsWritten' | 'samplesMovedToTesting'> = { mode, kind, fileId, fileName: file.name, rowCount: sheet.rows.length };
  if (done > 0) {
    // An earlier attempt of this job committed before its status could be recorded.
    return { ...base, resultsWritten: done, samplesMovedToTesting: 0, alreadyCommitted: true } satisfies ImportCommitResult as unknown as Record<string, unknown>;
  }
  const outcome = await db.sequelize.transaction(async (transaction) => {
    const { good, errors } = await checkRows(db, kind, sheet, { transaction, lock: true });
    if (errors.length) throw noLongerPasses(errors);
    progress.report(30);
    return commitRows(db, transaction, good, { userId, jobRowId: tools.jobRowId, fileId, kind }, (f) => progress.report(30 + f * 65));
  });
  await progress.settled();
  deps.logger.info({ jobRowId: tools.jobRowId, fileId, ...outcome }, 'lab import committed');
  return { ...base, ...outcome } satisfies ImportCommitResult as unknown as Record<string, unknown>;
}

/**
 * Progress written beside the work instead of before it: each report waits only for the one
 * before it (the job row's progress never goes back), and the import goes on meanwhile; the first
 * failed write fails the job when it is settled.
 */
function progressAlongside(tools: ImportJobTools): { report(percent: number): void; settled(): Promise<void> } {
  let chain: Promise<void> = Promise.resolve();
  let failure: unknown = null;
  return {
    report(percent) {
      chain = chain.then(() => tools.progress(percent)).catch((err: unknown) => void (failure ??= err));
    },
    async settled() {
      await chain;
      if (failure) throw failure;
    },
  };
}

/** A failed re-check at commit time: nothing was written. */
function noLongerPasses(errors: { row: number | null; message: string }[]): UnrecoverableError {
  const first = errors[0];
  return new UnrecoverableError(
    `Nothing was written: the file no longer passes its checks (${errors.length === 1 ? '1 error' : `${errors.length.toLocaleString('en-US')} errors`}; ` +
      `row ${first.row}: ${first.message}). Upload it again for a new dry run`,
  );
}

/** The dna-extraction kind: the same dry run and all-or-nothing commit, with the acceptance range of the configuration. */
async function extractionImport({ fileId, mode, userId }: JobPayloads['lab-import'], deps: ImportJobDeps, tools: ImportJobTools): Promise<Record<string, unknown>> {
  const { db } = deps;
  const acceptance = deps.config.extractionAcceptance;
  const file = await readFileContent(db, fileId);
  if (!file) throw new UnrecoverableError(`Import file ${fileId} does not exist`);
  const sheet = await readExtractionSheet(file.content, file.name);
  await tools.progress(mode === 'dry-run' ? 30 : 10);

  if (mode === 'dry-run') {
    const { preview, errors, flagged } = await checkExtractions(db, sheet, acceptance, { previewRows: IMPORT_PREVIEW_ROWS });
    const result: ExtractionDryRunResult = {
      mode, kind: 'dna-extraction', fileId, fileName: file.name, format: sheet.format,
      rowCount: sheet.rows.length, rows: preview, errorCount: errors.length, errors,
      acceptance, flaggedCount: flagged.length, flagged,
    };
    deps.logger.info({ jobRowId: tools.jobRowId, fileId, rows: sheet.rows.length, errors: errors.length, flagged: flagged.length }, 'dna extraction dry run checked');
    return result as unknown as Record<string, unknown>;
  }

  const base = { mode, kind: 'dna-extraction' as const, fileId, fileName: file.name, rowCount: sheet.rows.length };
  const done = await db.models.TestResult.count({ where: { importJobId: tools.jobRowId } });
  if (done > 0) {
    // An earlier attempt of this job committed before its status could be recorded.
    const written = await db.models.DnaExtraction.findAll({ where: { importJobId: tools.jobRowId }, attributes: ['flags'] });
    const flaggedCount = written.filter((e) => e.flags.length > 0).length;
    return { ...base, resultsWritten: done, samplesMovedToTesting: 0, flaggedCount, alreadyCommitted: true } satisfies ExtractionCommitResult as unknown as Record<string, unknown>;
  }
  const outcome = await db.sequelize.transaction(async (transaction) => {
    const { good, errors } = await checkExtractions(db, sheet, acceptance, { transaction, lock: true });
    if (errors.length) throw noLongerPasses(errors);
    await tools.progress(30);
    return commitExtractions(db, transaction, good, { userId, jobRowId: tools.jobRowId, fileId }, (f) => tools.progress(30 + f * 65));
  });
  deps.logger.info({ jobRowId: tools.jobRowId, fileId, ...outcome }, 'dna extraction import committed');
  return { ...base, ...outcome } satisfies ExtractionCommitResult as unknown as Record<string, unknown>;
}
