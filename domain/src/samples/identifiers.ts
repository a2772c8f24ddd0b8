/**
 * Identifier rules of SPEC §5 for samples: kit barcodes, sample ids, control and re-extraction
 * samples. Pure functions, no I/O.
 *
 * Every pattern is anchored and matched against the value exactly as given: input is never
 * trimmed silently, so ' 41000000000001' is refused. Callers that want to be forgiving trim in
 * the open (and show the user what was kept).
 */
import { describeSpacingProblem } from '../shared/text';

// ---------------------------------------------------------------------------------------------
// Kit barcodes
// ---------------------------------------------------------------------------------------------

/** Kit barcode: `41` or `61` then 12 digits, or `151` then 11 digits (always 14 digits). */
export const KIT_BARCODE_PATTERN = /^(?:(?:41|61)\d{12}|151\d{11})$/;
/** The length every kit barcode has. */
export const KIT_BARCODE_LENGTH = 14;
/** The rule in words, for forms and import reports. */
export const KIT_BARCODE_RULE = 'Barcode must be 41 or 61 followed by 12 digits, or 151 followed by 11 digits';

/** True when the value is a kit barcode (41/61 + 12 digits, or 151 + 11 digits). */
export function isKitBarcode(value: string): boolean {
  return KIT_BARCODE_PATTERN.test(value);
}

/** Null when the value is a kit barcode, otherwise one sentence saying what is wrong with it. */
export function describeBarcodeProblem(value: string): string | null {
  if (isKitBarcode(value)) return null;
  const spacing = describeSpacingProblem(value, 'Barcode');
  if (spacing) return value.trim() === '' ? spacing : `${spacing}. ${KIT_BARCODE_RULE}`;
  if (!/^\d+$/.test(value)) return `Barcode must contain digits only. ${KIT_BARCODE_RULE}`;
  if (value.length !== KIT_BARCODE_LENGTH) {
    return `Barcode must be ${KIT_BARCODE_LENGTH} digits long (this one has ${value.length}). ${KIT_BARCODE_RULE}`;
  }
  return KIT_BARCODE_RULE;
}

// ---------------------------------------------------------------------------------------------
// Sample ids
// ---------------------------------------------------------------------------------------------

/** Sample id from a kit: `41` or `61` then 12 digits. */
const KIT_SAMPLE_ID_BODY = String.raw`(?:41|61)\d{12}`;
/**
 * Lab-made sample id: `55`, then the year and month it was made (YYYYMM, year 2000-2099, month
 * 01-12), then a sequence of 4 to 8 digits (e.g. 55202611 + 0001 = 552026110001).
 */
const DATED_SAMPLE_ID_BODY = String.raw`55(?:20\d{2})(?:0[1-9]|1[0-2])\d{4,8}`;
const POOL_ID_BODY = String.raw`POOL_[A-Za-z0-9]{1,40}`;
const SAMPLE_ID_BODY = `(?:${KIT_SAMPLE_ID_BODY}|${DATED_SAMPLE_ID_BODY}|${POOL_ID_BODY})`;

/** Pool of samples: `POOL_` then 1 to 40 letters or digits (e.g. POOL_A12). */
export const POOL_ID_PATTERN = new RegExp(`^${POOL_ID_BODY}$`);
/** Any sample id: a kit sample id, a dated lab sample id or a pool id. */
export const SAMPLE_ID_PATTERN = new RegExp(`^${SAMPLE_ID_BODY}$`);

/** True when the value is a sample id: 41/61 + 12 digits, 55 + YYYYMM + 4-8 digits, or POOL_ + alphanumerics. */
export function isSampleId(value: string): boolean {
  return SAMPLE_ID_PATTERN.test(value);
}

/** True when the value is a pool id (POOL_ + 1-40 letters or digits). */
export function isPoolId(value: string): boolean {
  return POOL_ID_PATTERN.test(value);
}

// ---------------------------------------------------------------------------------------------
// Control and re-extraction samples
// ---------------------------------------------------------------------------------------------

export type ControlKind = 'positive' | 'negative' | 'null' | 're-extraction';

/** Re-extraction of a sample: a sample id followed by exactly one lower-case `.reex`. */
export const REEXTRACTION_PATTERN = new RegExp(`^(${SAMPLE_ID_BODY})\\.reex$`);
/**
 * Positive PCR control: `POS PCR CTRL` or `POS_PCR_CTRL` (one separator used throughout), with an
 * optional well number of 1-3 digits, joined by the same separator or directly (POS_PCR_CTRL_2).
 */
export const POSITIVE_CONTROL_PATTERN = /^POS([ _])PCR\1CTRL(?:\1?\d{1,3})?$/;
/** Negative PCR control: as the positive one with `NEG` (NEG PCR CTRL, NEG_PCR_CTRL_1). */
export const NEGATIVE_CONTROL_PATTERN = /^NEG([ _])PCR\1CTRL(?:\1?\d{1,3})?$/;
/** Null (empty-well) control: `Null` as the spec writes it, optionally numbered (Null 2, Null_2, Null2). */
export const NULL_CONTROL_PATTERN = /^Null(?:[ _]?\d{1,3})?$/;

/** Which kind of control or re-extraction row the value names, or null for anything else. */
export function controlKind(value: string): ControlKind | null {
  if (REEXTRACTION_PATTERN.test(value)) return 're-extraction';
  if (POSITIVE_CONTROL_PATTERN.test(value)) return 'positive';
  if (NEGATIVE_CONTROL_PATTERN.test(value)) return 'negative';
  if (NULL_CONTROL_PATTERN.test(value)) return 'null';
  return null;
}

/** True for a control or re-extraction row (anything controlKind recognises): not a first-run patient sample. */
export function isControlSample(value: string): boolean {
  return controlKind(value) !== null;
}

/** The sample id a re-extraction row belongs to ('41000000000001.reex' -> '41000000000001'), or null. */
export function reextractionOf(value: string): string | null {
  const match = REEXTRACTION_PATTERN.exec(value);
  return match ? match[1] : null;
}
