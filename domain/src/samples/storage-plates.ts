/**
 * Storage plates (SPEC §7 import-samples-storage-plates): the 96-well plates the lab keeps
 * samples on, what a well may hold, and how a scanned or imported value is read. Plain values and
 * answer shapes only (no joi here: the SPA imports these); the request schemas are in
 * storage-schemas.ts.
 *
 * Nothing here trims: a plate name, a well or a sample id with spaces around it is refused with a
 * sentence naming the field, never silently corrected.
 */
import { IMPORT_FORMATS, ImportError } from '../imports/imports';
import * as s from '../shared/shapes';
import { PCR_CONTROL_LABELS, PCR_WELLS, type PcrControlKind } from '../pcr/plates';
import { describeSpacingProblem } from '../shared/text';
import { controlKind, isKitBarcode, isSampleId, reextractionOf } from './identifiers';
import { SAMPLE_STATUSES } from './statuses';

// ---------------------------------------------------------------------------------------------
// The plate
// ---------------------------------------------------------------------------------------------

/** A storage plate has the 96 wells of a PCR plate (rows A-H, columns 1-12), filled down each column. */
export const STORAGE_WELLS: readonly string[] = PCR_WELLS;
export const STORAGE_WELL_COUNT = STORAGE_WELLS.length;
export const STORAGE_PLATE_NAME_MAX_LENGTH = 64;

/** The first free well after `after` in filling order (A1, B1 … H1, A2 …), wrapping round; null on a full plate. */
export function nextFreeWell(occupied: Iterable<string>, after?: string | null): string | null {
  const taken = new Set(occupied);
  const start = after ? STORAGE_WELLS.indexOf(after) : -1;
  for (let i = 1; i <= STORAGE_WELLS.length; i++) {
    const well = STORAGE_WELLS[(start + i + STORAGE_WELLS.length) % STORAGE_WELLS.length];
    if (!taken.has(well)) return well;
  }
  return null;
}

export type ReadValue<T> = { ok: true; value: T } | { ok: false; error: string };

/** The checks every typed or scanned value gets first: present, and no spaces around it (the one rule of shared/text.ts). */
const presentAndUntrimmed = describeSpacingProblem;

/** A plate's name (its barcode): 1-64 characters, no spaces around it, no control characters. */
export function readPlateName(value: string, label = 'Plate'): ReadValue<string> {
  const problem = presentAndUntrimmed(value, label);
  if (problem) return { ok: false, error: problem };
  if (value.length > STORAGE_PLATE_NAME_MAX_LENGTH) return { ok: false, error: `${label} must be at most ${STORAGE_PLATE_NAME_MAX_LENGTH} characters long` };
  if (/[\x00-\x1f\x7f]/.test(value)) return { ok: false, error: `${label} must not contain control characters` };
  return { ok: true, value };
}

const WELL_FORM = /^([A-H])0?([1-9]|1[0-2])$/;
export const STORAGE_WELL_RULE = 'Well must be a row A-H and a column 1-12 (e.g. A1, H12)';

/** A well: row A-H and column 1-12; a zero-padded column (A01, as plate readers write it) reads as A1. */
export function readWell(value: string): ReadValue<string> {
  const problem = presentAndUntrimmed(value, 'Well');
  if (problem) return { ok: false, error: problem };
  const match = WELL_FORM.exec(value);
  if (!match) return { ok: false, error: `${STORAGE_WELL_RULE}; "${value}" is not a well` };
  return { ok: true, value: `${match[1]}${Number(match[2])}` };
}

// ---------------------------------------------------------------------------------------------
// What a well holds
// ---------------------------------------------------------------------------------------------

/** A sample (it moves to In Storage), a re-extraction of a sample (sample id.reex), or a control. */
export type StorageContentKind = 'sample' | 're-extraction' | PcrControlKind;
export const STORAGE_CONTENT_KINDS: readonly StorageContentKind[] = ['sample', 're-extraction', 'positive', 'negative', 'null'];
export const STORAGE_CONTENT_LABELS: Record<StorageContentKind, string> = { sample: 'sample', 're-extraction': 're-extraction', ...PCR_CONTROL_LABELS };
/** The kinds that belong to a sample of ours (the others are controls: no sample, no status). */
export const SAMPLE_CONTENT_KINDS: readonly StorageContentKind[] = ['sample', 're-extraction'];

