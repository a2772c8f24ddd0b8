/**
 * A workbook's size as it would be read, checked before anything reads it: every part of the ZIP is
 * expanded with a cap on the bytes it may expand to (zlib stops at the cap, whatever the ZIP's own
 * headers claim) and its sheets' cells are counted. Past a limit the workbook is refused with one
 * sentence naming the limit. Runs in the sheet thread (xlsx-thread.ts), never on a server's event loop.
 */
import { inflateRawSync } from 'node:zlib';
import { formatCount, XLSX_MAX_CELLS, XLSX_MAX_EXPANDED_BYTES } from '@platform/domain';

/** Why a workbook is refused: the message is the one sentence the lab user reads. */
export class WorkbookRefused extends Error {}

/** The one sentence for a workbook that cannot be read at all (the ZIP check and the reader both say it). */
export const DAMAGED_WORKBOOK = 'The Excel workbook cannot be read: it may be damaged, password-protected or not a workbook';
const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const STORED = 0;
const DEFLATED = 8;

interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  headerOffset: number;
}

/** The entries the ZIP's central directory lists. */
function entriesOf(zip: Buffer): ZipEntry[] {
  let end = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--) {
    if (zip.readUInt32LE(i) === END_OF_DIRECTORY) {
      end = i;
      break;
    }
  }
  if (end < 0) throw new WorkbookRefused(DAMAGED_WORKBOOK);
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== DIRECTORY_ENTRY) throw new WorkbookRefused(DAMAGED_WORKBOOK);
    const nameLength = zip.readUInt16LE(at + 28);
    entries.push({
      method: zip.readUInt16LE(at + 10),
      compressedSize: zip.readUInt32LE(at + 20),
      headerOffset: zip.readUInt32LE(at + 42),
      name: zip.toString('utf8', at + 46, at + 46 + nameLength),
    });
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return entries;
}

/** An entry's bytes, expanded to at most `budget` bytes (refused past it). */
function expand(zip: Buffer, entry: ZipEntry, budget: number): Buffer {
  const at = entry.headerOffset;
  if (at + 30 > zip.length || zip.readUInt32LE(at) !== LOCAL_HEADER) throw new WorkbookRefused(DAMAGED_WORKBOOK);
  const start = at + 30 + zip.readUInt16LE(at + 26) + zip.readUInt16LE(at + 28);
  const data = zip.subarray(start, start + entry.compressedSize);
  const tooBig = new WorkbookRefused(`The Excel workbook expands to more than ${formatCount(XLSX_MAX_EXPANDED_BYTES / 1024 / 1024)} MB when read: save only the sheet to import, or save it as CSV`);
  if (entry.method === STORED) {
    if (data.length > budget) throw tooBig;
    return data;
  }
  if (entry.method !== DEFLATED) throw new WorkbookRefused(DAMAGED_WORKBOOK);
  try {
    return inflateRawSync(data, { maxOutputLength: Math.max(1, budget) });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError) throw tooBig;
    throw new WorkbookRefused(DAMAGED_WORKBOOK);
  }
}

const WORKSHEET = /^xl\/worksheets\/[^/]+\.xml$/;
const CELL = /<(?:\w+:)?c[\s>/]/g;

/** Refuses (WorkbookRefused) a workbook that expands past XLSX_MAX_EXPANDED_BYTES or holds more than XLSX_MAX_CELLS cells. */
export function checkWorkbookLimits(zip: Buffer): void {
  let budget = XLSX_MAX_EXPANDED_BYTES;
  let cells = 0;
  for (const entry of entriesOf(zip)) {
    const part = expand(zip, entry, budget);
    budget -= part.length;
    if (!WORKSHEET.test(entry.name)) continue;
    cells += part.toString('latin1').match(CELL)?.length ?? 0;
    if (cells > XLSX_MAX_CELLS) {
      throw new WorkbookRefused(`The Excel workbook has more than ${formatCount(XLSX_MAX_CELLS)} cells; an import has at most a few columns of its rows: save only the sheet to import, or save it as CSV`);
    }
  }
}
