/**
 * The one set of placement rules, for a scan and for every row of a plate file: the plate name,
 * the well and the sample id are read exactly as given (spaces around a value are an error naming
 * it); a well holds one thing; a sample (and its re-extraction) is in one place; a sample goes In
 * Storage only where the lifecycle allows it; a re-extraction belongs to a sample the lab has
 * received; controls are placed as they are. The rows are checked with a few batched queries;
 * with `lock` (a write follows) the samples are read FOR UPDATE in id order, so nothing about
 * them changes between the check and the write.
 */
import type { Transaction } from 'sequelize';
import {
  checkTransition,
  readPlateName,
  readStorageContent,
  readWell,
  SampleStatus,
  STORAGE_IMPORT_COLUMNS,
  STORAGE_WELLS,
  type ImportError,
  type SampleStatus as Status,
  type StorageContent,
  type StorageContentKind,
  type StorageImportPlate,
  type StorageImportRow,
} from '@platform/domain';
import { auditActor, recordAudit, type Caller } from '../audit';
import { moveSample } from './move-sample';
import type { ServerContext } from '../context';

type Db = ServerContext['db'];
type SampleRow = InstanceType<Db['models']['Sample']>;

/** One placement asked for: the values exactly as scanned or as written in the file's row. */
export interface PlacementRequest { row: number; plate: string; well: string; sampleId: string }

/** invalid: the value breaks a rule (400); not-found: no such sample (404); conflict: the current state refuses it (409). */
export type ProblemKind = 'invalid' | 'not-found' | 'conflict';
export interface PlacementProblem extends ImportError { row: number; kind: ProblemKind }

/** A row that passed every check: what writePlacements writes. */
export interface CheckedPlacement {
  row: number;
  plateName: string;
  /** Null for a plate the file names that does not exist yet (the commit creates it). */
  plateId: number | null;
  well: string;
  label: string;
  kind: StorageContentKind;
  sample: SampleRow | null;
}

export interface PlacementCheck {
  placements: CheckedPlacement[];
  problems: PlacementProblem[];
  rows: StorageImportRow[];
  plates: StorageImportPlate[];
}

interface ReadRow { request: PlacementRequest; plate: string | null; well: string | null; content: StorageContent | null }

const COLUMN = STORAGE_IMPORT_COLUMNS;
const wellKey = (plate: string, well: string) => `${plate}\u0000${well}`;
const placeKey = (sampleId: number, kind: StorageContentKind) => `${sampleId}:${kind}`;
const describe = (label: string, kind: StorageContentKind) => (kind === 're-extraction' ? `Re-extraction ${label}` : `Sample ${label}`);

/** Reads each row's three values; what cannot be read is a problem naming its column. */
function readRows(requests: PlacementRequest[], problems: PlacementProblem[]): ReadRow[] {
  return requests.map((request) => {
    const fail = (column: string, value: string, message: string) => problems.push({ row: request.row, column, value, message, kind: 'invalid' });
    const plate = readPlateName(request.plate);
    const well = readWell(request.well);
    const content = readStorageContent(request.sampleId);
    if (!plate.ok) fail(COLUMN.plate, request.plate, plate.error);
    if (!well.ok) fail(COLUMN.well, request.well, well.error);
    if (!content.ok) fail(COLUMN.sampleId, request.sampleId, content.error);
    return { request, plate: plate.ok ? plate.value : null, well: well.ok ? well.value : null, content: content.ok ? content.value : null };
  });
}

interface Known {
  plateIds: Map<string, number>;
  samples: Map<string, SampleRow>;
  /** plate name + well -> what the well holds now */
  occupied: Map<string, string>;
  /** sample id + kind -> where it is now */
  placed: Map<string, { plate: string; well: string }>;
}

