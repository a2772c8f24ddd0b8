/**
 * Reads a storage plate file (CSV or XLSX, told apart by content and name) into rows numbered as a
 * spreadsheet shows them (the header is row 1 when it is the first line). Cells are kept exactly
 * as written: the row checks say what is wrong with a cell that has spaces around it. A file that
 * cannot be a plate file at all is refused with one sentence naming the file (400).
 */
import { CsvError, parse } from 'csv-parse/sync';
import type ExcelJS from 'exceljs';
import {
  formatCount,
  normaliseImportHeader,
  sniffImportFile,
  STORAGE_IMPORT_COLUMNS,
  STORAGE_IMPORT_MAX_ROWS,
  type ImportFormat,
} from '@platform/domain';
import { badRequest } from '@platform/server';

export interface StorageSheetRow {
  /** The spreadsheet row number (1-based, header included). */
  row: number;
  plate: string;
  well: string;
  sampleId: string;
}

export interface StorageSheet {
  format: ImportFormat;
  rows: StorageSheetRow[];
}

interface RawRow { row: number; cells: string[] }

const fileProblem = (message: string) => badRequest(message, [{ field: 'file', message }]);
/** A row with nothing in it (a row of spaces is not blank: its cells are reported). */
const isBlank = (cells: string[]) => cells.every((c) => c === '');

/** The delimiter of a CSV: the one of , ; or tab that the header line uses most (comma when none). */
function csvDelimiter(text: string): string {
  const firstLine = text.split(/\r?\n/).find((l) => l.trim() !== '') ?? '';
  const counts = [',', ';', '\t'].map((d) => [d, firstLine.split(d).length - 1] as const);
  const best = counts.reduce((a, b) => (b[1] > a[1] ? b : a));
  return best[1] > 0 ? best[0] : ',';
}

function readCsv(content: Buffer): RawRow[] {
  const text = content.toString('utf8').replace(/^\uFEFF/, '');
  try {
    const records = parse(text, { delimiter: csvDelimiter(text), relax_column_count: true, skip_empty_lines: false, trim: false }) as string[][];
    // One record per spreadsheet row (blank lines included), so the numbers match what a spreadsheet shows.
    return records.map((cells, i) => ({ row: i + 1, cells }));
  } catch (err) {
    if (err instanceof CsvError) throw fileProblem(`The CSV file cannot be read: ${err.message}`);
    throw err;
  }
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
  const { default: Excel } = await import('exceljs'); // loaded only when a workbook comes in
  const workbook = new Excel.Workbook();
  try {
    await workbook.xlsx.load(content as unknown as Parameters<typeof workbook.xlsx.load>[0]);
  } catch {
    throw fileProblem('The Excel workbook cannot be read: it may be damaged, password-protected or not a workbook');
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) throw fileProblem('The Excel workbook has no sheet');
  const rows: RawRow[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    const cells: string[] = [];
    for (let c = 1; c <= row.cellCount; c++) cells.push(cellText(row.getCell(c).value));
    rows.push({ row: rowNumber, cells });
  });
  return rows;
}

type ColumnIndex = Record<keyof typeof STORAGE_IMPORT_COLUMNS, number>;

/** Where each column is, or one sentence saying what is wrong with the header. */
function mapColumns(header: string[]): ColumnIndex {
  const names = header.map(normaliseImportHeader);
  const wanted = Object.values(STORAGE_IMPORT_COLUMNS);
  const expected = `The columns must be ${wanted.join(', ')}; this file has: ${header.map((h) => h.trim() || '(blank)').join(', ')}`;
  const duplicate = names.find((n, i) => n !== '' && names.indexOf(n) !== i);
  if (duplicate) throw fileProblem(`The column ${duplicate} appears twice. ${expected}`);
  if (wanted.some((w) => !names.includes(w)) || names.some((n) => !(wanted as string[]).includes(n))) throw fileProblem(expected);
  return {
    plate: names.indexOf(STORAGE_IMPORT_COLUMNS.plate),
    well: names.indexOf(STORAGE_IMPORT_COLUMNS.well),
    sampleId: names.indexOf(STORAGE_IMPORT_COLUMNS.sampleId),
  };
}

/** Reads a storage plate file; a file that is not one (junk, empty, wrong columns, too many rows) is a 400 naming the file. */
export async function readStorageSheet(content: Buffer, fileName: string): Promise<StorageSheet> {
  const sniff = sniffImportFile(content, fileName);
  if (!sniff.ok) throw fileProblem(sniff.error);
  const raw = sniff.format === 'xlsx' ? await readXlsx(content) : readCsv(content);
  const headerIndex = raw.findIndex((r) => !isBlank(r.cells));
  if (headerIndex < 0) throw fileProblem('The file is empty');
  const columns = mapColumns(raw[headerIndex].cells);
  const data = raw.slice(headerIndex + 1).filter((r) => !isBlank(r.cells));
  if (data.length === 0) throw fileProblem('The file has a header but no data rows');
  if (data.length > STORAGE_IMPORT_MAX_ROWS) {
    throw fileProblem(`The file has ${formatCount(data.length)} rows; the limit is ${formatCount(STORAGE_IMPORT_MAX_ROWS)}: split it`);
  }
  const cell = (r: RawRow, i: number) => r.cells[i] ?? '';
  return {
    format: sniff.format,
    rows: data.map((r) => ({ row: r.row, plate: cell(r, columns.plate), well: cell(r, columns.well), sampleId: cell(r, columns.sampleId) })),
  };
}
