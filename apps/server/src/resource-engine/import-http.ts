import { createWriteStream } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import {
  type CellValue,
  csvLine,
  type ExportFormat,
  formatCell,
  type ImportMapping,
  type importLimits,
  importMappingField,
  importTemplateNotes,
  validationCodes,
} from '@dukkan/contract';
import type { MultipartFile } from '@fastify/multipart';
import ExcelJS from 'exceljs';
import type { FastifyRequest } from 'fastify';
import { AppError, validationError } from '../errors.ts';
import type { ResourceData } from './data.ts';
import { importTemplateHeaders } from './import.ts';
import type { ImportContext } from './import-expansion.ts';
import {
  type ImportedFile,
  importedFileName,
  megabytes,
  previewSheetFile,
  readSheetShape,
  type SheetRows,
  sheetFormat,
} from './import-file.ts';
import { parseMappingField } from './import-mapping.ts';

/** A multipart body that is no import's: no `file` part, or a malformed body. */
const missingFile = () => validationError([{ path: 'file', message: validationCodes.FILE_IS_REQUIRED }]);

/** The largest `mapping` field (JSON of at most 500 headers). */
const maxMappingBytes = 256 * 1024;

/**
 * Reads an import's multipart body: its `file` part handed to `receive` as a stream (stopped at
 * the size limit), and the optional `mapping` field (JSON, before or after the file). A file
 * over the limit is refused with IMPORT_FILE_TOO_LARGE once it has been received that far.
 */
async function importParts<Received>(
  request: FastifyRequest,
  limits: typeof importLimits,
  receive: (part: MultipartFile) => Promise<Received>,
): Promise<{ received: Received; name: string | null; mapping: ImportMapping | undefined }> {
  if (!request.isMultipart()) throw missingFile();
  let received: { value: Received; part: MultipartFile } | undefined;
  let mappingText: string | undefined;
  try {
    // `throwFileSizeLimit` is read by `parts()` as by `file()`, though its type leaves it out: the
    // file stops at the limit, marked truncated, and is refused below with its own message.
    const parts = request.parts({
      limits: { fileSize: limits.maxBytes, files: 1, fields: 1, parts: 2, fieldSize: maxMappingBytes },
      throwFileSizeLimit: false,
    } as Parameters<FastifyRequest['parts']>[0]);
    for await (const part of parts) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file' || received) throw missingFile();
        received = { value: await receive(part), part };
      } else if (part.fieldname === importMappingField && mappingText === undefined) {
        mappingText = typeof part.value === 'string' ? part.value : String(part.value);
      } else throw missingFile();
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw validationError(
      [{ path: 'file', message: validationCodes.FILE_IS_REQUIRED }],
      'Malformed multipart body',
    );
  }
  if (!received) throw missingFile();
  if (received.part.file.truncated)
    throw validationError(
      [
        {
          path: 'file',
          message: validationCodes.IMPORT_FILE_TOO_LARGE,
          params: { max: megabytes(limits.maxBytes) },
        },
      ],
      'The file is too large',
    );
  return {
    received: received.value,
    name: importedFileName(received.part.filename),
    mapping: mappingText === undefined ? undefined : parseMappingField(mappingText),
  };
}

/**
 * The import's file from a multipart body (a part `file`, and the member's column mapping as a
 * field `mapping`), received no further than the size limit, then read for its header and its
 * rows' count (`readSheetShape`, which checks the rows and an XLSX's unzipped size; a CSV's
 * cells are counted, not kept), with its name and format for the import's audit row, and its
 * bytes for the file store.
 */
export async function readImportUpload(
  request: FastifyRequest,
  limits: typeof importLimits,
): Promise<{
  file: ImportedFile;
  sheet: { headers: CellValue[]; rowsTotal: number };
  bytes: Buffer;
  mapping: ImportMapping | undefined;
}> {
  const { received: bytes, name, mapping } = await importParts(request, limits, (part) => part.toBuffer());
  const sheet = await readSheetShape(bytes);
  return { file: { name, format: sheetFormat(bytes) }, sheet, bytes, mapping };
}

/**
 * The header and first rows of an uploaded file, for the preview: the upload is written to a
 * temporary file as it arrives (no further than the size limit), and only its first rows are
 * read from there (`previewSheetFile`); the file is removed before the answer.
 */
export async function readImportPreview(
  request: FastifyRequest,
  limits: typeof importLimits,
  rows: number,
): Promise<{ file: ImportedFile; sheet: SheetRows }> {
  const folder = await mkdtemp(join(tmpdir(), 'dukkan-import-'));
  const path = join(folder, 'upload');
  try {
    const { name } = await importParts(request, limits, (part) =>
      pipeline(part.file, createWriteStream(path)),
    );
    const head = Buffer.alloc(4);
    const handle = await open(path, 'r');
    let read: number;
    try {
      ({ bytesRead: read } = await handle.read(head, 0, 4, 0));
    } finally {
      await handle.close();
    }
    if (read === 0) throw validationError([{ path: 'file', message: validationCodes.IMPORT_FILE_EMPTY }]);
    const format = sheetFormat(head.subarray(0, read));
    return { file: { name, format }, sheet: await previewSheetFile(path, format, rows) };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/**
 * A resource's empty file to fill: its columns' headers in the reader's language (with an import
 * expansion's after them: a product's variation types, SKU, barcode, price and cost); an XLSX has
 * a second sheet saying how rows find their records and how a value is cleared.
 */
export async function importTemplate(
  data: ResourceData,
  format: ExportFormat,
  context: ImportContext,
): Promise<Buffer> {
  const { locale } = context;
  const expansion = await data.importExpansion?.(context);
  const headers = [...importTemplateHeaders(data, locale), ...(expansion?.templateHeaders ?? [])].map(
    (header) => formatCell('text', header),
  );
  if (format === 'csv') return Buffer.from(`\uFEFF${csvLine(headers)}`, 'utf8');
  const workbook = new ExcelJS.Workbook();
  const rightToLeft = locale === 'ar';
  workbook
    .addWorksheet(data.storage.definition.key.slice(0, 31), { views: [{ rightToLeft }] })
    .addRow(headers.map((header) => header ?? undefined));
  const notes = importTemplateNotes[locale];
  const sheet = workbook.addWorksheet(notes.sheet, { views: [{ rightToLeft }] });
  for (const line of [...notes.lines, ...(expansion?.templateNotes ?? [])]) sheet.addRow([line]);
  sheet.getColumn(1).width = 120;
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