/** What the database holds about the rows' plates and samples. */
async function loadKnown(db: Db, rows: ReadRow[], options: { transaction?: Transaction; lock?: boolean }): Promise<Known> {
  const m = db.models;
  const { transaction } = options;
  const plateNames = [...new Set(rows.flatMap((r) => (r.plate ? [r.plate] : [])))];
  const sampleIds = [...new Set(rows.flatMap((r) => (r.content?.sampleId ? [r.content.sampleId] : [])))];
  const plates = plateNames.length ? await m.StoragePlate.findAll({ where: { name: plateNames }, attributes: ['id', 'name'], transaction }) : [];
  const samples = sampleIds.length
    ? await m.Sample.findAll({
        where: { barcode: sampleIds },
        order: [['id', 'ASC']],
        transaction,
        ...(options.lock && transaction ? { lock: transaction.LOCK.UPDATE } : {}),
      })
    : [];
  const plateNameOf = new Map(plates.map((p) => [p.id, p.name]));
  const inPlates = plates.length ? await m.StoragePlateWell.findAll({ where: { plateId: plates.map((p) => p.id), removedAt: null }, attributes: ['plateId', 'well', 'label'], transaction }) : [];
  const ofSamples = samples.length
    ? await m.StoragePlateWell.findAll({
        where: { sampleId: samples.map((s) => s.id), removedAt: null },
        attributes: ['sampleId', 'contentKind', 'well'],
        include: [{ model: m.StoragePlate, as: 'plate', attributes: ['name'] }],
        transaction,
      })
    : [];
  return {
    plateIds: new Map(plates.map((p) => [p.name, p.id])),
    samples: new Map(samples.map((s) => [s.barcode, s])),
    occupied: new Map(inPlates.map((w) => [wellKey(plateNameOf.get(w.plateId)!, w.well), w.label])),
    placed: new Map(ofSamples.map((w) => [placeKey(w.sampleId!, w.contentKind), { plate: w.plate!.name, well: w.well }])),
  };
}

/** The problem of a well, or null: not twice in the file, not already filled. */
function wellProblem(r: ReadRow, known: Known, firstRowOfWell: Map<string, number>): { kind: ProblemKind; message: string } | null {
  const key = wellKey(r.plate!, r.well!);
  const first = firstRowOfWell.get(key);
  if (first !== undefined) return { kind: 'invalid', message: `Well ${r.well} of plate ${r.plate} is also on row ${first}` };
  firstRowOfWell.set(key, r.request.row);
  const holder = known.occupied.get(key);
  return holder ? { kind: 'conflict', message: `Well ${r.well} of plate ${r.plate} is already taken by ${holder}` } : null;
}

/** The problem of a sample or re-extraction, or null. */
function sampleProblem(r: ReadRow, sample: SampleRow, known: Known, firstRowOfSample: Map<string, number>): { kind: ProblemKind; message: string } | null {
  const { kind } = r.content!;
  const label = r.request.sampleId;
  const key = placeKey(sample.id, kind);
  const first = firstRowOfSample.get(key);
  if (first !== undefined) return { kind: 'invalid', message: `${describe(label, kind)} is also on row ${first}` };
  firstRowOfSample.set(key, r.request.row);
  const where = known.placed.get(key);
  if (where) return { kind: 'conflict', message: `${describe(label, kind)} is already on plate ${where.plate} in well ${where.well}` };
  if (kind === 're-extraction') {
    return sample.receivedAt ? null : { kind: 'conflict', message: `Sample ${sample.barcode} has not been received at the lab: it has no re-extraction to store` };
  }
  const check = checkTransition({ from: sample.status as Status, to: SampleStatus.InStorage, actor: 'lab' });
  return check.ok ? null : { kind: 'conflict', message: `Sample ${label} cannot be stored: ${check.error}` };
}

