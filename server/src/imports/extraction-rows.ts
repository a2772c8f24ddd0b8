/**
 * DNA extraction runs, through the same lab-import job as the result files (the server's
 * readSheet reads the file; the dry run and the commit are the processor's): the columns of an
 * extraction file, every row checked before anything is written, and the commit of every good
 * row in the caller's ONE transaction: the sample's DNA Extraction test (made when the sample has
 * none), a new In Review result version entered by the uploader, the dna_extractions row with the
 * measurements and flags, and each sample still In Queue moved to In Testing.
 *
 * No cell is trimmed: a value with a space around it is a row error naming its column. Rows
 * outside the acceptance range are not errors: they are flagged (listed with why) and imported;
 * the lab then sends each flagged sample to re-extraction or rejects it.
 */
import type { Transaction } from 'sequelize';
import { fn, col } from 'sequelize';
import type { Db } from '@platform/db';
import {
  EXTRACTION_COLUMNS,
  extractionColumnOf,
  extractionFlags,
  extractionResultValue,
  extractionRowRefusal,
  IMPORT_MAX_ROWS,
  readExtractionNumber,
  readExtractionPlate,
  readExtractionSampleId,
  readExtractionWell,
  TestName,
  TestResultStatus,
  type ExtractionAcceptance,
  type ExtractionColumn,
  type FlaggedExtractionRow,
  type ImportError,
  type ImportFormat,
  type ImportPreviewRow,
  type SampleStatus as Status,
} from '@platform/domain';
import { auditActor, recordAudit } from '../audit';
import { readSheet } from './sheet';
import { moveSamplesToTesting, samplesToMoveToTesting } from '../samples/move-samples';

const BATCH = 2_000;

export interface ExtractionSheetRow {
  row: number;
  /** Every column's cell exactly as written ('' when the row is shorter). */
  cells: Record<ExtractionColumn, string>;
}

export interface ExtractionSheet {
  format: ImportFormat;
  rows: ExtractionSheetRow[];
}

/** Reads an extraction file; throws Invalid (one sentence: run-job fails the job at once with it) for a file that is not one. */
export async function readExtractionSheet(content: Buffer, fileName: string): Promise<ExtractionSheet> {
  const { format, columns, data } = await readSheet(content, fileName, {
    maxRows: IMPORT_MAX_ROWS,
    columns: { required: EXTRACTION_COLUMNS, columnOf: extractionColumnOf, detail: true },
  });
  return {
    format,
    rows: data.map((r) => ({
      row: r.row,
      cells: Object.fromEntries(EXTRACTION_COLUMNS.map((c) => [c, r.cells[columns[c]] ?? ''])) as Record<ExtractionColumn, string>,
    })),
  };
}

/** A row that passed every check: what the commit writes. */
export interface GoodExtraction {
  row: number;
  /** As the file named the sample (its id, or its id + .reex). */
  label: string;
  reextraction: boolean;
  sampleId: number;
  orderId: number;
  sampleStatus: string;
  concentration: number;
  a260280: number;
  volume: number;
  /** The measurements as written (numeric columns keep them exactly). */
  written: { concentration: string; a260280: string; volume: string };
  plate: string;
  well: string;
  flags: string[];
}

export interface ExtractionCheck {
  preview: ImportPreviewRow[];
  good: GoodExtraction[];
  errors: ImportError[];
  flagged: FlaggedExtractionRow[];
}

type SampleRow = InstanceType<Db['models']['Sample']>;

/**
 * Checks every row. With `lock` (the commit) the samples are read FOR UPDATE inside the caller's
 * transaction (as a decision on a flagged extraction locks them), so nothing changes between the
 * check and the write.
 */
