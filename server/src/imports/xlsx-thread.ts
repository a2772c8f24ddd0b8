/**
 * The sheet thread: reads the first sheet of a workbook off the caller's event loop (the API's and
 * the worker's), in a thread whose heap is capped and given back when it ends. The workbook is
 * checked first (workbook-limits.ts); a refusal comes back as its sentence.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type ExcelJS from 'exceljs';
import { checkWorkbookLimits, DAMAGED_WORKBOOK, WorkbookRefused } from './workbook-limits';

/** What the thread answers: the rows, or the sentence that refuses the workbook. */
export type XlsxThreadAnswer = { rows: { row: number; cells: string[] }[] } | { refused: string };

/** A workbook cell as the lab reads it: numbers as written (no exponent for a long barcode), dates as YYYY-MM-DD, formulas by their result. */
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

async function readFirstSheet(content: Buffer): Promise<XlsxThreadAnswer> {
  try {
    checkWorkbookLimits(content);
  } catch (err) {
    if (err instanceof WorkbookRefused) return { refused: err.message };
    throw err;
  }
  const { default: Excel } = await import('exceljs');
  const workbook = new Excel.Workbook();
  try {
    await workbook.xlsx.load(content as unknown as Parameters<typeof workbook.xlsx.load>[0]);
  } catch {
    return { refused: DAMAGED_WORKBOOK };
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) return { refused: 'The Excel workbook has no sheet' };
  const rows: { row: number; cells: string[] }[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    const cells: string[] = [];
    for (let c = 1; c <= row.cellCount; c++) cells.push(cellText(row.getCell(c).value));
    rows.push({ row: rowNumber, cells });
  });
  return { rows };
}

if (parentPort) {
  const port = parentPort;
  const bytes = workerData as Uint8Array;
  readFirstSheet(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)).then((answer) => port.postMessage(answer));
}
