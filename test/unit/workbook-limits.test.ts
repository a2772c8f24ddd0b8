/**
 * A workbook is a ZIP: checked before it is read (server/src/imports/workbook-limits.ts), in a
 * thread of its own (xlsx-thread.ts). The workbooks here are written by fflate, not by our reader.
 */
import { performance } from 'node:perf_hooks';
import { expect } from 'chai';
import { strToU8, zipSync } from 'fflate';
import ExcelJS from 'exceljs';
import { XLSX_MAX_CELLS } from '@platform/domain';
import { readSheet } from '@platform/server';

const COLUMNS = { required: ['plate', 'well', 'sample_id'] as const, list: 'a, b, c' as const };
const read = (content: Buffer) => readSheet(content, 'plates.xlsx', { maxRows: 10_000, columns: COLUMNS });

/** The parts of a workbook, as a ZIP of the highest compression. */
const workbookOf = (parts: Record<string, string>) =>
  Buffer.from(zipSync(Object.fromEntries(Object.entries(parts).map(([name, text]) => [name, [strToU8(text), { level: 9 }]]))));

async function refusal(content: Buffer): Promise<{ message: string; fields?: unknown }> {
  try {
    await read(content);
  } catch (err) {
    return err as { message: string; fields?: unknown };
  }
  throw new Error('the workbook was read');
}

describe('workbook limits: checked before a workbook is read, off the event loop', () => {
  it('refuses a part that expands past 50 MB (a few hundred KB on disk), naming the limit, without reading it', async () => {
    const bomb = workbookOf({ '[Content_Types].xml': '<Types/>', 'xl/sharedStrings.xml': ' '.repeat(60 * 1024 * 1024) });
    expect(bomb.length).to.be.lessThan(1024 * 1024);
    const err = await refusal(bomb);
    expect(err.message).to.equal('The Excel workbook expands to more than 50 MB when read: save only the sheet to import, or save it as CSV');
    expect(err.fields).to.deep.equal([{ field: 'file', message: err.message }]);
  });

  it(`refuses a sheet of more than ${XLSX_MAX_CELLS.toLocaleString('en-US')} cells, naming the limit`, async () => {
    const row = (r: number) => `<row r="${r}"><c r="A${r}"><v>1</v></c><c r="B${r}"><v>2</v></c></row>`;
    const sheet = `<worksheet><sheetData>${Array.from({ length: XLSX_MAX_CELLS / 2 + 1 }, (_, i) => row(i + 1)).join('')}</sheetData></worksheet>`;
    const err = await refusal(workbookOf({ '[Content_Types].xml': '<Types/>', 'xl/worksheets/sheet1.xml': sheet }));
    expect(err.message).to.equal('The Excel workbook has more than 200,000 cells; an import has at most a few columns of its rows: save only the sheet to import, or save it as CSV');
  });

  it('refuses a ZIP that is no workbook with the damaged-workbook sentence', async () => {
    const err = await refusal(Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.alloc(200, 7)]));
    expect(err.message).to.equal('The Excel workbook cannot be read: it may be damaged, password-protected or not a workbook');
  });

  it('reads a workbook within the limits as before: rows numbered as the sheet shows them, cells as written', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Plates');
    sheet.addRow(['plate', 'well', 'sample_id']);
    sheet.addRow(['P-0001', 'A1', 61000000000001]);
    sheet.addRow([]);
    sheet.addRow(['P-0001', 'B1 ', '61000000000002']);
    const read1 = await read(Buffer.from(await workbook.xlsx.writeBuffer()));
    expect(read1.format).to.equal('xlsx');
    expect(read1.data).to.deep.equal([{ row: 2, cells: ['P-0001', 'A1', '61000000000001'] }, { row: 4, cells: ['P-0001', 'B1 ', '61000000000002'] }]);
  });

  it('the event loop goes on while a workbook is read', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Plates');
    sheet.addRow(['plate', 'well', 'sample_id']);
    for (let i = 0; i < 2000; i++) sheet.addRow(['P-0001', 'A1', String(61000000000000 + i)]);
    const content = Buffer.from(await workbook.xlsx.writeBuffer());
    const before = performance.eventLoopUtilization();
    const { data } = await read(content);
    const busy = performance.eventLoopUtilization(before);
    expect(data).to.have.length(2000);
    // Read on the event loop, exceljs keeps it busy nearly all the while; in the thread it waits, idle.
    expect(busy.utilization, 'the share of the read the event loop was busy').to.be.lessThan(0.5);
  });
});
