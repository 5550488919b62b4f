import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { previewSheetFile, xlsxRows } from '../src/resource-engine/import-file.ts';

/*
 * Reading an XLSX's first sheet, from bytes (an import's upload) and from a file on disk (a
 * preview), whatever order the zip stores its parts in.
 */

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'dukkan-import-file-'));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

async function ratesWorkbook(): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('rates');
  sheet.addRow(['العملة', 'السعر']);
  sheet.addRow(['SAR', { formula: '26/2', result: 13 }]);
  sheet.addRow(['AED', 13.5]);
  return workbook;
}

const ratesRows = {
  headers: ['العملة', 'السعر'],
  rows: [
    ['SAR', 13],
    ['AED', 13.5],
  ],
};

/** The same workbook, its parts stored in `order` (the parts not named follow, as they were). */
async function restored(bytes: Buffer, order: string[]): Promise<Buffer> {
  const source = await JSZip.loadAsync(bytes);
  const paths = Object.keys(source.files).filter((path) => !source.files[path]!.dir);
  const target = new JSZip();
  for (const path of [...order, ...paths.filter((path) => !order.includes(path))])
    target.file(path, await source.file(path)!.async('nodebuffer'));
  return target.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

/** The rows of `bytes` as an upload reads them and as a preview reads them from disk. */
async function bothWays(bytes: Buffer, name: string) {
  const path = join(folder, name);
  await writeFile(path, bytes);
  return { upload: await xlsxRows(bytes), preview: await previewSheetFile(path, 'xlsx', 10) };
}

describe('reading an XLSX', () => {
  it('reads a sheet stored before the workbook part that names it, its shared strings before both', async () => {
    const written = Buffer.from(await (await ratesWorkbook()).xlsx.writeBuffer());
    const bytes = await restored(written, [
      '[Content_Types].xml',
      '_rels/.rels',
      'xl/_rels/workbook.xml.rels',
      'xl/sharedStrings.xml',
      'xl/styles.xml',
      'xl/worksheets/sheet1.xml',
      'xl/workbook.xml',
    ]);
    expect(await bothWays(bytes, 'sheet-first.xlsx')).toEqual({ upload: ratesRows, preview: ratesRows });
  });

  it('reads the first tab, whatever number its part has', async () => {
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('later').addRow(['Currency']).worksheet.addRow(['EGP']);
    workbook.addWorksheet('first').addRow(['Currency']).worksheet.addRow(['USD']);
    // The second part's tab dragged to the front, as a spreadsheet saves it: the workbook part
    // lists the tabs in order, each naming its part.
    const zip = await JSZip.loadAsync(Buffer.from(await workbook.xlsx.writeBuffer()));
    const book = await zip.file('xl/workbook.xml')!.async('string');
    const tabs = /<sheets>(<sheet [^>]+\/>)(<sheet [^>]+\/>)<\/sheets>/;
    expect(book).toMatch(tabs);
    zip.file('xl/workbook.xml', book.replace(tabs, '<sheets>$2$1</sheets>'));
    const bytes = await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
    const rows = { headers: ['Currency'], rows: [['USD']] };
    expect(await bothWays(bytes, 'tabs.xlsx')).toEqual({ upload: rows, preview: rows });
  });

  it('reads no rows from a zip without a sheet, and refuses a cut workbook as unreadable', async () => {
    const notAWorkbook = new JSZip();
    notAWorkbook.file('readme.txt', 'hello');
    const zip = await notAWorkbook.generateAsync({ type: 'nodebuffer' });
    expect(await xlsxRows(zip)).toEqual({ headers: [], rows: [] });

    const written = Buffer.from(await (await ratesWorkbook()).xlsx.writeBuffer());
    const cut = Buffer.concat([written.subarray(0, 300), written.subarray(written.length - 200)]);
    await expect(xlsxRows(cut)).rejects.toMatchObject({ message: 'IMPORT_FILE_UNREADABLE' });
  });
});
