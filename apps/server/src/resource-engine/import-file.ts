import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { type CellValue, type ExportFormat, importLimits, validationCodes } from '@dukkan/contract';
import ExcelJS from 'exceljs';
import unzipper from 'unzipper';
import { validationError } from '../errors.ts';

/*
 * Reading an import's file into rows of cells, the shape the export writes them in: CSV (UTF-8
 * with or without a byte-order mark, or Windows-1256 as older Arabic Excel saves it) or XLSX
 * (typed cells; a formula read as its cached result). The limits (`importLimits`) are checked
 * before any cell is interpreted: the size by the caller while receiving, the unzipped size from
 * the zip's directory before anything is inflated, the rows while they are counted.
 */

/** A file's rows: its header row, then the records' rows (a row's index + 2 is its line in the file). */
export interface SheetRows {
  headers: CellValue[];
  rows: CellValue[][];
}

/** The file an import reads, as its audit row names it: the name it was sent under, and its format. */
export interface ImportedFile {
  /** The file's own name (no folder), at most 255 characters; null when it was sent without one. */
  name: string | null;
  format: ExportFormat;
}

/** A file name as sent, without a folder (an old browser's `C:\fakepath\`), trimmed to 255 characters. */
export function importedFileName(sent: string | undefined): string | null {
  const name = (sent ?? '').split(/[\\/]/).pop()!.trim().slice(0, 255);
  return name === '' ? null : name;
}

const fileError = (message: string, params?: Record<string, string | number>) =>
  validationError([{ path: 'file', message, ...(params ? { params } : {}) }], message);

const tooManyRows = () => fileError(validationCodes.IMPORT_TOO_MANY_ROWS, { max: importLimits.maxRows });

const megabytes = (bytes: number) => Math.round(bytes / (1024 * 1024));

/** A zip (an XLSX) starts with a local file header. */
const isZip = (bytes: Buffer) => bytes.length >= 4 && bytes.readUInt32LE(0) === 0x04034b50;

/**
 * The sum of a zip's entries' unzipped sizes, read from its central directory (nothing is
 * inflated). A zip64 size (0xFFFFFFFF) counts as over any limit; a zip without a directory is
 * not a workbook.
 */
export function unzippedSize(bytes: Buffer): number {
  const end = endOfDirectory(bytes);
  return directorySize(bytes, bytes.readUInt32LE(end + 16), bytes.readUInt16LE(end + 10));
}

/** Where a zip's end-of-directory record starts in its last bytes. */
function endOfDirectory(tail: Buffer): number {
  for (let at = tail.length - 22; at >= Math.max(0, tail.length - 22 - 65_535); at--) {
    if (tail.readUInt32LE(at) === 0x06054b50) return at;
  }
  throw fileError(validationCodes.IMPORT_FILE_UNREADABLE);
}

/** The unzipped sizes of a central directory's `entries`, starting at `at` of `bytes`. */
function directorySize(bytes: Buffer, start: number, entries: number): number {
  let at = start;
  let total = 0;
  for (let entry = 0; entry < entries; entry++) {
    if (at + 46 > bytes.length || bytes.readUInt32LE(at) !== 0x02014b50)
      throw fileError(validationCodes.IMPORT_FILE_UNREADABLE);
    const size = bytes.readUInt32LE(at + 24);
    if (size === 0xffffffff) return Number.POSITIVE_INFINITY;
    total += size;
    at += 46 + bytes.readUInt16LE(at + 28) + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
  }
  return total;
}

/**
 * `unzippedSize` of a zip on disk: only its last 64 KB and its central directory are read, so a
 * preview never holds the file in memory.
 */
export async function unzippedSizeOfFile(path: string): Promise<number> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const tailLength = Math.min(size, 22 + 65_535);
    const tail = Buffer.alloc(tailLength);
    await handle.read(tail, 0, tailLength, size - tailLength);
    const end = endOfDirectory(tail);
    const directoryLength = tail.readUInt32LE(end + 12);
    const directoryStart = tail.readUInt32LE(end + 16);
    if (directoryStart + directoryLength > size) throw fileError(validationCodes.IMPORT_FILE_UNREADABLE);
    const directory = Buffer.alloc(directoryLength);
    await handle.read(directory, 0, directoryLength, directoryStart);
    return directorySize(directory, 0, tail.readUInt16LE(end + 10));
  } finally {
    await handle.close();
  }
}

/** Whether a text holds a control character no Arabic or English text has (tab, CR and LF aside): a sign of another encoding. */
function hasForeignControl(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if ((code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || code === 0x7f) return true;
  }
  return false;
}

