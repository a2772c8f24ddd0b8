/**
 * The one reader of every lab import file (CSV or XLSX, told apart by content and name): result
 * files and DNA extraction runs (the worker's lab-import job) and storage plate files (the api); a
 * workbook is read in a thread of its own once its size is checked (xlsx-thread.ts). Rows are
 * numbered as a spreadsheet shows them (the header is row 1 when it is the first line) and cells
 * are kept exactly as written: each import decides what a space means.
 *
 * A file that cannot be the import at all (junk, empty, wrong columns, no data rows or too many)
 * is refused with one sentence, an Invalid naming the field `file`: a 400 in the api; inside a job
 * run-job turns it into an UnrecoverableError with the same message (the job fails, no retry).
 */
import { CsvError, parse } from 'csv-parse/sync';
import { Worker } from 'node:worker_threads';
import { formatCount, normaliseImportHeader, sniffImportFile, type ImportFormat } from '@platform/domain';
import { badRequest } from '../errors';
import type { XlsxThreadAnswer } from './xlsx-thread';

/** One line of a sheet as read: its spreadsheet row number (1-based, header included) and its cells exactly as written. */
export interface SheetRow {
  row: number;
  cells: string[];
}

/** The columns an import takes, and how its refusal names them. */
export interface SheetColumns<R extends string, O extends string = never> {
  /** Every file has these, in the order the message lists them. */
  required: readonly R[];
  /** A file may have these. */
  optional?: readonly O[];
  /** The column a header names, or null; by default the header as normaliseImportHeader reads it, when that is a column. */
  columnOf?: (header: string) => R | O | null;
  /** How the message lists the required columns (each import keeps its own words). Default 'a, b and c'. */
  list?: 'a, b and c' | 'a, b, c';
  /** Whether the message says which columns are missing and which headers are not known. */
  detail?: boolean;
  /** A clause appended to the message about wrong columns, given the header as written (null: none). */
  hint?: (header: readonly string[]) => string | null;
}

/** Where each column is (index into SheetRow.cells); an optional column the file lacks is absent. */
export type ColumnIndex<R extends string, O extends string = never> = Record<R, number> & Partial<Record<O, number>>;

export interface ReadSheetOptions<R extends string, O extends string = never> {
  /** The most data rows a file may have. */
  maxRows: number;
  /** Said after the limit when a file has too many rows ("…; the limit is 2,000: split it"). */
  tooManyRowsAdvice?: string;
  columns: SheetColumns<R, O>;
}

export interface Sheet<R extends string, O extends string = never> {
  format: ImportFormat;
  /** The first row that is not blank. */
  header: SheetRow;
  columns: ColumnIndex<R, O>;
  /** The rows after the header, blank rows left out. */
  data: SheetRow[];
}

const fileProblem = (message: string) => badRequest(message, [{ field: 'file', message }]);

/** A cell with nothing written in it: empty or only white space (no value to keep or to trim). */
const isBlankCell = (cell: string | undefined) => (cell ?? '').trim() === '';
/** A row with nothing written in it is left out; a row with anything in it is data, its cells exactly as written. */
const isBlank = (cells: string[]) => cells.every(isBlankCell);

/** The delimiter of a CSV: the one of , ; or tab that the header line uses most (comma when none). */
function csvDelimiter(text: string): string {
  const firstLine = text.split(/\r?\n/).find((l) => l.trim() !== '') ?? '';
  const counts = [',', ';', '\t'].map((d) => [d, firstLine.split(d).length - 1] as const);
  const best = counts.reduce((a, b) => (b[1] > a[1] ? b : a));
  return best[1] > 0 ? best[0] : ',';
}

/**
 * A CSV without a quote character, split as csv-parse splits it with the options of readCsv (one
 * record per line, \r\n, \n or \r; no record for the line end at the end of the file; cells
 * exactly as written), about ten times faster: instrument exports rarely quote anything.
 */
