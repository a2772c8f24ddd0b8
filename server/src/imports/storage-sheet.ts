/**
 * A storage plate file (CSV or XLSX: plate, well, sample_id) as rows: the server's readSheet reads
 * it (rows numbered as a spreadsheet shows them) and refuses a file that cannot be a plate file at
 * all with one sentence naming the file (Invalid: 400). Cells are kept exactly as written: the row
 * checks say what is wrong with a cell that has spaces around it.
 */
import { STORAGE_IMPORT_COLUMNS, STORAGE_IMPORT_MAX_ROWS, type ImportFormat } from '@platform/domain';
import { readSheet } from './sheet';

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

const { plate, well, sampleId } = STORAGE_IMPORT_COLUMNS;

/** Reads a storage plate file; a file that is not one (junk, empty, wrong columns, too many rows) is a 400 naming the file. */
export async function readStorageSheet(content: Buffer, fileName: string): Promise<StorageSheet> {
  const { format, columns, data } = await readSheet(content, fileName, {
    maxRows: STORAGE_IMPORT_MAX_ROWS,
    tooManyRowsAdvice: 'split it',
    columns: { required: [plate, well, sampleId], list: 'a, b, c' },
  });
  return {
    format,
    rows: data.map((r) => ({ row: r.row, plate: r.cells[columns[plate]] ?? '', well: r.cells[columns[well]] ?? '', sampleId: r.cells[columns[sampleId]] ?? '' })),
  };
}