/**
 * A CSV's text: UTF-8 with or without a byte-order mark; else, when it is no valid UTF-8,
 * Windows-1256 (Node's full ICU decodes it). A file that is neither — UTF-16, binary — is
 * refused with IMPORT_ENCODING_UNKNOWN rather than read as garbage.
 */
export function decodeCsv(bytes: Buffer): string {
  const withoutBom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(withoutBom);
  } catch {
    text = new TextDecoder('windows-1256').decode(bytes);
  }
  if (hasForeignControl(text)) throw fileError(validationCodes.IMPORT_ENCODING_UNKNOWN);
  return text;
}

/**
 * RFC 4180 rows of a CSV text (quoted fields with `""`, CRLF or LF), an empty field as none.
 * Stops with IMPORT_TOO_MANY_ROWS as soon as the rows under the header pass the limit.
 */
export function csvRows(text: string, maxRows: number = importLimits.maxRows): SheetRows {
  const [headers = [], ...rows] = csvRecords(text, maxRows);
  return { headers, rows };
}

/**
 * The rows of a CSV text one at a time, the header first, as `csvRows` reads them: a caller
 * that counts or writes them as they come never holds the file's cells (decision 0049).
 */
export function* csvRecords(text: string, maxRows: number = importLimits.maxRows): Generator<CellValue[]> {
  let row: CellValue[] = [];
  let rowsRead = 0;
  let field = '';
  let quoted = false;
  let fieldStarted = false;
  const endField = () => {
    row.push(field === '' && !fieldStarted ? null : field === '' ? null : field);
    field = '';
    fieldStarted = false;
  };
  const endRow = () => {
    endField();
    const done = row;
    row = [];
    rowsRead += 1;
    if (rowsRead > maxRows + 1) throw tooManyRows();
    return done;
  };
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (quoted) {
      if (char === '"') {
        if (text[index + 1] === '"') {
          field += '"';
          index++;
        } else quoted = false;
      } else field += char;
    } else if (char === '"' && field === '') {
      quoted = true;
      fieldStarted = true;
    } else if (char === ',') endField();
    else if (char === '\n') yield endRow();
    else if (char === '\r') {
      if (text[index + 1] === '\n') index++;
      yield endRow();
    } else field += char;
  }
  if (field !== '' || row.length > 0 || fieldStarted) yield endRow();
}

/** Two digits. */
const pad = (value: number) => String(value).padStart(2, '0');

/** An XLSX cell's value as the export's cell would hold it: a text or a number, or none. */
function xlsxCell(value: unknown): CellValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return value;
  if (typeof value === 'string') return value === '' ? null : value;
  if (typeof value === 'boolean') return String(value);
  if (value instanceof Date) {
    // A date cell: its day (`2026-03-01`), or the moment when it has a time.
    const midnight = value.getUTCHours() === 0 && value.getUTCMinutes() === 0 && value.getUTCSeconds() === 0;
    const day = `${value.getUTCFullYear()}-${pad(value.getUTCMonth() + 1)}-${pad(value.getUTCDate())}`;
    return midnight ? day : value.toISOString();
  }
  if (typeof value === 'object') {
    const cell = value as {
      result?: unknown;
      formula?: string;
      richText?: { text: string }[];
      text?: unknown;
      error?: string;
    };
    // A formula: the value the spreadsheet computed and saved with it, never the formula.
    if ('formula' in cell || 'sharedFormula' in cell) return xlsxCell(cell.result);
    if (cell.richText) return xlsxCell(cell.richText.map((part) => part.text).join(''));
    if ('text' in cell) return xlsxCell(cell.text);
    if (cell.error) return cell.error;
  }
  return null;
}

/**
 * The first sheet of an XLSX, read as a stream after its unzipped size is checked: rows are
 * counted as they arrive and the reading stops once they pass the limit.
 */
export async function xlsxRows(bytes: Buffer, maxRows = importLimits.maxRows): Promise<SheetRows> {
  checkUnzippedSize(unzippedSize(bytes));
  return xlsxStreamRows(() => unzipper.Open.buffer(bytes), { maxRows });
}

/** Refuses a workbook whose content is over the limit once unzipped. */
export function checkUnzippedSize(size: number): void {
  if (size > importLimits.maxUnzippedBytes)
    throw fileError(validationCodes.IMPORT_UNZIPPED_TOO_LARGE, {
      max: megabytes(importLimits.maxUnzippedBytes),
    });
}