function splitUnquotedCsv(text: string, delimiter: string): string[][] {
  if (text === '') return [];
  const lines = text.split(/\r\n|\n|\r/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.map((line) => line.split(delimiter));
}

function readCsv(content: Buffer): SheetRow[] {
  const text = content.toString('utf8').replace(/^\uFEFF/, '');
  // One record per spreadsheet row (blank lines included), so the numbers match what a spreadsheet shows.
  return csvRecords(text, csvDelimiter(text)).map((cells, i) => ({ row: i + 1, cells }));
}

function csvRecords(text: string, delimiter: string): string[][] {
  if (!text.includes('"')) return splitUnquotedCsv(text, delimiter);
  try {
    // Every line ending is one (a file edited on two systems mixes them): a stray \r never stays in a cell.
    return parse(text, {
      delimiter, record_delimiter: ['\r\n', '\n', '\r'], relax_column_count: true, relax_quotes: true, skip_empty_lines: false, trim: false,
    }) as string[][];
  } catch (err) {
    if (err instanceof CsvError) throw fileProblem(`The CSV file cannot be read: ${err.message}`);
    throw err;
  }
}

/** Memory a sheet thread may use: far above any workbook within the limits, far below the process's. */
const SHEET_THREAD_HEAP_MB = 512;

/**
 * The first sheet of a workbook, read in a thread of its own (xlsx-thread.ts): the caller's event
 * loop goes on meanwhile, and the memory the workbook took is given back when the thread ends.
 */
function readXlsx(content: Buffer): Promise<SheetRow[]> {
  return new Promise((resolve, reject) => {
    const thread = new Worker(new URL('./xlsx-thread-entry.mjs', import.meta.url), {
      workerData: content,
      resourceLimits: { maxOldGenerationSizeMb: SHEET_THREAD_HEAP_MB },
    });
    let answered = false;
    thread.once('message', (answer: XlsxThreadAnswer) => {
      answered = true;
      if ('refused' in answer) reject(fileProblem(answer.refused));
      else resolve(answer.rows);
    });
    thread.once('error', (err: NodeJS.ErrnoException) => {
      answered = true;
      reject(err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? fileProblem('The Excel workbook is too large to read: save only the sheet to import, or save it as CSV') : err);
    });
    thread.once('exit', () => {
      if (!answered) reject(new Error('The sheet thread ended without an answer'));
    });
  });
}

/** 'a, b and c' */
const andList = (names: readonly string[]) => (names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`);

/**
 * Where each column is, or one sentence saying what is wrong with the header: a column named
 * twice, a required one missing, or a header that names no column. A column with a blank header
 * and nothing in it (a trailing delimiter, an empty column of a workbook) is no column; one with
 * something in it is refused, as its cells would otherwise be dropped unseen.
 */
function findColumns<R extends string, O extends string = never>(
  header: readonly string[],
  data: readonly SheetRow[],
  spec: SheetColumns<R, O>,
): ColumnIndex<R, O> {
  const known: readonly string[] = [...spec.required, ...(spec.optional ?? [])];
  const columnOf = spec.columnOf ?? ((h: string) => {
    const name = normaliseImportHeader(h);
    return known.includes(name) ? (name as R | O) : null;
  });
  const list = spec.list === 'a, b, c' ? (names: readonly string[]) => names.join(', ') : andList;
  const wanted = `The columns must be ${list(spec.required)}${spec.optional?.length ? ` (and optionally ${list(spec.optional)})` : ''}`;
  const found = `this file has: ${header.map((h) => h.trim() || '(blank)').join(', ')}`;

  const index = new Map<string, number>();
  const seen = new Set<string>();
  const unknown: string[] = [];
  header.forEach((h, i) => {
    const column = columnOf(h);
    const name = column ?? normaliseImportHeader(h);
    if (name !== '' && seen.has(name)) throw fileProblem(`The column ${name} appears twice. ${wanted}; ${found}`);
    seen.add(name);
    if (column) index.set(column, i);
    else if (!isBlankCell(h) || data.some((r) => !isBlankCell(r.cells[i]))) unknown.push(h.trim() || '(blank)');
  });
  const missing = spec.required.filter((c) => !index.has(c));
  if (missing.length || unknown.length) {
    const what = [missing.length ? `missing: ${missing.join(', ')}` : '', unknown.length ? `not known: ${unknown.join(', ')}` : ''].filter(Boolean).join('; ');
    const hint = spec.hint?.(header);
    throw fileProblem(`${wanted}${spec.detail ? ` (${what})` : ''}; ${found}${hint ? ` ${hint}` : ''}`);
  }
  return Object.fromEntries(index) as ColumnIndex<R, O>;
}

/**
 * An import file as its format, header, columns and data rows (blank rows left out, cells exactly
 * as written). Refused (Invalid, field `file`), in this order: a file that is not CSV or XLSX or
 * cannot be read, an empty one, wrong columns, no data rows, more than maxRows.
 */
export async function readSheet<R extends string, O extends string = never>(
  content: Buffer,
  fileName: string,
  options: ReadSheetOptions<R, O>,
): Promise<Sheet<R, O>> {
  const sniff = sniffImportFile(content, fileName);
  if (!sniff.ok) throw fileProblem(sniff.error);
  const raw = sniff.format === 'xlsx' ? await readXlsx(content) : readCsv(content);
  const headerIndex = raw.findIndex((r) => !isBlank(r.cells));
  if (headerIndex < 0) throw fileProblem('The file is empty');
  const header = raw[headerIndex];
  const data = raw.slice(headerIndex + 1).filter((r) => !isBlank(r.cells));
  const columns = findColumns(header.cells, data, options.columns);
  if (data.length === 0) throw fileProblem('The file has a header but no data rows');
  if (data.length > options.maxRows) {
    const advice = options.tooManyRowsAdvice ? `: ${options.tooManyRowsAdvice}` : '';
    throw fileProblem(`The file has ${formatCount(data.length)} rows; the limit is ${formatCount(options.maxRows)}${advice}`);
  }
  return { format: sniff.format, header, columns, data };
}