/** Checks every row (all problems at once); with `lock` inside the caller's transaction, ready for writePlacements. */
export async function checkPlacements(
  db: Db,
  requests: PlacementRequest[],
  options: { transaction?: Transaction; lock?: boolean } = {},
): Promise<PlacementCheck> {
  const problems: PlacementProblem[] = [];
  const read = readRows(requests, problems);
  const known = await loadKnown(db, read, options);
  const firstRowOfWell = new Map<string, number>();
  const firstRowOfSample = new Map<string, number>();
  const placements: CheckedPlacement[] = [];
  const rows: StorageImportRow[] = [];
  for (const r of read) {
    const before = problems.length;
    const fail = (column: string, value: string, message: string, kind: ProblemKind) => problems.push({ row: r.request.row, column, value, message, kind });
    if (r.plate && r.well) {
      const problem = wellProblem(r, known, firstRowOfWell);
      if (problem) fail(COLUMN.well, r.request.well, problem.message, problem.kind);
    }
    const sample = r.content?.sampleId ? known.samples.get(r.content.sampleId) : undefined;
    if (r.content?.sampleId && !sample) fail(COLUMN.sampleId, r.request.sampleId, `No sample has id ${r.content.sampleId}`, 'not-found');
    const problem = sample ? sampleProblem(r, sample, known, firstRowOfSample) : null;
    if (problem) fail(COLUMN.sampleId, r.request.sampleId, problem.message, problem.kind);
    const ok = problems.length === before && r.plate !== null && r.well !== null && r.content !== null;
    if (ok) {
      placements.push({ row: r.request.row, plateName: r.plate!, plateId: known.plateIds.get(r.plate!) ?? null, well: r.well!, label: r.request.sampleId, kind: r.content!.kind, sample: sample ?? null });
    }
    rows.push({ row: r.request.row, plate: r.request.plate, well: r.well ?? r.request.well, sampleId: r.request.sampleId, kind: r.content?.kind ?? null, status: (sample?.status as Status | undefined) ?? null, ok });
  }
  const plates = [...new Set(read.flatMap((r) => (r.plate ? [r.plate] : [])))].map((name) => ({
    name, exists: known.plateIds.has(name), placements: placements.filter((p) => p.plateName === name).length,
  }));
  problems.sort((a, b) => a.row - b.row); // stable: a row's problems keep their column order
  return { placements, problems, rows, plates };
}

export interface WrittenPlacements {
  plates: { id: number; name: string; created: boolean; placements: number }[];
  samplesMovedToStorage: number;
}

/** Creates the plates a file names that do not exist yet (by the caller). */
async function createMissingPlates(db: Db, transaction: Transaction, caller: Caller & { userId: number }, placements: CheckedPlacement[]): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (const p of placements) if (p.plateId !== null) ids.set(p.plateName, p.plateId);
  const missing = [...new Set(placements.filter((p) => p.plateId === null).map((p) => p.plateName))].sort();
  for (const name of missing) {
    const plate = await db.models.StoragePlate.create({ name, createdByUserId: caller.userId }, { transaction });
    ids.set(name, plate.id);
    await recordAudit(db, { ...auditActor(caller), action: 'storage_plate.created', details: { plateId: plate.id } }, transaction);
  }
  return ids;
}

/**
 * Writes checked placements in the caller's transaction: missing plates, the wells (in plate and
 * well order), and each sample's move to In Storage through moveSample (its status event and
 * audit). A unique violation (a concurrent placement) escapes to the caller's conflictOnDuplicate.
 */
export async function writePlacements(db: Db, transaction: Transaction, caller: Caller & { userId: number }, placements: CheckedPlacement[]): Promise<WrittenPlacements> {
  const plateIds = await createMissingPlates(db, transaction, caller, placements);
  const order = (p: CheckedPlacement) => [plateIds.get(p.plateName)!, STORAGE_WELLS.indexOf(p.well)];
  const sorted = [...placements].sort((a, b) => order(a)[0] - order(b)[0] || order(a)[1] - order(b)[1]);
  await db.models.StoragePlateWell.bulkCreate(
    sorted.map((p) => ({ plateId: plateIds.get(p.plateName)!, well: p.well, label: p.label, contentKind: p.kind, sampleId: p.sample?.id ?? null, placedByUserId: caller.userId })),
    { transaction, returning: false },
  );
  let moved = 0;
  for (const p of sorted) {
    if (p.kind !== 'sample') continue;
    await moveSample(db, transaction, p.sample!, { to: SampleStatus.InStorage, by: caller });
    moved += 1;
  }
  const created = new Set(placements.filter((p) => p.plateId === null).map((p) => p.plateName));
  return {
    plates: [...plateIds].map(([name, id]) => ({ id, name, created: created.has(name), placements: placements.filter((p) => p.plateName === name).length })),
    samplesMovedToStorage: moved,
  };
}
