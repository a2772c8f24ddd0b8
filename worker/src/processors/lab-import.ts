/**
 * lab-import: a result file (toxicity risk levels or KRAS genotypes) uploaded in the Lab Toolbox.
 * - dry-run: reads the file and checks every row; writes nothing but its result (jobs.result):
 *   the first rows as read, the row count and every error with its row number and column.
 * - commit: reads and checks the file again inside ONE transaction (samples locked) and writes
 *   every row, or nothing at all when any row fails now.
 * A file that is not an import at all (junk, empty, wrong columns, too many rows) fails the job
 * at once with one sentence (UnrecoverableError: no retry).
 */
import { UnrecoverableError } from 'bullmq';
import { IMPORT_PREVIEW_ROWS, type ImportCommitResult, type ImportDryRunResult } from '@platform/domain';
import { checkRows } from '../lab-import/check-rows';
import { commitRows } from '../lab-import/commit-rows';
import { readImportSheet } from '../lab-import/read-sheet';
import type { Processor } from './types';
import { readFileContent } from '@platform/server';

export const labImport: Processor<'lab-import'> = async ({ fileId, kind, mode, userId }, deps, tools) => {
  const { db } = deps;
  const file = await readFileContent(db, fileId);
  if (!file) throw new UnrecoverableError(`Import file ${fileId} does not exist`);
  const sheet = await readImportSheet(file.content, file.name, kind);
  await tools.progress(mode === 'dry-run' ? 30 : 10);

  if (mode === 'dry-run') {
    const { preview, errors } = await checkRows(db, kind, sheet, { previewRows: IMPORT_PREVIEW_ROWS });
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
    if (errors.length) {
      const first = errors[0];
      throw new UnrecoverableError(
        `Nothing was written: the file no longer passes its checks (${errors.length === 1 ? '1 error' : `${errors.length.toLocaleString('en-US')} errors`}; ` +
          `row ${first.row}: ${first.message}). Upload it again for a new dry run`,
      );
    }
    await tools.progress(30);
    return commitRows(db, transaction, good, { userId, jobRowId: tools.jobRowId, fileId, kind }, (f) => tools.progress(30 + f * 65));
  });
  deps.logger.info({ jobRowId: tools.jobRowId, fileId, ...outcome }, 'lab import committed');
  return { ...base, ...outcome } satisfies ImportCommitResult as unknown as Record<string, unknown>;
};
