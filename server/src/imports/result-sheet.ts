/**
 * A result file (toxicity risk levels or KRAS genotypes) as rows: the server's readSheet reads it
 * (CSV or XLSX, rows numbered as a spreadsheet shows them) and refuses a file that cannot be an
 * import of that kind with one sentence (Invalid: run-job fails the job at once with it). Cells
 * are kept exactly as written: checkRows refuses a cell with spaces around it with a row error
 * naming its column (the one rule of describeSpacingProblem), never accepts it trimmed.
 */
import {
  IMPORT_BARCODE_COLUMN,
  IMPORT_MAX_ROWS,
  IMPORT_TEST_COLUMN,
  IMPORT_VALUE_COLUMN,
  normaliseImportHeader,
  RESULT_IMPORT_KINDS,
  type ImportFormat,
  type ResultImportKind,
} from '@platform/domain';
import { readSheet, type SheetRow as RawRow } from './sheet';

export interface SheetRow {
  /** The spreadsheet row number (1-based, header included). */
  row: number;
  barcode: string;
  value: string;
  test: string;
}

export interface ImportSheet {
  format: ImportFormat;
  columns: { barcode: string; value: string; test: string | null };
  rows: SheetRow[];
}

/** When the file has the value column of the other kind: which import tool it belongs to. */
function otherKindHint(kind: ResultImportKind, header: readonly string[]): string | null {
  const names = header.map(normaliseImportHeader);
  const other = RESULT_IMPORT_KINDS.find((k) => k !== kind && names.includes(IMPORT_VALUE_COLUMN[k]));
  return other ? `(${IMPORT_VALUE_COLUMN[other]} is the column of a ${other === 'kras' ? 'KRAS genotype' : 'toxicity risk level'} file: use that import tool)` : null;
}

/** Reads and shapes a result file; throws Invalid for a file that is not an import of that kind. */
export async function readImportSheet(content: Buffer, fileName: string, kind: ResultImportKind): Promise<ImportSheet> {
  const valueColumn = IMPORT_VALUE_COLUMN[kind];
  const { format, columns, data } = await readSheet(content, fileName, {
    maxRows: IMPORT_MAX_ROWS,
    columns: { required: [IMPORT_BARCODE_COLUMN, valueColumn], optional: [IMPORT_TEST_COLUMN], hint: (header) => otherKindHint(kind, header) },
  });
  const test = columns[IMPORT_TEST_COLUMN];
  const cell = (r: RawRow, i: number | undefined) => (i === undefined ? '' : (r.cells[i] ?? ''));
  return {
    format,
    columns: { barcode: IMPORT_BARCODE_COLUMN, value: valueColumn, test: test === undefined ? null : IMPORT_TEST_COLUMN },
    rows: data.map((r) => ({ row: r.row, barcode: cell(r, columns[IMPORT_BARCODE_COLUMN]), value: cell(r, columns[valueColumn]), test: cell(r, test) })),
  };
}
