/**
 * Identifier rules of SPEC §5: kit barcodes, KRAS study ids, sample ids, order ids, control and
 * re-extraction samples, data dates and free-text options. Pure functions, no I/O.
 *
 * Every pattern is anchored and matched against the value exactly as given: input is never
 * trimmed silently, so ' 41000000000001' is refused. Callers that want to be forgiving trim in
 * the open (and show the user what was kept).
 */

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

// ---------------------------------------------------------------------------------------------
// Spaces around a value: the one rule every form, scanner and file reader applies
// ---------------------------------------------------------------------------------------------

/**
 * Null when a typed, scanned or imported value is present and has no space around it; otherwise
 * one sentence naming it by `label` (what is wrong; the caller adds where). Nothing is trimmed
 * silently anywhere: intake, storage plates, extraction files and result files all refuse
 * ' 41000000000001' with this rule.
 */
export function describeSpacingProblem(value: string, label: string): string | null {
  if (value.length === 0) return `${label} is required`;
  if (value.trim().length === 0) return `${label} is required (only spaces were entered)`;
  if (value !== value.trim()) return `${label} must not start or end with a space`;
  return null;
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
// KRAS study ids
// ---------------------------------------------------------------------------------------------

/** The prefixes of KRAS study ids, as the spec writes them (upper case, case-sensitive). */
export const KRAS_STUDY_ID_PREFIXES = ['KRAS-WH-', 'MDXKRAS-HNSCC', 'KRASHNSCC'] as const;

/**
 * KRAS study id: a prefix of KRAS_STUDY_ID_PREFIXES, then 1 to 32 letters, digits or hyphens that
 * end in a letter or digit (e.g. KRAS-WH-0042, MDXKRAS-HNSCC-017, KRASHNSCC103).
 */
export const KRAS_STUDY_ID_PATTERN = /^(?:KRAS-WH-|MDXKRAS-HNSCC|KRASHNSCC)(?=[A-Za-z0-9-]{1,32}$)[A-Za-z0-9-]*[A-Za-z0-9]$/;

/** True when the value is a KRAS study id (KRAS-WH-, MDXKRAS-HNSCC or KRASHNSCC + a suffix). */
export function isKrasStudyId(value: string): boolean {
  return KRAS_STUDY_ID_PATTERN.test(value);
}

// ---------------------------------------------------------------------------------------------
// Sample ids
// ---------------------------------------------------------------------------------------------

const KIT_SAMPLE_ID_BODY = String.raw`(?:41|61)\d{12}`;
const DATED_SAMPLE_ID_BODY = String.raw`55(?:20\d{2})(?:0[1-9]|1[0-2])\d{4,8}`;
const POOL_ID_BODY = String.raw`POOL_[A-Za-z0-9]{1,40}`;
const SAMPLE_ID_BODY = `(?:${KIT_SAMPLE_ID_BODY}|${DATED_SAMPLE_ID_BODY}|${POOL_ID_BODY})`;

/** Sample id from a kit: `41` or `61` then 12 digits. */
export const KIT_SAMPLE_ID_PATTERN = new RegExp(`^${KIT_SAMPLE_ID_BODY}$`);
/**
 * Lab-made sample id: `55`, then the year and month it was made (YYYYMM, year 2000-2099, month
 * 01-12), then a sequence of 4 to 8 digits (e.g. 55202611 + 0001 = 552026110001).
 */
export const DATED_SAMPLE_ID_PATTERN = new RegExp(`^${DATED_SAMPLE_ID_BODY}$`);
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
// Order ids
// ---------------------------------------------------------------------------------------------

/** Order id: `RF_` or `RG_` then 9 digits, or `RPD` then 10 digits. */
export const ORDER_ID_PATTERN = /^(?:R[FG]_\d{9}|RPD\d{10})$/;

/** True when the value is an order id (RF_/RG_ + 9 digits, or RPD + 10 digits). */
export function isOrderId(value: string): boolean {
  return ORDER_ID_PATTERN.test(value);
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

// ---------------------------------------------------------------------------------------------
// Dates in data
// ---------------------------------------------------------------------------------------------

/** Date in data: YYYY-MM-DD (four-digit year, two-digit month and day). */
export const DATA_DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Days in a month of the proleptic Gregorian calendar (month 1-12). */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** True when the value is YYYY-MM-DD and a real calendar date (2024-02-29 yes, 2026-02-30 no). */
export function isDataDate(value: string): boolean {
  const match = DATA_DATE_PATTERN.exec(value);
  if (!match) return false;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

// ---------------------------------------------------------------------------------------------
// Free-text options
// ---------------------------------------------------------------------------------------------

/** The longest free-text option a user may create. */
export const OPTION_MAX_LENGTH = 100;

export type NewOptionCheck = { ok: true; value: string } | { ok: false; error: string };

/** How options are compared: trimmed, inner whitespace collapsed, NFC, case-insensitive. */
function optionKey(value: string): string {
  return value.normalize('NFC').trim().replace(/\s+/g, ' ').toLowerCase();
}

/**
 * Checks a new free-text option (e.g. a new insurance plan or referral source typed into a select
 * box): refuses an empty or whitespace-only value, one longer than OPTION_MAX_LENGTH, and one that
 * already exists ignoring case and surrounding or repeated whitespace. On success returns the value
 * to store: trimmed (the caller shows it), inner text kept as typed.
 */
export function checkNewOption(value: string, existing: readonly string[]): NewOptionCheck {
  const trimmed = value.normalize('NFC').trim();
  if (trimmed.length === 0) return { ok: false, error: 'The new option must not be empty' };
  if (trimmed.length > OPTION_MAX_LENGTH) {
    return { ok: false, error: `The new option must be at most ${OPTION_MAX_LENGTH} characters long` };
  }
  const key = optionKey(trimmed);
  const duplicate = existing.find((option) => optionKey(option) === key);
  if (duplicate !== undefined) return { ok: false, error: `The option "${duplicate}" already exists` };
  return { ok: true, value: trimmed };
}

/**
 * A US National Provider Identifier: 10 digits whose last is a Luhn check digit computed over the
 * card-issuer prefix 80840 and the first nine (CMS's NPI check-digit rule).
 */
export function isValidNpi(value: string): boolean {
  if (!/^\d{10}$/.test(value)) return false;
  const digits = `80840${value}`.split('').map(Number);
  let sum = 0;
  for (let i = digits.length - 1, double = false; i >= 0; i--, double = !double) {
    let d = digits[i];
    if (double) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}
