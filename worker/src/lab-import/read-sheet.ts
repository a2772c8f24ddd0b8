/**
 * Reads an import file (CSV or XLSX, told apart by content and name) into its header and data
 * rows, numbered as a spreadsheet shows them (the header is row 1 when it is the first line).
 * A file that cannot be an import at all (junk, empty, wrong columns, too many rows) is refused
 * with one sentence, as an UnrecoverableError: the job fails at once with that message.
 */
import { UnrecoverableError } from 'bullmq';
import { CsvError, parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import {
  IMPORT_BARCODE_COLUMN,
  IMPORT_MAX_ROWS,
  IMPORT_TEST_COLUMN,
  IMPORT_VALUE_COLUMN,
  normaliseImportHeader,
  RESULT_IMPORT_KINDS,
  sniffImportFile,
  tooManyRowsMessage,
  type ImportFormat,
  type ResultImportKind,
} from '@platform/domain';

/** A problem with the file as a whole; its message is shown to the lab user as it is. Never retried. */
export class ImportFileError extends UnrecoverableError {
  constructor(message: string) {
    super(message);
    this.name = 'UnrecoverableError'; // what BullMQ and run-job look for, whatever the class
  }
}

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

/** One line of a sheet as read: its spreadsheet row number and its cells exactly as written. */
export interface RawRow { row: number; cells: string[] }

const isBlank = (cells: string[]) => cells.every((c) => c.trim() === '');

/** The delimiter of a CSV: the one of , ; or tab that the header line uses most (comma when none). */
function csvDelimiter(text: string): string {
  const firstLine = text.split(/\r?\n/).find((l) => l.trim() !== '') ?? '';
  const counts = [',', ';', '\t'].map((d) => [d, firstLine.split(d).length - 1] as const);
  const best = counts.reduce((a, b) => (b[1] > a[1] ? b : a));
  return best[1] > 0 ? best[0] : ',';
}

function readCsv(content: Buffer): RawRow[] {
  const text = content.toString('utf8').replace(/^\uFEFF/, '');
  let records: string[][];
  try {
    // Every line ending is one (a file edited on two systems mixes them): a stray \r never stays in a cell.
    records = parse(text, {
      delimiter: csvDelimiter(text), record_delimiter: ['\r\n', '\n', '\r'], relax_column_count: true, relax_quotes: true, skip_empty_lines: false, trim: false,
    }) as string[][];
  } catch (err) {
    if (err instanceof CsvError) throw new ImportFileError(`The CSV file cannot be read: ${err.message}`);
    throw err;
  }
  // One record per spreadsheet row (blank lines included), so the numbers match what a spreadsheet shows.
  return records.map((cells, i) => ({ row: i + 1, cells }));
}

function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isInteger(value) && Math.abs(value) < 1e21 ? value.toFixed(0) : String(value);
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if ('richText' in value) return value.richText.map((r) => r.text).join('');
  if ('hyperlink' in value) return String(value.text ?? '');
  if ('formula' in value || 'sharedFormula' in value) return cellText((value as ExcelJS.CellFormulaValue).result ?? null);
  if ('error' in value) return value.error;
  return '';
}

async function readXlsx(content: Buffer): Promise<RawRow[]> {
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(content as unknown as Parameters<typeof workbook.xlsx.load>[0]);
  } catch {
    throw new ImportFileError('The Excel workbook cannot be read: it may be damaged, password-protected or not a workbook');
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) throw new ImportFileError('The Excel workbook has no sheet');
  const rows: RawRow[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    const cells: string[] = [];
    for (let c = 1; c <= row.cellCount; c++) cells.push(cellText(row.getCell(c).value));
    rows.push({ row: rowNumber, cells });
  });
  return rows;
}

/** The columns of the file, or one sentence saying what is wrong with them. */
function mapColumns(kind: ResultImportKind, header: string[]): { barcode: number; value: number; test: number | null; names: ImportSheet['columns'] } {
  const valueColumn = IMPORT_VALUE_COLUMN[kind];
  const names = header.map(normaliseImportHeader);
  const wanted = `The columns must be ${IMPORT_BARCODE_COLUMN} and ${valueColumn} (and optionally ${IMPORT_TEST_COLUMN})`;
  const found = `this file has: ${header.map((h) => h.trim() || '(blank)').join(', ')}`;
  const duplicate = names.find((n, i) => n !== '' && names.indexOf(n) !== i);
  if (duplicate) throw new ImportFileError(`The column ${duplicate} appears twice. ${wanted}; ${found}`);
  const known = new Set([IMPORT_BARCODE_COLUMN, valueColumn, IMPORT_TEST_COLUMN]);
  const unknown = names.filter((n) => !known.has(n));
  const missing = [IMPORT_BARCODE_COLUMN, valueColumn].filter((n) => !names.includes(n));
  if (missing.length || unknown.length) {
    const other = RESULT_IMPORT_KINDS.find((k) => k !== kind && names.includes(IMPORT_VALUE_COLUMN[k]));
    const hint = other ? ` (${IMPORT_VALUE_COLUMN[other]} is the column of a ${other === 'kras' ? 'KRAS genotype' : 'toxicity risk level'} file: use that import tool)` : '';
    throw new ImportFileError(`${wanted}; ${found}${hint}`);
  }
  const test = names.indexOf(IMPORT_TEST_COLUMN);
  return {
    barcode: names.indexOf(IMPORT_BARCODE_COLUMN),
    value: names.indexOf(valueColumn),
    test: test >= 0 ? test : null,
    names: { barcode: IMPORT_BARCODE_COLUMN, value: valueColumn, test: test >= 0 ? IMPORT_TEST_COLUMN : null },
  };
}

/**
 * Any import file as rows: its format, the header (the first row that is not blank) and the data
 * rows after it (blank rows left out), cells exactly as written. Throws ImportFileError for a file
 * that cannot be read, is empty, has no data rows or too many.
 */
export async function readSheetRows(content: Buffer, fileName: string): Promise<{ format: ImportFormat; header: RawRow; data: RawRow[] }> {
  const sniff = sniffImportFile(content, fileName);
  if (!sniff.ok) throw new ImportFileError(sniff.error);
  const raw = sniff.format === 'xlsx' ? await readXlsx(content) : readCsv(content);
  const headerIndex = raw.findIndex((r) => !isBlank(r.cells));
  if (headerIndex < 0) throw new ImportFileError('The file is empty');
  const data = raw.slice(headerIndex + 1).filter((r) => !isBlank(r.cells));
  return { format: sniff.format, header: raw[headerIndex], data };
}

/** Refuses a sheet with no data rows or more than IMPORT_MAX_ROWS. */
export function checkRowCount(data: RawRow[]): void {
  if (data.length === 0) throw new ImportFileError('The file has a header but no data rows');
  if (data.length > IMPORT_MAX_ROWS) throw new ImportFileError(tooManyRowsMessage(data.length));
}

/** Reads and shapes a result file; throws ImportFileError for a file that is not an import of that kind. */
export async function readImportSheet(content: Buffer, fileName: string, kind: ResultImportKind): Promise<ImportSheet> {
  const { format, header, data } = await readSheetRows(content, fileName);
  const columns = mapColumns(kind, header.cells);
  checkRowCount(data);
  const cell = (r: RawRow, i: number | null) => (i === null ? '' : (r.cells[i] ?? '').trim());
  return {
    format,
    columns: columns.names,
    rows: data.map((r) => ({ row: r.row, barcode: cell(r, columns.barcode), value: cell(r, columns.value), test: cell(r, columns.test) })),
  };
}