export type StorageContent =
  | { kind: 'sample' | 're-extraction'; sampleId: string }
  | { kind: PcrControlKind; sampleId: null };

export const STORAGE_SAMPLE_ID_RULE =
  'a sample id is 41 or 61 followed by 12 digits, 151 followed by 11 digits, 55 followed by the year and month (YYYYMM) and 4 to 8 digits, or POOL_ followed by letters or digits';

/**
 * What a scanned or imported value names, exactly as given: a sample id (any form of SPEC §5, or
 * a kit barcode), a re-extraction (sample id.reex) or a control (POS PCR CTRL, NEG PCR CTRL, Null).
 */
export function readStorageContent(value: string, label = 'Sample id'): ReadValue<StorageContent> {
  const problem = presentAndUntrimmed(value, label);
  if (problem) return { ok: false, error: problem };
  const kind = controlKind(value);
  if (kind === 're-extraction') return { ok: true, value: { kind, sampleId: reextractionOf(value)! } };
  if (kind) return { ok: true, value: { kind, sampleId: null } };
  if (isSampleId(value) || isKitBarcode(value)) return { ok: true, value: { kind: 'sample', sampleId: value } };
  return {
    ok: false,
    error: `"${value}" is neither a sample id (${STORAGE_SAMPLE_ID_RULE}), a re-extraction (sample id.reex) nor a control (POS PCR CTRL, NEG PCR CTRL, Null)`,
  };
}

/** Why a well was emptied. */
export const StorageRemoval = { TakenOut: 'taken out', Discarded: 'discarded' } as const;
export type StorageRemoval = (typeof StorageRemoval)[keyof typeof StorageRemoval];
export const STORAGE_REMOVALS = Object.values(StorageRemoval);

// ---------------------------------------------------------------------------------------------
// Importing a plate file
// ---------------------------------------------------------------------------------------------

/** The columns of a storage plate file (headers are read as normaliseImportHeader reads them: 'Sample ID' is sample_id). */
export const STORAGE_IMPORT_COLUMNS = { plate: 'plate', well: 'well', sampleId: 'sample_id' } as const;

/** About twenty full plates per file. */
export const STORAGE_IMPORT_MAX_ROWS = 2_000;
/** The largest file (sent base64-encoded in a JSON body of at most 1 MB). */
export const STORAGE_IMPORT_MAX_BYTES = 700 * 1024;
/** The rows a dry run answers for display (every error is answered). */
export const STORAGE_IMPORT_PREVIEW_ROWS = 200;
export type StorageImportMode = 'dry-run' | 'commit';

// ---------------------------------------------------------------------------------------------
// Answers (/api/lab-toolbox/storage/… and import-samples-storage-plates); timestamps are ISO strings
// ---------------------------------------------------------------------------------------------

export const StoragePerson = s.object({ id: s.integer, name: s.string });
export type StoragePerson = s.Infer<typeof StoragePerson>;

const contentKind = s.oneOf(STORAGE_CONTENT_KINDS);
const status = s.oneOf(SAMPLE_STATUSES);
const PlateRef = s.object({ id: s.integer, name: s.string });

/** GET storage/plates: one plate of the list. */
export const StoragePlateSummary = s.object({
  id: s.integer,
  name: s.string,
  createdBy: StoragePerson,
  createdAt: s.string,
  sampleCount: s.integer,
  controlCount: s.integer,
  freeWells: s.integer,
});
export type StoragePlateSummary = s.Infer<typeof StoragePlateSummary>;

/** One filled well of a plate map. */
export const StorageWellView = s.object({
  well: s.string,
  /** What was scanned or imported: a sample id, sample id.reex or a control's name. */
  label: s.string,
  kind: contentKind,
  /** The sample's database id (null for a control). */
  sampleId: s.nullable(s.integer),
  barcode: s.nullable(s.string),
  status: s.nullable(status),
  statusBeforeStorage: s.nullable(status),
  placedBy: StoragePerson,
  placedAt: s.string,
});
export type StorageWellView = s.Infer<typeof StorageWellView>;

