/**
 * DNA extraction runs (the `dna-extraction` import of the Lab Toolbox): the file's columns, how
 * each cell is read (never trimmed: a value with a space around it is a row error naming its
 * column), the lab's acceptance range (defaults here; server/src/config.ts may set others), the
 * flags of an extraction outside it, and what the lab decides for a flagged sample: send it to
 * re-extraction (`<sampleId>.reex`, once) or reject it 'Rejected - quantity not sufficient'.
 * Pure values and functions (the SPA imports them); the request schemas are in schemas.ts.
 */
import { TEST_CATALOGUE } from '../catalogue/catalogue';
import { TEST_NAMES, type TestName } from '../catalogue/tests';
import { ImportCommitResult, ImportDryRunResult, normaliseImportHeader } from '../imports/imports';
import * as s from '../shared/shapes';
import { PCR_WELL_PATTERN } from '../pcr/plates';
import { TestResultStatus } from '../results/result-values';
import { controlKind, isSampleId, reextractionOf } from '../samples/identifiers';
import { RejectionReason, SampleStatus, type SampleStatus as Status } from '../samples/statuses';
import { describeSpacingProblem } from '../shared/text';

// ---------------------------------------------------------------------------------------------
// The file
// ---------------------------------------------------------------------------------------------

/** The columns of an extraction file, as errors name them. */
export const EXTRACTION_COLUMNS = ['sample_id', 'concentration', 'a260_280', 'volume', 'plate', 'well'] as const;
export type ExtractionColumn = (typeof EXTRACTION_COLUMNS)[number];

/** What each column holds, in words (the import page, messages). */
export const EXTRACTION_COLUMN_LABELS: Readonly<Record<ExtractionColumn, string>> = {
  sample_id: 'sample id',
  concentration: 'concentration (ng/µL)',
  a260_280: 'A260/280',
  volume: 'volume (µL)',
  plate: 'plate',
  well: 'well (A1–H12)',
};

/** Other headers read as a column (after normaliseImportHeader and dropping a unit in brackets). */
const EXTRACTION_HEADER_ALIASES: Readonly<Record<string, ExtractionColumn>> = {
  sample: 'sample_id',
  sampleid: 'sample_id',
  barcode: 'sample_id',
  'a260/280': 'a260_280',
  'a260/a280': 'a260_280',
  a260_a280: 'a260_280',
  '260/280': 'a260_280',
  well_position: 'well',
};

/**
 * The column a header names, or null: case, spacing and a unit in brackets are forgiven
 * ('Concentration (ng/µL)' -> concentration, 'A260/280' -> a260_280, 'Sample ID' -> sample_id).
 */
export function extractionColumnOf(header: string): ExtractionColumn | null {
  const name = normaliseImportHeader(header).replace(/_?\([^)]*\)$/, '');
  if ((EXTRACTION_COLUMNS as readonly string[]).includes(name)) return name as ExtractionColumn;
  return EXTRACTION_HEADER_ALIASES[name] ?? null;
}