/**
 * The parts of ExcelJS's streaming workbook reader (exceljs 4.4) that read one part of the zip
 * each. Its own `parse()` takes the parts in the order the zip stores them, in one pass that
 * sometimes ends before the last part: ExcelJS writes `xl/workbook.xml` last, and a worksheet
 * read without it throws (exceljs#3064, about 1 read in 100 here). These are given the parts,
 * from the zip's directory, in the order they depend on each other.
 */
interface WorkbookParts {
  model?: { sheets?: { rId: string }[] };
  workbookRels?: { Id: string; Target: string }[];
  _parseRels(part: Readable): Promise<void>;
  _parseWorkbook(part: Readable): Promise<void>;
  _parseSharedStrings(part: Readable): AsyncIterable<unknown>;
  _parseStyles(part: Readable): Promise<void>;
  _parseWorksheet(part: Readable, sheetNo: string): Iterable<{ value: AsyncIterable<ExcelJS.Row> }>;
}

/** A worksheet's part, as `xl/worksheets/sheet<n>.xml`. */
const worksheetPart = /^xl\/worksheets\/sheet(\d+)\.xml$/;

/**
 * The part of a workbook's first sheet (the first tab, by its relationship), else the
 * worksheet part of the lowest number.
 */
function firstSheetPart(workbook: WorkbookParts, paths: string[]): string | undefined {
  const first = workbook.model?.sheets?.[0];
  const target = first && workbook.workbookRels?.find((rel) => rel.Id === first.rId)?.Target;
  if (target) {
    const path = target.startsWith('/') ? target.slice(1) : `xl/${target}`;
    if (paths.includes(path)) return path;
  }
  return paths
    .filter((path) => worksheetPart.test(path))
    .sort((a, b) => Number(worksheetPart.exec(a)![1]) - Number(worksheetPart.exec(b)![1]))[0];
}

/**
 * The rows of an XLSX's first sheet (its unzipped size checked by the caller): its directory is
 * read first, then the parts the sheet needs (relationships, workbook, shared strings, styles),
 * then the sheet itself as a stream. Past `maxRows` it is refused; with `firstRows`, the reading
 * stops once the header and that many rows are read (a preview).
 */
async function xlsxStreamRows(
  openZip: () => Promise<unzipper.CentralDirectory>,
  { maxRows, firstRows }: { maxRows: number; firstRows?: number },
): Promise<SheetRows> {
  const all: CellValue[][] = [];
  const opened: Readable[] = [];
  try {
    const zip = await openZip();
    const paths = zip.files.map((file) => file.path);
    const part = (path: string) => {
      const file = zip.files.find((candidate) => candidate.path === path);
      if (!file) return undefined;
      const stream = file.stream();
      opened.push(stream);
      return stream;
    };
    const workbook = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([]), {
      worksheets: 'emit',
      sharedStrings: 'cache',
      // Styles tell a date cell from a number.
      styles: 'cache',
      hyperlinks: 'ignore',
      entries: 'ignore',
    }) as unknown as WorkbookParts;
    const rels = part('xl/_rels/workbook.xml.rels');
    if (rels) await workbook._parseRels(rels);
    const book = part('xl/workbook.xml');
    if (book) await workbook._parseWorkbook(book);
    const sharedStrings = part('xl/sharedStrings.xml');
    if (sharedStrings) for await (const _ of workbook._parseSharedStrings(sharedStrings));
    const styles = part('xl/styles.xml');
    if (styles) await workbook._parseStyles(styles);
    const sheetPath = firstSheetPart(workbook, paths);
    const sheetStream = sheetPath ? part(sheetPath) : undefined;
    if (sheetPath && sheetStream) {
      const sheetNo = worksheetPart.exec(sheetPath)?.[1] ?? '1';
      for (const { value: sheet } of workbook._parseWorksheet(sheetStream, sheetNo)) {
        for await (const row of sheet) {
          // `values` is 1-based and sparse; rows may skip empty ones, kept by their number.
          const values = row.values as unknown[];
          const cells: CellValue[] = [];
          for (let column = 1; column < values.length; column++) cells.push(xlsxCell(values[column]));
          while (all.length < row.number - 1) all.push([]);
          all.push(cells);
          if (all.length > maxRows + 1) throw tooManyRows();
          if (firstRows !== undefined && all.length > firstRows) break;
        }
      }
    }
  } catch (error) {
    if ((error as { code?: string }).code === 'VALIDATION') throw error;
    throw fileError(validationCodes.IMPORT_FILE_UNREADABLE);
  } finally {
    for (const stream of opened) stream.destroy();
  }
  const [headers = [], ...rows] = all;
  return { headers, rows: firstRows === undefined ? rows : rows.slice(0, firstRows) };
}

/** The most of a CSV a preview reads for its first rows. */
const previewCsvBytes = 2 * 1024 * 1024;

