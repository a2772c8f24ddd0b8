/**
 * POST import-samples-storage-plates: a storage plate file (CSV or XLSX: plate, well, sample_id),
 * synchronous. The dry run checks every row (row numbers as the spreadsheet shows them) and writes
 * nothing; the commit checks the file again inside ONE transaction, samples locked, and writes
 * every row (plates the file names that do not exist yet are created) or nothing at all: any row
 * error is a 400 naming each row and column, a placement that another request made meanwhile a 409.
 */
import {
  formatCount,
  STORAGE_IMPORT_MAX_BYTES,
  STORAGE_IMPORT_PREVIEW_ROWS,
  type StorageImportBody,
  type StorageImportCheck,
  type StorageImportCommitted,
} from '@platform/domain';
import { auditActor, recordAudit, type UserCaller } from '../audit';
import { badRequest, conflictOnDuplicate, Invalid } from '../errors';
import type { ServerContext } from '../context';
import { checkPlacements, writePlacements, type PlacementProblem } from '../samples/storage-placement';
import { readStorageSheet, type StorageSheet } from './storage-sheet';

type Ctx = Pick<ServerContext, 'db'>;

/** The most row errors a refused commit lists (the dry run lists them all). */
const COMMIT_ERRORS_LISTED = 200;

/** The unique indexes a commit may hit when a scan or another import wins the race. */
const TAKEN_MEANWHILE = {
  storage_plate_wells_occupied_key: { field: 'file', message: 'A well this file fills was filled by someone else a moment ago: check the file again' },
  storage_plate_wells_sample_key: { field: 'file', message: 'A sample in this file was placed by someone else a moment ago: check the file again' },
  storage_plates_name_key: { field: 'file', message: 'A plate this file creates was created by someone else a moment ago: check the file again' },
};

async function readFile(body: StorageImportBody): Promise<StorageSheet> {
  const content = Buffer.from(body.content, 'base64');
  if (content.length > STORAGE_IMPORT_MAX_BYTES) {
    throw badRequest('The file is too large', [{ field: 'file', message: `The file is too large (the limit is ${Math.round(STORAGE_IMPORT_MAX_BYTES / 1024)} KB)` }]);
  }
  return readStorageSheet(content, body.fileName);
}

const requestsOf = (sheet: StorageSheet) => sheet.rows.map((r) => ({ row: r.row, plate: r.plate, well: r.well, sampleId: r.sampleId }));
const errorsOf = (problems: PlacementProblem[]) => problems.map(({ row, column, value, message }) => ({ row, column, value, message }));

/** Every row error of a refused commit as a field error: rows.<row>.<column>, "Row 5, well: …". */
function rowErrors(problems: PlacementProblem[]) {
  const listed = problems.slice(0, COMMIT_ERRORS_LISTED).map((p) => ({ field: `rows.${p.row}.${p.column}`, message: `Row ${p.row}, ${p.column}: ${p.message}` }));
  const more = problems.length - listed.length;
  return more > 0 ? [...listed, { field: 'file', message: `…and ${formatCount(more)} more: check the file for the full list` }] : listed;
}

async function dryRun(ctx: Ctx, caller: UserCaller, body: StorageImportBody, sheet: StorageSheet): Promise<StorageImportCheck> {
  const check = await checkPlacements(ctx.db, requestsOf(sheet));
  await recordAudit(ctx.db, {
    ...auditActor(caller), action: 'storage_import.checked', details: { format: sheet.format, rows: sheet.rows.length, errors: check.problems.length },
  });
  return {
    mode: 'dry-run', fileName: body.fileName, format: sheet.format, rowCount: sheet.rows.length,
    rows: check.rows.slice(0, STORAGE_IMPORT_PREVIEW_ROWS), errorCount: check.problems.length, errors: errorsOf(check.problems), plates: check.plates,
  };
}

async function commit(ctx: Ctx, caller: UserCaller, body: StorageImportBody, sheet: StorageSheet): Promise<StorageImportCommitted> {
  return conflictOnDuplicate(() => ctx.db.sequelize.transaction(async (transaction) => {
    const check = await checkPlacements(ctx.db, requestsOf(sheet), { transaction, lock: true });
    if (check.problems.length) {
      const count = check.problems.length === 1 ? '1 row error' : `${formatCount(check.problems.length)} row errors`;
      const fields = rowErrors(check.problems);
      throw new Invalid(`Nothing was written: the file has ${count} (${fields[0].message}${fields.length > 1 ? '; …' : ''})`, fields, 'validation_failed');
    }
    const written = await writePlacements(ctx.db, transaction, caller, check.placements);
    await recordAudit(ctx.db, {
      ...auditActor(caller), action: 'storage_import.committed',
      details: { rows: sheet.rows.length, plates: written.plates.map((p) => ({ plateId: p.id, created: p.created })), samplesMovedToStorage: written.samplesMovedToStorage },
    }, transaction);
    const plates = written.plates.map((p) => `${p.name}${p.created ? ' (new)' : ''}`).join(', ');
    return {
      mode: 'commit', fileName: body.fileName, rowCount: sheet.rows.length, placed: check.placements.length,
      samplesMovedToStorage: written.samplesMovedToStorage, plates: written.plates,
      message: `${formatCount(check.placements.length)} wells filled on ${plates}; ${formatCount(written.samplesMovedToStorage)} samples are In Storage`,
    };
  }), TAKEN_MEANWHILE);
}

/** POST import-samples-storage-plates */
export async function importStoragePlates(ctx: Ctx, caller: UserCaller, body: StorageImportBody): Promise<StorageImportCheck | StorageImportCommitted> {
  const sheet = await readFile(body);
  return body.mode === 'dry-run' ? dryRun(ctx, caller, body, sheet) : commit(ctx, caller, body, sheet);
}