/** The most an instrument reads; a larger number is a typing mistake (a row error), not a flag. */
export const EXTRACTION_VALUE_MAX = { concentration: 10_000, a260_280: 10, volume: 10_000 } as const;
export const EXTRACTION_PLATE_MAX_LENGTH = 64;
const PLATE_PATTERN = /^[\w .\-/#]+$/;
const DECIMAL_PATTERN = /^(?:\d+(?:\.\d+)?|\.\d+)$/;

export type CellRead<T> = { ok: true; value: T } | { ok: false; message: string };

/** Null for a cell that is present and has no space around it; otherwise what is wrong (the one rule of shared/text.ts). */
function presentAndUntrimmed(column: ExtractionColumn, text: string): string | null {
  return describeSpacingProblem(text, `The ${EXTRACTION_COLUMN_LABELS[column]}`);
}

const UNITS: Record<'concentration' | 'a260_280' | 'volume', string> = { concentration: ' ng/µL', a260_280: '', volume: ' µL' };

/** A measurement cell: a decimal number written with a point, within what an instrument reads. */
export function readExtractionNumber(column: 'concentration' | 'a260_280' | 'volume', text: string): CellRead<number> {
  const problem = presentAndUntrimmed(column, text);
  if (problem) return { ok: false, message: problem };
  if (!DECIMAL_PATTERN.test(text)) {
    const hint = /^\d+,\d+$/.test(text) ? ' (use a decimal point, not a comma)' : '';
    return { ok: false, message: `"${text}" is not a number${hint}: write the ${EXTRACTION_COLUMN_LABELS[column]} as digits, like ${column === 'a260_280' ? '1.85' : '25.4'}` };
  }
  const value = Number(text);
  if (column === 'a260_280' && value === 0) return { ok: false, message: 'The A260/280 must be more than 0' };
  const max = EXTRACTION_VALUE_MAX[column];
  if (value > max) return { ok: false, message: `${text}${UNITS[column]} is more than an instrument reads (at most ${max.toLocaleString('en-US')}${UNITS[column]}): check the cell` };
  return { ok: true, value };
}

/** The sample a row names: a sample id, or a sample id + `.reex` for its re-extraction. */
export function readExtractionSampleId(text: string): CellRead<{ barcode: string; reextraction: boolean }> {
  const problem = presentAndUntrimmed('sample_id', text);
  if (problem) return { ok: false, message: problem };
  const kind = controlKind(text);
  if (kind === 're-extraction') return { ok: true, value: { barcode: reextractionOf(text)!, reextraction: true } };
  if (kind) return { ok: false, message: `${text} is a PCR control, not a sample: an extraction file lists samples only` };
  if (!isSampleId(text)) {
    return {
      ok: false,
      message: `${text} is not a sample id: use 41 or 61 followed by 12 digits, 55 + year and month + 4 to 8 digits, POOL_ + letters or digits, or a sample id + .reex for a re-extraction`,
    };
  }
  return { ok: true, value: { barcode: text, reextraction: false } };
}

export function readExtractionPlate(text: string): CellRead<string> {
  const problem = presentAndUntrimmed('plate', text);
  if (problem) return { ok: false, message: problem };
  if (text.length > EXTRACTION_PLATE_MAX_LENGTH) return { ok: false, message: `The plate name has ${text.length} characters; at most ${EXTRACTION_PLATE_MAX_LENGTH}` };
  if (!PLATE_PATTERN.test(text)) return { ok: false, message: `The plate "${text}" may use letters, digits, spaces and . - _ / #` };
  return { ok: true, value: text };
}

export function readExtractionWell(text: string): CellRead<string> {
  const problem = presentAndUntrimmed('well', text);
  if (problem) return { ok: false, message: problem };
  if (!PCR_WELL_PATTERN.test(text)) return { ok: false, message: `"${text}" is not a well: use A1 to H12 (row letter A-H in capitals, column 1-12)` };
  return { ok: true, value: text };
}

// ---------------------------------------------------------------------------------------------
// The acceptance range and its flags
// ---------------------------------------------------------------------------------------------

/** The lab's acceptance range of an extraction: below (or outside) it a sample is flagged. */
export const ExtractionAcceptance = s.object({
  /** ng/µL */
  minConcentration: s.number,
  minA260280: s.number,
  maxA260280: s.number,
  /** µL */
  minVolume: s.number,
});
export type ExtractionAcceptance = s.Infer<typeof ExtractionAcceptance>;

/**
 * The defaults: at least 10 ng/µL (enough DNA for genotyping with room for a repeat), A260/280
 * from 1.7 to 2.1 (below: protein or phenol carried over; above: RNA), at least 20 µL.
 * Configuration (EXTRACTION_MIN_CONCENTRATION, EXTRACTION_MIN_A260_280, EXTRACTION_MAX_A260_280,
 * EXTRACTION_MIN_VOLUME) may set others.
 */
export const DEFAULT_EXTRACTION_ACCEPTANCE: Readonly<ExtractionAcceptance> = Object.freeze({
  minConcentration: 10,
  minA260280: 1.7,
  maxA260280: 2.1,
  minVolume: 20,
});

/** Null for a usable range, or what is wrong with it (configuration is refused at start). */
export function acceptanceProblem(range: ExtractionAcceptance): string | null {
  if (range.minA260280 >= range.maxA260280) return `the lowest A260/280 (${range.minA260280}) must be below the highest (${range.maxA260280})`;
  return null;
}

/** The range in words: 'concentration ≥ 10 ng/µL, A260/280 1.7–2.1, volume ≥ 20 µL'. */
export function describeAcceptance(range: ExtractionAcceptance): string {
  return `concentration ≥ ${range.minConcentration} ng/µL, A260/280 ${range.minA260280}–${range.maxA260280}, volume ≥ ${range.minVolume} µL`;
}

export interface ExtractionMeasurement {
  concentration: number;
  a260280: number;
  volume: number;
}

/** Why an extraction is outside the acceptance range, one sentence per measure; empty when it is within. */
export function extractionFlags(m: ExtractionMeasurement, range: ExtractionAcceptance): string[] {
  const flags: string[] = [];
  if (m.concentration < range.minConcentration) flags.push(`Concentration ${m.concentration} ng/µL is below ${range.minConcentration} ng/µL`);
  if (m.a260280 < range.minA260280) flags.push(`A260/280 ${m.a260280} is below ${range.minA260280} (accepted ${range.minA260280}–${range.maxA260280})`);
  if (m.a260280 > range.maxA260280) flags.push(`A260/280 ${m.a260280} is above ${range.maxA260280} (accepted ${range.minA260280}–${range.maxA260280})`);
  if (m.volume < range.minVolume) flags.push(`Volume ${m.volume} µL is below ${range.minVolume} µL`);
  return flags;
}

/** The value of a DNA Extraction result version: what the review list shows. */
export function extractionResultValue(m: ExtractionMeasurement, plate: string, well: string): string {
  return `${m.concentration} ng/µL; A260/280 ${m.a260280}; ${m.volume} µL; plate ${plate} ${well}`;
}

// ---------------------------------------------------------------------------------------------
// Which samples take an extraction, and what the lab decides for a flagged one
// ---------------------------------------------------------------------------------------------

/**
 * The lab's processing steps among the tests (DNA Extraction): the lab adds them to a sample and
 * releases them, but they report nothing, so the clinic's views, the lab report and the result
 * pages leave them out.
 */
export const PROCESSING_STEP_TESTS: readonly TestName[] = TEST_NAMES.filter((name) => TEST_CATALOGUE[name].scale === null);

/** The statuses a sample may be in when its extraction is imported. */
export const EXTRACTABLE_STATUSES: readonly Status[] = [SampleStatus.InQueue, SampleStatus.InTesting];

/** The id a re-extraction of a sample goes by: the sample id + `.reex`. */
export const reextractionIdOf = (barcode: string) => `${barcode}.reex`;

export interface ExtractionRowSample {
  barcode: string;
  status: Status;
  /** The sample was sent to re-extraction (its `.reex` exists). */
  reextractionRequested: boolean;
  /** The sample's DNA Extraction result waiting for review or released, if any. */
  openResult: typeof TestResultStatus.InReview | typeof TestResultStatus.Released | null;
}

/** Null when a row naming this sample (or its `.reex`) can be imported; otherwise why not. */
export function extractionRowRefusal(reextraction: boolean, s: ExtractionRowSample): string | null {
  const label = reextraction ? reextractionIdOf(s.barcode) : s.barcode;
  if (!EXTRACTABLE_STATUSES.includes(s.status)) {
    return `Sample ${s.barcode} is ${s.status}: an extraction can be imported only for samples In Queue or In Testing`;
  }
  if (reextraction && !s.reextractionRequested) return `Sample ${s.barcode} was not sent to re-extraction: its extraction goes by ${s.barcode}`;
  if (!reextraction && s.reextractionRequested) return `Sample ${s.barcode} was sent to re-extraction: its new extraction goes by ${reextractionIdOf(s.barcode)}`;
  if (s.openResult === TestResultStatus.InReview) return `${label}: sample ${s.barcode} already has a DNA extraction waiting for review`;
  if (s.openResult === TestResultStatus.Released) return `${label}: sample ${s.barcode} already has a released DNA extraction`;
  return null;
}

/** What the lab decides for a flagged extraction. */
export const EXTRACTION_OUTCOMES = ['re-extraction', 'reject-sample'] as const;
export type ExtractionOutcome = (typeof EXTRACTION_OUTCOMES)[number];
export const EXTRACTION_OUTCOME_LABELS: Readonly<Record<ExtractionOutcome, string>> = {
  're-extraction': 'Send to re-extraction',
  'reject-sample': 'Reject: quantity not sufficient',
};
/** The reason a flagged sample is rejected with (SPEC §3). */
export const EXTRACTION_REJECTION_REASON = RejectionReason.QuantityNotSufficient;

export interface ExtractionDecisionState {
  /** As the file named the sample: its id, or its id + .reex. */
  label: string;
  barcode: string;
  flags: readonly string[];
  outcome: ExtractionOutcome | null;
  reextractionId: string | null;
  resultStatus: string;
  sampleStatus: Status;
}

/** Null when the outcome may be chosen for this extraction now; otherwise why not (the API answers 409 with it). */
export function extractionDecisionRefusal(e: ExtractionDecisionState, outcome: ExtractionOutcome): string | null {
  if (e.flags.length === 0) return `The extraction of ${e.label} is within the acceptance range: there is nothing to decide`;
  if (e.outcome === 're-extraction') return `${e.label} was already sent to re-extraction (${e.reextractionId})`;
  if (e.outcome === 'reject-sample') return `Sample ${e.barcode} was already rejected (quantity not sufficient)`;
  if (e.resultStatus !== TestResultStatus.InReview) return `The extraction of ${e.label} is ${e.resultStatus}, no longer in review: there is nothing to decide`;
  if (e.sampleStatus !== SampleStatus.InTesting) return `Sample ${e.barcode} is ${e.sampleStatus}: a flagged extraction is decided while its sample is In Testing`;
  if (outcome === 're-extraction' && reextractionOf(e.label) !== null) {
    return `${e.label} is already a re-extraction and a sample is re-extracted once: reject the sample (quantity not sufficient) instead`;
  }
  return null;
}

/**
 * Where a sample's DNA stands for the results read from it, by its newest extraction: none
 * imported, in review or passed (within the acceptance range), flagged and not yet decided, sent to
 * re-extraction and the re-extraction not yet imported, withdrawn (its extraction result was
 * rejected in review), or the sample rejected for its quantity.
 */
export const DnaQc = {
  None: 'none',
  InReview: 'in-review',
  Passed: 'passed',
  Flagged: 'flagged',
  AwaitingReextraction: 'awaiting-re-extraction',
  Withdrawn: 'withdrawn',
  Rejected: 'rejected',
} as const;
export type DnaQc = (typeof DnaQc)[keyof typeof DnaQc];

export const DNA_QC_LABELS: Readonly<Record<DnaQc, string>> = {
  none: 'No DNA extraction',
  'in-review': 'DNA extraction in review',
  passed: 'DNA extraction passed',
  flagged: 'DNA extraction flagged',
  'awaiting-re-extraction': 'Awaiting re-extraction',
  withdrawn: 'DNA extraction withdrawn',
  rejected: 'Sample rejected: quantity not sufficient',
};

/** The states in which no result read from the sample's DNA may be released. */
export const DNA_QC_HOLDS_RELEASE: readonly DnaQc[] = [DnaQc.Flagged, DnaQc.AwaitingReextraction, DnaQc.Withdrawn, DnaQc.Rejected];

/** A sample's newest extraction, as its DNA state is read from it. */
export interface NewestExtraction {
  label: string;
  flags: readonly string[];
  outcome: ExtractionOutcome | null;
  /** The status of the extraction's own DNA Extraction result version. */
  resultStatus: string;
}

/** A sample's DNA state from its newest extraction (null: none imported). */
export function dnaQcOf(e: NewestExtraction | null): DnaQc {
  if (!e) return DnaQc.None;
  if (e.outcome === 'reject-sample') return DnaQc.Rejected;
  if (e.outcome === 're-extraction') return DnaQc.AwaitingReextraction;
  if (e.resultStatus === TestResultStatus.Rejected) return DnaQc.Withdrawn;
  if (e.flags.length > 0) return DnaQc.Flagged;
  return e.resultStatus === TestResultStatus.Released ? DnaQc.Passed : DnaQc.InReview;
}

/** Why a result read from a sample whose DNA is held cannot be released (results/release-rule.ts). */
export function dnaHoldMessage(barcode: string, testName: string, dna: { label: string; qc: DnaQc; flags: readonly string[] }): string {
  const why: Record<DnaQc, string> = {
    none: '', 'in-review': '', passed: '',
    flagged: `its DNA extraction ${dna.label} is outside the acceptance range (${dna.flags.join('; ')}) and waits for a decision`,
    'awaiting-re-extraction': `its DNA extraction ${dna.label} was sent to re-extraction and the re-extraction has not been imported`,
    withdrawn: `its DNA extraction ${dna.label} was rejected in review`,
    rejected: 'it was rejected for its DNA quantity',
  };
  return `The ${testName} result of sample ${barcode} cannot be released: ${why[dna.qc]}`;
}

/** The message of a flagged extraction's release refusal (results/release-rule.ts). */
export function flaggedExtractionMessage(label: string, flags: readonly string[]): string {
  return `The DNA extraction of ${label} is outside the acceptance range (${flags.join('; ')}): send it to re-extraction or reject the sample instead`;
}

// ---------------------------------------------------------------------------------------------
// What the import and the endpoints answer (answer shapes, shared/shapes.ts, each a type too)
// ---------------------------------------------------------------------------------------------

/** One row of a dry run outside the acceptance range: it can be imported, and is flagged. */
export const FlaggedExtractionRow = s.object({
  row: s.integer,
  /** As the file named it (an id, or an id + .reex). */
  sampleId: s.string,
  sampleStatus: s.string,
  concentration: s.number,
  a260280: s.number,
  volume: s.number,
  plate: s.string,
  well: s.string,
  reasons: s.array(s.string),
});
export type FlaggedExtractionRow = s.Infer<typeof FlaggedExtractionRow>;

/** A dry run of an extraction file: the result files' answer plus the range used and every flagged row. */
export const ExtractionDryRunResult = s.extend(ImportDryRunResult, {
  kind: s.literal('dna-extraction'),
  acceptance: ExtractionAcceptance,
  flaggedCount: s.integer,
  flagged: s.array(FlaggedExtractionRow),
});
export type ExtractionDryRunResult = s.Infer<typeof ExtractionDryRunResult>;

/** The commit of an extraction file. */
export const ExtractionCommitResult = s.extend(ImportCommitResult, {
  kind: s.literal('dna-extraction'),
  flaggedCount: s.integer,
});
export type ExtractionCommitResult = s.Infer<typeof ExtractionCommitResult>;

const Person = s.object({ id: s.integer, name: s.string });

/** GET dna-extractions: one imported extraction, its result version and, when flagged, what was decided. */
export const ExtractionView = s.object({
  id: s.integer,
  label: s.string,
  barcode: s.string,
  sampleId: s.integer,
  sampleStatus: s.string,
  concentration: s.number,
  a260280: s.number,
  volume: s.number,
  plate: s.string,
  well: s.string,
  flags: s.array(s.string),
  importJobId: s.integer,
  fileRow: s.integer,
  result: s.object({ id: s.integer, version: s.integer, status: s.string }),
  enteredBy: Person,
  enteredAt: s.string,
  outcome: s.nullable(s.oneOf(EXTRACTION_OUTCOMES)),
  reextractionId: s.nullable(s.string),
  decidedBy: s.nullable(Person),
  decidedAt: s.nullable(s.string),
  /** Per outcome, null when it may be chosen now, otherwise why not. */
  refusals: s.record(EXTRACTION_OUTCOMES, s.nullable(s.string)),
});
export type ExtractionView = s.Infer<typeof ExtractionView>;

/** POST dna-extractions/{id}/decide */
export const ExtractionDecisionAnswer = s.object({
  extraction: ExtractionView,
  message: s.string,
});
export type ExtractionDecisionAnswer = s.Infer<typeof ExtractionDecisionAnswer>;