/**
 * The header and first `count` rows of a file on disk, read as far as they go and no further: a
 * CSV's bytes until the rows are complete (at most 2 MB), an XLSX's first sheet by the
 * streaming reader after its directory's unzipped size is checked. The whole file is never in
 * memory, and its rows are not counted (the dry run does).
 */
export async function previewSheetFile(
  path: string,
  format: ExportFormat,
  count: number,
): Promise<SheetRows> {
  if (format === 'xlsx') {
    checkUnzippedSize(await unzippedSizeOfFile(path));
    return xlsxStreamRows(() => unzipper.Open.file(path), {
      maxRows: importLimits.maxRows,
      firstRows: count,
    });
  }
  const chunks: Buffer[] = [];
  let length = 0;
  let newlines = 0;
  let ended = true;
  const stream = createReadStream(path);
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      length += chunk.length;
      for (const byte of chunk) if (byte === 0x0a) newlines++;
      // Enough lines for the rows (a quoted cell may hold more), or as far as a preview reads.
      if (length >= previewCsvBytes || (newlines > count + 1 && enoughRows(chunks, count))) {
        ended = false;
        break;
      }
    }
  } finally {
    stream.destroy();
  }
  let bytes = Buffer.concat(chunks);
  if (bytes.length === 0) throw fileError(validationCodes.IMPORT_FILE_EMPTY);
  // Cut where a line ends: never inside a character, and the last row read is whole.
  if (!ended && bytes.lastIndexOf(0x0a) > 0) bytes = bytes.subarray(0, bytes.lastIndexOf(0x0a) + 1);
  const sheet = csvRows(decodeCsv(bytes), Number.POSITIVE_INFINITY);
  return { headers: sheet.headers, rows: sheet.rows.slice(0, count) };
}

/** Whether a CSV's first bytes, cut at their last line's end, hold the header and `count` rows. */
function enoughRows(chunks: Buffer[], count: number): boolean {
  const bytes = Buffer.concat(chunks);
  const cut = bytes.subarray(0, bytes.lastIndexOf(0x0a) + 1);
  try {
    return csvRows(decodeCsv(cut), Number.POSITIVE_INFINITY).rows.length >= count;
  } catch {
    return false;
  }
}

/** A file's format by its content: a zip is an XLSX, anything else is read as CSV. */
export const sheetFormat = (bytes: Buffer): ExportFormat => (isZip(bytes) ? 'xlsx' : 'csv');

/** A file's rows, XLSX by its content (a zip), else CSV. */
export async function readSheet(bytes: Buffer): Promise<SheetRows> {
  if (bytes.length === 0) throw fileError(validationCodes.IMPORT_FILE_EMPTY);
  if (sheetFormat(bytes) === 'xlsx') return xlsxRows(bytes);
  return csvRows(decodeCsv(bytes));
}

/** A file's rows as an import reads them once, in order: a CSV's parsed as they are taken. */
export interface SheetRowSource {
  headers: CellValue[];
  rows: Iterable<CellValue[]>;
}

/**
 * A file's rows to be read once (`runImport`): an XLSX's as `readSheet` reads them, a CSV's
 * header at once and its rows parsed only as they are taken, so the file's cells are never all
 * held (decision 0049). The file was read whole by its upload's request (its limits, its
 * encoding), so a CSV's rows are not refused again here.
 */
export async function readSheetRows(bytes: Buffer): Promise<SheetRowSource> {
  if (bytes.length === 0 || sheetFormat(bytes) === 'xlsx') return readSheet(bytes);
  const records = csvRecords(decodeCsv(bytes), Number.POSITIVE_INFINITY);
  const first = records.next();
  return { headers: first.done ? [] : first.value, rows: { [Symbol.iterator]: () => records } };
}

/** A file's header and how many of its rows hold a cell, its limits checked as `readSheet` checks them. */
export async function readSheetShape(bytes: Buffer): Promise<{ headers: CellValue[]; rowsTotal: number }> {
  if (bytes.length === 0) throw fileError(validationCodes.IMPORT_FILE_EMPTY);
  const sheet =
    sheetFormat(bytes) === 'xlsx'
      ? await xlsxRows(bytes)
      : { headers: undefined, rows: csvRecords(decodeCsv(bytes)) };
  let headers = sheet.headers;
  let rowsTotal = 0;
  for (const cells of sheet.rows) {
    if (headers === undefined) headers = cells;
    else if (cells.some((cell) => cell !== null && cell !== '')) rowsTotal += 1;
  }
  return { headers: headers ?? [], rowsTotal };
}

export { megabytes };