export async function checkExtractions(
  db: Db,
  sheet: ExtractionSheet,
  acceptance: ExtractionAcceptance,
  options: { transaction?: Transaction; lock?: boolean; previewRows?: number } = {},
): Promise<ExtractionCheck> {
  const { transaction } = options;
  const m = db.models;
  const errors: ImportError[] = [];
  const fail = (row: number, column: ExtractionColumn, value: string, message: string) => errors.push({ row, column, value, message });

  const ids = sheet.rows.map((r) => readExtractionSampleId(r.cells.sample_id));
  const barcodes = [...new Set(ids.flatMap((id) => (id.ok ? [id.value.barcode] : [])))];
  const samples: SampleRow[] = barcodes.length
    ? await m.Sample.findAll({
        where: { barcode: barcodes },
        attributes: ['id', 'barcode', 'status', 'orderId'],
        order: [['id', 'ASC']],
        transaction,
        ...(options.lock && transaction ? { lock: transaction.LOCK.UPDATE } : {}),
      })
    : [];
  const sampleByBarcode = new Map(samples.map((s) => [s.barcode, s]));
  const sampleIds = samples.map((s) => s.id);
  const tests = sampleIds.length
    ? await m.Test.findAll({ where: { sampleId: sampleIds, name: TestName.DnaExtraction }, attributes: ['id', 'sampleId'], transaction })
    : [];
  const open = tests.length
    ? await m.TestResult.findAll({
        where: { testId: tests.map((t) => t.id), status: [TestResultStatus.InReview, TestResultStatus.Released] },
        attributes: ['testId', 'status'],
        transaction,
      })
    : [];
  const sampleOfTest = new Map(tests.map((t) => [t.id, t.sampleId]));
  const openBySample = new Map<number, typeof TestResultStatus.InReview | typeof TestResultStatus.Released>();
  for (const r of open) {
    const sampleId = sampleOfTest.get(r.testId)!;
    if (!openBySample.has(sampleId)) openBySample.set(sampleId, r.status as typeof TestResultStatus.InReview | typeof TestResultStatus.Released);
  }
  const requested = sampleIds.length
    ? new Set((await m.DnaExtraction.findAll({ where: { sampleId: sampleIds, outcome: 're-extraction' }, attributes: ['sampleId'], transaction })).map((e) => e.sampleId))
    : new Set<number>();

  const firstRowOfSample = new Map<string, number>();
  const firstRowOfWell = new Map<string, number>();
  const preview: ImportPreviewRow[] = [];
  const good: GoodExtraction[] = [];
  const flagged: FlaggedExtractionRow[] = [];
  const previewRows = options.previewRows ?? 0;

  sheet.rows.forEach((r, i) => {
    const errorsBefore = errors.length;
    const { cells } = r;
    const id = ids[i];
    let sample: SampleRow | undefined;
    if (!id.ok) fail(r.row, 'sample_id', cells.sample_id, id.message);
    else {
      const { barcode, reextraction } = id.value;
      sample = sampleByBarcode.get(barcode);
      if (!sample) fail(r.row, 'sample_id', cells.sample_id, `No sample has id ${barcode}`);
      else {
        const refusal = extractionRowRefusal(reextraction, {
          barcode, status: sample.status as Status, reextractionRequested: requested.has(sample.id), openResult: openBySample.get(sample.id) ?? null,
        });
        if (refusal) fail(r.row, 'sample_id', cells.sample_id, refusal);
      }
      const first = firstRowOfSample.get(barcode);
      if (first !== undefined) fail(r.row, 'sample_id', cells.sample_id, `Sample ${barcode} is already on row ${first}`);
      else firstRowOfSample.set(barcode, r.row);
    }
    const concentration = readExtractionNumber('concentration', cells.concentration);
    if (!concentration.ok) fail(r.row, 'concentration', cells.concentration, concentration.message);
    const ratio = readExtractionNumber('a260_280', cells.a260_280);
    if (!ratio.ok) fail(r.row, 'a260_280', cells.a260_280, ratio.message);
    const volume = readExtractionNumber('volume', cells.volume);
    if (!volume.ok) fail(r.row, 'volume', cells.volume, volume.message);
    const plate = readExtractionPlate(cells.plate);
    if (!plate.ok) fail(r.row, 'plate', cells.plate, plate.message);
    const well = readExtractionWell(cells.well);
    if (!well.ok) fail(r.row, 'well', cells.well, well.message);
    if (plate.ok && well.ok) {
      const key = `${plate.value}\u0000${well.value}`;
      const first = firstRowOfWell.get(key);
      if (first !== undefined) fail(r.row, 'well', cells.well, `Well ${well.value} of plate ${plate.value} is already on row ${first}`);
      else firstRowOfWell.set(key, r.row);
    }

    const ok = errors.length === errorsBefore;
    let value = [cells.concentration, cells.a260_280, cells.volume, `${cells.plate} ${cells.well}`].join('; ');
    if (ok && sample && concentration.ok && ratio.ok && volume.ok && plate.ok && well.ok) {
      const measured = { concentration: concentration.value, a260280: ratio.value, volume: volume.value };
      const flags = extractionFlags(measured, acceptance);
      value = extractionResultValue(measured, plate.value, well.value);
      good.push({
        row: r.row, label: cells.sample_id, reextraction: id.ok && id.value.reextraction, sampleId: sample.id, orderId: sample.orderId, sampleStatus: sample.status, ...measured,
        written: { concentration: cells.concentration, a260280: cells.a260_280, volume: cells.volume }, plate: plate.value, well: well.value, flags,
      });
      if (flags.length) {
        flagged.push({ row: r.row, sampleId: cells.sample_id, sampleStatus: sample.status, ...measured, plate: plate.value, well: well.value, reasons: flags });
      }
    }
    if (preview.length < previewRows) {
      preview.push({ row: r.row, barcode: cells.sample_id, value, test: TestName.DnaExtraction, sampleStatus: sample?.status ?? null, ok });
    }
  });
  return { preview, good, errors, flagged };
}

