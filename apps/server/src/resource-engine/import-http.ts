import {
  csvLine,
  type ExportFormat,
  formatCell,
  type importLimits,
  importTemplateNotes,
  validationCodes,
} from '@dukkan/contract';
import type { MultipartFile } from '@fastify/multipart';
import ExcelJS from 'exceljs';
import type { FastifyRequest } from 'fastify';
import { AppError, validationError } from '../errors.ts';
import type { ResourceData } from './data.ts';
import { type ImportContext, importTemplateHeaders } from './import.ts';
import {
  type ImportedFile,
  importedFileName,
  megabytes,
  readSheet,
  type SheetRows,
  sheetFormat,
} from './import-file.ts';

/**
 * The import's file from a multipart body (one part, `file`), received no further than the size
 * limit, then read into rows (`readSheet`, which checks the rows and an XLSX's unzipped size),
 * with its name and format for the import's audit row, and its bytes for the file store.
 */
export async function readImportUpload(
  request: FastifyRequest,
  limits: typeof importLimits,
): Promise<{ file: ImportedFile; sheet: SheetRows; bytes: Buffer }> {
  const missing = () => validationError([{ path: 'file', message: validationCodes.FILE_IS_REQUIRED }]);
  if (!request.isMultipart()) throw missing();
  let part: MultipartFile | undefined;
  let bytes: Buffer;
  try {
    part = await request.file({
      limits: { fileSize: limits.maxBytes, files: 1, fields: 0, parts: 1 },
      throwFileSizeLimit: false,
    });
    if (part?.fieldname !== 'file') throw missing();
    bytes = await part.toBuffer();
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw validationError(
      [{ path: 'file', message: validationCodes.FILE_IS_REQUIRED }],
      'Malformed multipart body',
    );
  }
  if (part.file.truncated)
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
  const sheet = await readSheet(bytes);
  return { file: { name: importedFileName(part.filename), format: sheetFormat(bytes) }, sheet, bytes };
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