/** GET storage/plates/:plateId: the plate map. */
export const StoragePlateView = s.extend(StoragePlateSummary, {
  wells: s.array(StorageWellView),
  /** The well a scan goes to next (null on a full plate). */
  nextFreeWell: s.nullable(s.string),
});
export type StoragePlateView = s.Infer<typeof StoragePlateView>;

export const StorageSampleState = s.object({ id: s.integer, barcode: s.string, previousStatus: status, status });
export type StorageSampleState = s.Infer<typeof StorageSampleState>;

/** POST storage/plates/:plateId/wells: a scan placed in a well. */
export const StoragePlacement = s.object({
  plate: PlateRef,
  well: s.string,
  label: s.string,
  kind: contentKind,
  /** The sample and its status change (a re-extraction's sample keeps its status; null for a control). */
  sample: s.nullable(StorageSampleState),
  nextFreeWell: s.nullable(s.string),
  message: s.string,
});
export type StoragePlacement = s.Infer<typeof StoragePlacement>;

/** POST storage/plates/:plateId/wells/:well/take-out */
export const StorageTakeOut = s.object({
  plate: PlateRef,
  well: s.string,
  label: s.string,
  kind: contentKind,
  sample: s.nullable(StorageSampleState),
  message: s.string,
});
export type StorageTakeOut = s.Infer<typeof StorageTakeOut>;

/** POST storage/discard */
export const StorageDiscarded = s.object({
  sample: StorageSampleState,
  /** The well it was taken from on the way, if it was on a plate. */
  takenFrom: s.nullable(s.object({ plateId: s.integer, plateName: s.string, well: s.string })),
  discardedBy: StoragePerson,
  discardedAt: s.string,
  message: s.string,
});
export type StorageDiscarded = s.Infer<typeof StorageDiscarded>;

export const StoragePlaceView = s.object({
  plateId: s.integer,
  plateName: s.string,
  well: s.string,
  label: s.string,
  kind: contentKind,
  placedAt: s.string,
  placedBy: StoragePerson,
  removedAt: s.nullable(s.string),
  removedBy: s.nullable(StoragePerson),
  removal: s.nullable(s.oneOf(STORAGE_REMOVALS)),
});
export type StoragePlaceView = s.Infer<typeof StoragePlaceView>;

/** GET storage/find?sampleId=…: where a sample (and its re-extraction) is, and where it was. */
export const StorageSampleLocation = s.object({
  sample: s.object({ id: s.integer, barcode: s.string, status, statusBeforeStorage: s.nullable(status) }),
  /** Where it is now (the sample and its re-extraction: at most one place each). */
  places: s.array(StoragePlaceView),
  /** Where it was, newest first. */
  history: s.array(StoragePlaceView),
});
export type StorageSampleLocation = s.Infer<typeof StorageSampleLocation>;

/** One row of a storage plate file as the dry run read it. */
export const StorageImportRow = s.object({
  row: s.integer,
  plate: s.string,
  well: s.string,
  sampleId: s.string,
  kind: s.nullable(contentKind),
  /** The sample's status now (null for a control or an unknown sample). */
  status: s.nullable(status),
  ok: s.boolean,
});
export type StorageImportRow = s.Infer<typeof StorageImportRow>;

export const StorageImportPlate = s.object({ name: s.string, exists: s.boolean, placements: s.integer });
export type StorageImportPlate = s.Infer<typeof StorageImportPlate>;

/** POST import-samples-storage-plates with mode dry-run: every row checked, nothing written. */
export const StorageImportCheck = s.object({
  mode: s.literal('dry-run'),
  fileName: s.string,
  format: s.oneOf(IMPORT_FORMATS),
  rowCount: s.integer,
  rows: s.array(StorageImportRow),
  errorCount: s.integer,
  errors: s.array(ImportError),
  plates: s.array(StorageImportPlate),
});
export type StorageImportCheck = s.Infer<typeof StorageImportCheck>;

/** POST import-samples-storage-plates with mode commit: every row written, or nothing (a 4xx). */
export const StorageImportCommitted = s.object({
  mode: s.literal('commit'),
  fileName: s.string,
  rowCount: s.integer,
  placed: s.integer,
  samplesMovedToStorage: s.integer,
  plates: s.array(s.object({ id: s.integer, name: s.string, created: s.boolean, placements: s.integer })),
  message: s.string,
});
export type StorageImportCommitted = s.Infer<typeof StorageImportCommitted>;
