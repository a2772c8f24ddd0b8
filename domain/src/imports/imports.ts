/**
 * Result-file imports of the Lab Toolbox: the kinds of file and their columns and values, the limits
 * of an upload, what a file is (CSV or a workbook), and what a dry run and a commit answer. Plain
 * values and answer shapes (no joi here: the SPA imports these); the request schemas are in schemas.ts.
 */
import { catalogueEntry, type ResultScale, scaleValues } from '../catalogue/catalogue';
import type { TestName } from '../catalogue/tests';
import * as s from '../shared/shapes';

/** What a lab import file holds, and whether the run only checks it or also writes it. */
/** Result files: one result value per sample's test (a risk level, a KRAS genotype). */
export const RESULT_IMPORT_KINDS = ['cancer-toxicity', 'kras'] as const;
export type ResultImportKind = (typeof RESULT_IMPORT_KINDS)[number];
/** Every kind: the result files and DNA extraction runs (measurements per sample, extractions/dna-extraction.ts). */
export const LAB_IMPORT_KINDS = [...RESULT_IMPORT_KINDS, 'dna-extraction'] as const;
export type LabImportKind = (typeof LAB_IMPORT_KINDS)[number];
export const LAB_IMPORT_MODES = ['dry-run', 'commit'] as const;
export type LabImportMode = (typeof LAB_IMPORT_MODES)[number];

export const IMPORT_MAX_ROWS = 10_000;
export const IMPORT_MAX_BYTES = 10 * 1024 * 1024;
/**
 * A workbook is a ZIP: a few MB can expand a thousandfold. Before one is read its parts are
 * expanded with these caps (far above the largest import: 10,000 rows of a few columns).
 */
export const XLSX_MAX_EXPANDED_BYTES = 50 * 1024 * 1024;
export const XLSX_MAX_CELLS = 200_000;

export const LAB_IMPORT_KIND_LABELS: Record<LabImportKind, string> = {
  'cancer-toxicity': 'Toxicity risk levels (CFRT / cancer toxicity)',
  kras: 'KRAS genotypes',
  'dna-extraction': 'DNA extraction runs (concentration, A260/280, volume, plate and well)',
};

/** The columns of an import file: barcode, the value column of the kind, and an optional test name. */
export const IMPORT_BARCODE_COLUMN = 'barcode';
export const IMPORT_TEST_COLUMN = 'test';
export const IMPORT_VALUE_COLUMN: Record<ResultImportKind, string> = { 'cancer-toxicity': 'risk_level', kras: 'genotype' };
/** The scales each kind's value column may be written on. */
export const IMPORT_KIND_SCALES: Record<ResultImportKind, readonly ResultScale[]> = { 'cancer-toxicity': ['risk4', 'risk2'], kras: ['kras'] };

/** Every value the kind's value column accepts, in catalogue order, without repeats. */
export function importKindValues(kind: ResultImportKind): string[] {
  return [...new Set(IMPORT_KIND_SCALES[kind].flatMap((s) => scaleValues(s) ?? []))];
}

/** True when a test takes results of that import kind (a risk level, a KRAS genotype). */
export function importKindFitsTest(kind: ResultImportKind, test: TestName): boolean {
  return catalogueEntry(test).acceptedScales.some((s) => IMPORT_KIND_SCALES[kind].includes(s));
}

/** The canonical value for a typed one (case and spacing forgiven: 'high  risk' -> 'High Risk'), or null. */
export function canonicalImportValue(kind: ResultImportKind, typed: string): string | null {
  const key = (v: string) => v.trim().replace(/\s+/g, ' ').toLowerCase();
  const wanted = key(typed);
  return importKindValues(kind).find((v) => key(v) === wanted) ?? null;
}

/** A header as typed -> its column name: trimmed, lower case, spaces and hyphens as underscores ('Risk Level' -> 'risk_level'). */
export function normaliseImportHeader(header: string): string {
  return header.replace(/^\uFEFF/, '').trim().toLowerCase().replace(/[\s-]+/g, '_');
}

export const IMPORT_FILE_NAME_MAX_LENGTH = 200;
/** The rows the dry run keeps in its result for display (all errors are kept). */
export const IMPORT_PREVIEW_ROWS = 200;
/** How many errors the job endpoint answers inline (the errors CSV has them all). */
export const IMPORT_ERRORS_INLINE = 1_000;

export const IMPORT_FORMATS = ['csv', 'xlsx'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];
export type ImportSniff = { ok: true; format: ImportFormat; contentType: string } | { ok: false; error: string };

export const NOT_CSV_OR_XLSX = 'The file is neither a CSV file nor an Excel workbook (.xlsx)';

/**
 * What an uploaded file is, from its first bytes and its name: an Excel workbook (a ZIP
 * container), or CSV text (UTF-8, no NUL bytes). Anything else is refused with one sentence.
 */
export function sniffImportFile(bytes: Uint8Array, fileName: string): ImportSniff {
  const name = fileName.toLowerCase();
  if (bytes.length === 0) return { ok: false, error: 'The file is empty' };
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (starts(0x50, 0x4b, 0x03, 0x04)) {
    if (name.endsWith('.csv')) return { ok: false, error: 'The file is named .csv but is an Excel workbook or another ZIP file: name it .xlsx' };
    return { ok: true, format: 'xlsx', contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' };
  }
  if (starts(0xd0, 0xcf, 0x11, 0xe0)) return { ok: false, error: 'Old Excel files (.xls) cannot be read: save the sheet as .xlsx or CSV' };
  if (name.endsWith('.xlsx')) return { ok: false, error: 'The file is named .xlsx but is not an Excel workbook' };
  if (bytes.includes(0)) return { ok: false, error: NOT_CSV_OR_XLSX };
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, error: `${NOT_CSV_OR_XLSX} (CSV files must be UTF-8 text)` };
  }
  return { ok: true, format: 'csv', contentType: 'text/csv' };
}

/** One problem with one cell of an import file; row is the spreadsheet row (the header is row 1). */
export const ImportError = s.object({ row: s.nullable(s.integer), column: s.string, value: s.string, message: s.string });
export type ImportError = s.Infer<typeof ImportError>;
/** One data row as the dry run read it. */
export const ImportPreviewRow = s.object({ row: s.integer, barcode: s.string, value: s.string, test: s.nullable(s.string), sampleStatus: s.nullable(s.string), ok: s.boolean });
export type ImportPreviewRow = s.Infer<typeof ImportPreviewRow>;

export const ImportDryRunResult = s.object({
  mode: s.literal('dry-run'),
  kind: s.oneOf(LAB_IMPORT_KINDS),
  fileId: s.integer,
  fileName: s.string,
  format: s.oneOf(IMPORT_FORMATS),
  rowCount: s.integer,
  rows: s.array(ImportPreviewRow),
  errorCount: s.integer,
  errors: s.array(ImportError),
});
export type ImportDryRunResult = s.Infer<typeof ImportDryRunResult>;
export const ImportCommitResult = s.object({
  mode: s.literal('commit'),
  kind: s.oneOf(LAB_IMPORT_KINDS),
  fileId: s.integer,
  fileName: s.string,
  rowCount: s.integer,
  resultsWritten: s.integer,
  samplesMovedToTesting: s.integer,
  alreadyCommitted: s.optional(s.boolean),
});
export type ImportCommitResult = s.Infer<typeof ImportCommitResult>;
