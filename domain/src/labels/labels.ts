/**
 * Barcode labels (issue 30, item 1): the kinds of label the lab prints, the two paper sizes, and
 * what each kind shows. Plain values, no joi (the SPA imports these; the request schemas are in
 * schemas.ts). The layout (where a line goes, the barcode's size) and ZPL are the server's
 * (server/src/labels); what a label SAYS is decided here, once.
 *
 * Patient data minimisation: a label travels with the tube through the lab and may sit in a rack
 * for years. It carries the patient's initials and date of birth (two identifiers with the
 * barcode, enough to match a tube to its requisition), never the full name; a kit's label carries
 * no patient data at all, nor does a plate's or a shipment's.
 */
import { formatCalendarDate } from '../shared/dates';
import { formatDate } from '../shared/lab-clock';
import { valuesOf } from '../shared/values';

export const LabelKind = {
  /** A kit (and its sample tube) before receipt: the barcode, the tests, the sample type, the clinic. */
  Kit: 'kit',
  /** A received sample: barcode, patient initials and date of birth, test, receipt date. */
  Sample: 'sample',
  StoragePlate: 'storage-plate',
  PcrPlate: 'pcr-plate',
  Shipment: 'shipment',
} as const;
export type LabelKind = (typeof LabelKind)[keyof typeof LabelKind];
export const LABEL_KINDS = valuesOf(LabelKind);

/** The kinds a lab user prints from a list of kit barcodes (intake); none chosen = each sample as it stands. */
export const SAMPLE_LABEL_KINDS = [LabelKind.Kit, LabelKind.Sample] as const;
export type SampleLabelKind = (typeof SAMPLE_LABEL_KINDS)[number];

/** The paper a PDF of labels is for: a sheet of 30 (Avery 5160) or a roll of 2 × 1 inch thermal labels. */
export const LabelLayout = { Sheet: 'sheet', Thermal: 'thermal' } as const;
export type LabelLayout = (typeof LabelLayout)[keyof typeof LabelLayout];
export const LABEL_LAYOUTS = valuesOf(LabelLayout);

/** Sizes in inches. Avery 5160 (and its equivalents): letter paper, 3 columns × 10 rows of 2.625 × 1 in. */
export const LABEL_SHEET = {
  pageWidth: 8.5,
  pageHeight: 11,
  columns: 3,
  rows: 10,
  labelWidth: 2.625,
  labelHeight: 1,
  topMargin: 0.5,
  leftMargin: 0.1875,
  /** From one column's left edge to the next (the label plus a 1/8 in gap). */
  columnPitch: 2.75,
  rowPitch: 1,
} as const;
export const LABELS_PER_SHEET = LABEL_SHEET.columns * LABEL_SHEET.rows;

/** A thermal label: 2 × 1 in, one per page of the PDF, 203 dpi (8 dots/mm) for ZPL. */
export const THERMAL_LABEL = { width: 2, height: 1, dpi: 203 } as const;

/** The most labels one request prints (intake sessions, a plate, a shipment): a page of a list. */
export const LABELS_MAX = 200;

/**
 * Where a sheet's first label goes, 1-30, counted left to right then top to bottom (1 = top left,
 * 3 = top right, 4 = second row left): a part-used sheet is fed again from its first free label.
 */
export const LABEL_START_RULE = `start must be a whole number from 1 to ${LABELS_PER_SHEET}: the first free label on the sheet, counted left to right, top to bottom`;

/** The position (0-based column and row) of the n-th label (0-based) of a sheet filled from `start` (1-based). */
export function sheetPosition(start: number, n: number): { page: number; column: number; row: number } {
  const index = start - 1 + n;
  const page = Math.floor(index / LABELS_PER_SHEET);
  const onPage = index % LABELS_PER_SHEET;
  return { page, column: onPage % LABEL_SHEET.columns, row: Math.floor(onPage / LABEL_SHEET.columns) };
}

export type Symbology = 'code128' | 'datamatrix';

/**
 * One label's content. `code` is what the barcode encodes (and is printed under it); `symbology`
 * the barcode preferred: Code 128 for sample ids and barcodes (every lab scanner reads it). A
 * free-text plate name too long for Code 128 at a readable bar width falls back to DataMatrix
 * (the layout decides: it knows the width).
 */