export interface ExtractionCommitOutcome {
  resultsWritten: number;
  samplesMovedToTesting: number;
  flaggedCount: number;
}

/**
 * Writes every checked row in the caller's transaction: DNA Extraction tests for samples that
 * have none, a result version per row (In Review, entered by the uploader, import_job_id = this
 * job), the dna_extractions rows, the samples In Queue moved to In Testing (status events), and
 * one audit event for the import.
 */
export async function commitExtractions(
  db: Db,
  transaction: Transaction,
  rows: GoodExtraction[],
  who: { userId: number; jobRowId: number; fileId: number },
  progress: (fraction: number) => Promise<void>,
): Promise<ExtractionCommitOutcome> {
  const m = db.models;
  const toTesting = samplesToMoveToTesting(rows);
  const steps = Math.ceil(rows.length / BATCH) * 3 + 2;
  let step = 0;

  // The DNA Extraction test of each sample: the existing one, or a new one on the sample's order.
  const sampleIds = rows.map((r) => r.sampleId);
  const existing = await m.Test.findAll({ where: { sampleId: sampleIds, name: TestName.DnaExtraction }, attributes: ['id', 'sampleId'], order: [['id', 'ASC']], transaction });
  const testOf = new Map<number, number>();
  for (const t of existing) if (!testOf.has(t.sampleId)) testOf.set(t.sampleId, t.id);
  const missing = rows.filter((r) => !testOf.has(r.sampleId));
  for (let i = 0; i < missing.length; i += BATCH) {
    const created = await m.Test.bulkCreate(
      missing.slice(i, i + BATCH).map((r) => ({ orderId: r.orderId, sampleId: r.sampleId, name: TestName.DnaExtraction, parentType: null })),
      { transaction, returning: true },
    );
    for (const t of created) testOf.set(Number(t.sampleId), Number(t.id));
    await progress(++step / steps);
  }

  const testIds = [...new Set(testOf.values())];
  const maxVersions = (await m.TestResult.findAll({
    where: { testId: testIds },
    attributes: ['testId', [fn('max', col('version')), 'maxVersion']],
    group: ['testId'],
    raw: true,
    transaction,
  })) as unknown as { testId: number; maxVersion: number }[];
  const nextVersion = new Map(maxVersions.map((v) => [Number(v.testId), Number(v.maxVersion) + 1]));

  const resultOf = new Map<number, number>();
  for (let i = 0; i < rows.length; i += BATCH) {
    const created = await m.TestResult.bulkCreate(
      rows.slice(i, i + BATCH).map((r) => {
        const testId = testOf.get(r.sampleId)!;
        return {
          testId,
          version: nextVersion.get(testId) ?? 1,
          value: extractionResultValue(r, r.plate, r.well),
          scale: null,
          status: TestResultStatus.InReview,
          enteredByUserId: who.userId,
          importJobId: who.jobRowId,
        };
      }),
      { transaction, returning: true },
    );
    for (const res of created) resultOf.set(Number(res.testId), Number(res.id));
    await progress(++step / steps);
  }

  for (let i = 0; i < rows.length; i += BATCH) {
    await m.DnaExtraction.bulkCreate(
      rows.slice(i, i + BATCH).map((r) => ({
        sampleId: r.sampleId,
        label: r.label,
        testResultId: resultOf.get(testOf.get(r.sampleId)!)!,
        importJobId: who.jobRowId,
        fileRow: r.row,
        concentrationNgPerUl: r.written.concentration,
        a260280: r.written.a260280,
        volumeUl: r.written.volume,
        plate: r.plate,
        well: r.well,
        flags: r.flags,
      })),
      { transaction, returning: false },
    );
    await progress(++step / steps);
  }

  const moved = await moveSamplesToTesting(db, transaction, toTesting, who.userId);
  await progress(++step / steps);
  const flaggedCount = rows.filter((r) => r.flags.length).length;
  await recordAudit(db, {
    ...auditActor({ userId: who.userId, kind: 'lab', accountId: null, ip: null, requestId: null }),
    action: 'lab_import.committed',
    entityKind: 'file',
    entityId: who.fileId,
    details: {
      jobId: who.jobRowId, kind: 'dna-extraction', results: rows.length, testsCreated: missing.length, flagged: flaggedCount,
      reextractions: rows.filter((r) => r.reextraction).length, samplesMovedToTesting: moved,
    },
  }, transaction);
  await progress(++step / steps);
  return { resultsWritten: rows.length, samplesMovedToTesting: moved, flaggedCount };
}