export interface LabelContent {
  kind: LabelKind;
  code: string;
  symbology: Symbology;
  /** At most three short lines beside the code; the first is printed bold. */
  lines: string[];
}

/** A label's lines are short: a longer one is cut with an ellipsis (the layout's fonts fit ~40 characters). */
export const LABEL_LINE_MAX = 40;
const clip = (text: string) => (text.length > LABEL_LINE_MAX ? `${text.slice(0, LABEL_LINE_MAX - 1)}…` : text);

/** A patient's initials ("J.D."), or a research participant's study id (no name is kept for them). */
export function patientInitials(p: { firstName: string | null; lastName: string | null; studyId?: string | null }): string {
  const initial = (name: string | null) => (name ?? '').trim().charAt(0).toUpperCase();
  const initials = [initial(p.firstName), initial(p.lastName)].filter(Boolean).map((c) => `${c}.`).join('');
  if (initials) return initials;
  return p.studyId ? `Study ${p.studyId}` : '—';
}

export interface KitLabelData { barcode: string; tests: string[]; sampleType: string | null; account: string | null }
export interface SampleLabelData {
  barcode: string;
  patient: { firstName: string | null; lastName: string | null; studyId?: string | null; dateOfBirth: string | null };
  tests: string[];
  receivedAt: Date | string;
}
export interface StoragePlateLabelData { name: string; samples: number; createdAt: Date | string }
export interface PcrPlateLabelData { name: string; samples: number; controls: number; createdAt: Date | string }
/** `code`: the shipment's order id (SHP-…, the reference the shipping service and the lab know it by). */
export interface ShipmentLabelData { code: string; account: string; samples: number; createdAt: Date | string; trackingNumber: string | null }

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const testsLine = (tests: string[]) => (tests.length ? tests.join(', ') : 'No test');

/** A kit before receipt: no patient data (it may be printed before anyone knows whose it is). */
export function kitLabelContent(d: KitLabelData): LabelContent {
  return {
    kind: LabelKind.Kit,
    code: d.barcode,
    symbology: 'code128',
    lines: [clip(testsLine(d.tests)), clip(['Kit', d.sampleType].filter(Boolean).join(' · ')), clip(d.account ?? 'Lab ordered')],
  };
}

/** A received sample: initials and date of birth (never the name), test, receipt date (the lab's day: `zone`). */
export function sampleLabelContent(d: SampleLabelData, zone: string): LabelContent {
  return {
    kind: LabelKind.Sample,
    code: d.barcode,
    symbology: 'code128',
    lines: [
      clip(`${patientInitials(d.patient)}  DOB ${formatCalendarDate(d.patient.dateOfBirth)}`),
      clip(testsLine(d.tests)),
      `Received ${formatDate(d.receivedAt, zone)}`,
    ],
  };
}

export function storagePlateLabelContent(d: StoragePlateLabelData, zone: string): LabelContent {
  return {
    kind: LabelKind.StoragePlate,
    code: d.name,
    symbology: 'code128',
    lines: ['Storage plate', plural(d.samples, 'sample'), `Created ${formatDate(d.createdAt, zone)}`],
  };
}

export function pcrPlateLabelContent(d: PcrPlateLabelData, zone: string): LabelContent {
  return {
    kind: LabelKind.PcrPlate,
    code: d.name,
    symbology: 'code128',
    lines: ['PCR plate', `${plural(d.samples, 'sample')}, ${plural(d.controls, 'control')}`, `Registered ${formatDate(d.createdAt, zone)}`],
  };
}

export function shipmentLabelContent(d: ShipmentLabelData, zone: string): LabelContent {
  return {
    kind: LabelKind.Shipment,
    code: d.code,
    symbology: 'code128',
    lines: [clip(d.account), `Shipment · ${plural(d.samples, 'kit')} · ${formatDate(d.createdAt, zone)}`, clip(d.trackingNumber ? `Tracking ${d.trackingNumber}` : 'Kit shipment to the lab')],
  };
}

/** The file name of a download of labels: `labels-<what>.<pdf|zpl>`. */
export function labelFileName(what: string, extension: 'pdf' | 'zpl'): string {
  return `labels-${what.replace(/[^A-Za-z0-9_.-]+/g, '_').slice(0, 60)}.${extension}`;
}
