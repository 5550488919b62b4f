import { z } from 'zod';
import type { ApiErrorBody } from '../errors.ts';
import { lazySchema } from '../lazy-schema.ts';
import { validationCodes as codes } from '../validation-codes.ts';
import { exportFormats, workspaceIdField } from './list-query.ts';

/*
 * What an import of a list's file (`POST /api/{resource}/import`) takes and answers. The file is
 * the export's own format (`spreadsheet-cells.ts`): headers by name in English or Arabic, a text
 * that looked like a formula read back without its quote.
 */

/** The limits of one import, checked before the file's cells are read. */
export const importLimits = {
  /** The file's size. */
  maxBytes: 50 * 1024 * 1024,
  /** Rows under the header. */
  maxRows: 200_000,
  /** An XLSX's content once unzipped (a small zip can hold gigabytes of XML). */
  maxUnzippedBytes: 200 * 1024 * 1024,
} as const;

/**
 * A cell holding one of these clears the stored value (an empty cell keeps it): `[clear]`, or
 * `[مسح]` as an Arabic template writes it. A field that must have a value refuses to be cleared
 * with its own message.
 */
export const clearCellMarkers = ['[clear]', '[مسح]'] as const;

/** Whether a cell asks for its stored value to be cleared (`clearCellMarkers`, any case, trimmed). */
export function isClearMarker(cell: string | number | null): boolean {
  return (
    typeof cell === 'string' && (clearCellMarkers as readonly string[]).includes(cell.trim().toLowerCase())
  );
}

/** The formats an import reads, the export's (`?format=` of the template download). */
export const importFormats = exportFormats;

/** The query string of `POST {resource}/import`: the workspace, and whether to only try it. */
export const importQuerySchema = lazySchema(() =>
  z.strictObject({
    workspaceId: workspaceIdField,
    dryRun: z.enum(['true', 'false'], { error: codes.VALUE_IS_INVALID }).default('true'),
  }),
);

/** The query string of `GET {resource}/import-template`: the workspace, and the file's format. */
export const importTemplateQuerySchema = lazySchema(() =>
  z.strictObject({
    workspaceId: workspaceIdField,
    format: z.enum(importFormats, { error: codes.VALUE_IS_INVALID }),
  }),
);

/**
 * One error of an import: the file's row (1 is the header, the first record is 2), the column's
 * header as the file names it (absent for a whole row), and a validation code with its params.
 */
export interface ImportError {
  row: number;
  column?: string;
  code: string;
  params?: Record<string, string | number>;
}

/** What an import did, or — a dry run, or a file with errors — would do. */
export interface ImportReport {
  dryRun: boolean;
  /** True when the rows were written (a commit of a file without errors). */
  committed: boolean;
  rows: number;
  counts: { create: number; update: number; unchanged: number };
  /** Every error the commit meets, in row order; a commit with any writes nothing. */
  errors: ImportError[];
}

/**
 * Where an import's job is (decision 0042): waiting for a worker, running, or ended — done with
 * its report, failed with its error, or cancelled before its commit with nothing changed.
 */
export const importJobStatuses = ['queued', 'running', 'done', 'failed', 'cancelled'] as const;
export type ImportJobStatus = (typeof importJobStatuses)[number];

/** Whether a job has ended: its status changes no more. */
export const importJobEnded = (status: ImportJobStatus) =>
  status === 'done' || status === 'failed' || status === 'cancelled';

/**
 * An import as a job: `POST {resource}/import` answers 202 with it, `GET
 * {resource}/import-jobs/{id}` tells where it is. `rowsTotal` is the file's rows with a cell,
 * `rowsDone` those the run has written or checked (updated at least once a second while it
 * runs). A failed job's `error` is what the request would have answered (a permission the file
 * needs, say).
 */
export interface ImportJob {
  id: string;
  resource: string;
  dryRun: boolean;
  status: ImportJobStatus;
  fileName: string | null;
  format: 'csv' | 'xlsx';
  rowsTotal: number;
  rowsDone: number;
  report: ImportReport | null;
  error: Omit<ApiErrorBody, 'requestId'> | null;
  createdAt: string;
  updatedAt: string;
}

/**
 * What `GET {resource}/import-jobs/events` streams of a job (decision 0052), one server-sent
 * event `job` each: where the job is, pushed by the process that runs it as it moves — when it
 * starts, at most four times a second while it runs, and when it ends — without a query of the
 * database. The report and the error are read from `GET {resource}/import-jobs/{id}`.
 */
export interface ImportJobEvent {
  jobId: string;
  status: ImportJobStatus;
  rowsDone: number;
  rowsTotal: number;
}

/** The server-sent event's name of an `ImportJobEvent`. */
export const importJobEventName = 'job';

/** The query string of `GET {resource}/import-jobs`: the workspace (its latest jobs of the list). */
export const importJobsQuerySchema = lazySchema(() => z.strictObject({ workspaceId: workspaceIdField }));

/**
 * What a template's second sheet says about filling it in, in the reader's language: how rows
 * find their records, what an empty cell and the clearing marker do, and how cells are written.
 */
export const importTemplateNotes: Record<'en' | 'ar', { sheet: string; lines: readonly string[] }> = {
  en: {
    sheet: 'How to fill',
    lines: [
      'Fill the first sheet, one record per row, under its headers (in English or Arabic).',
      'A row whose code (or currency, for exchange rates) is already a record changes that record; any other row creates one. A row with an empty code gets the next code.',
      'An empty cell keeps the stored value. To clear a value, write [clear] in its cell.',
      'References are written by code (a brand’s code, a category’s code). Lists are separated by commas: +201001234567, +201009876543.',
      'Working hours: monday 09:00-17:00; friday closed. Dates: 2026-03-01. Active or inactive: active, inactive.',
      'Import the file with a dry run first: it lists every row and column to fix, and changes nothing.',
    ],
  },
  ar: {
    sheet: 'طريقة التعبئة',
    lines: [
      'املأ الورقة الأولى، سجلًا واحدًا في كل صف، تحت عناوينها (بالعربية أو بالإنجليزية).',
      'الصف الذي يطابق رمزه (أو عملته في أسعار الصرف) سجلًا موجودًا يعدّل ذلك السجل، وأي صف آخر ينشئ سجلًا جديدًا. الصف الذي رمزه فارغ يأخذ الرمز التالي.',
      'الخلية الفارغة تُبقي القيمة المحفوظة. لمسح قيمة اكتب [مسح] في خليتها.',
      'تُكتب الإشارات إلى السجلات الأخرى برموزها (رمز العلامة التجارية، رمز الفئة). تُفصل عناصر القوائم بفواصل: ‎+201001234567, +201009876543.',
      'ساعات العمل: monday 09:00-17:00; friday closed. التواريخ: 2026-03-01. الحالة: active أو inactive.',
      'استورد الملف بتجربة أولًا: تعرض كل صف وعمود يحتاج إلى تصحيح، ولا تغيّر شيئًا.',
    ],
  },
};

/*
 * The preview and the column mapping of an import (issue 37, decision 0046): `POST
 * {resource}/import/preview` reads a file's header and first rows and proposes, for each header,
 * the column it fills — the one the workspace last chose for that header in the list, else by the
 * same matching by name as an import without a mapping — which the member may correct. The
 * mapping then goes with the dry run and the commit as the multipart's `mapping` field (JSON,
 * before the file), the import reads the columns by it, and the workspace remembers them.
 */

/** How many rows under the header a preview shows. */
export const importPreviewRows = 20;

/** The multipart field of `POST {resource}/import` that holds the mapping (JSON, sent before the file). */
export const importMappingField = 'mapping';

/**
 * A file's header (as the file writes it, trimmed) → the key of the column it fills, or null:
 * not imported. A column key is a field (`code`), a localized text's language (`name.ar`) or an
 * import expansion's column (`expansion.sku`, `expansion.type:<id>` — a product's variation
 * type). A header the mapping does not name is matched by name; a name the file does not have is
 * passed over. A plain JSON shape, remembered per workspace and list as it is (`import_mappings`).
 */
export type ImportMapping = Record<string, string | null>;

/** What the server refuses a mapping with (`issues[].message`, path `mapping`). */
export const importMappingCodes = {
  /** The `mapping` field is no JSON object of texts (or null) by header. */
  IMPORT_MAPPING_INVALID: 'IMPORT_MAPPING_INVALID',
  /** A header mapped to a column the list does not have; params `{ header }`. */
  IMPORT_MAPPING_UNKNOWN_COLUMN: 'IMPORT_MAPPING_UNKNOWN_COLUMN',
  /** Two headers mapped to one column; params `{ column }` (its name). */
  IMPORT_MAPPING_COLUMN_TWICE: 'IMPORT_MAPPING_COLUMN_TWICE',
  /** A column every row needs is mapped from no header; params `{ column }` (its name). */
  IMPORT_MAPPING_COLUMN_REQUIRED: 'IMPORT_MAPPING_COLUMN_REQUIRED',
} as const;

/** The most headers a mapping names, and the longest header. */
export const importMappingLimits = { headers: 500, headerLength: 255 } as const;

/** A mapping as it is sent: a JSON object of header → column key or null, within its limits. */
export const importMappingSchema = lazySchema(() =>
  z
    .record(
      z.string({ error: importMappingCodes.IMPORT_MAPPING_INVALID }).max(importMappingLimits.headerLength, {
        error: importMappingCodes.IMPORT_MAPPING_INVALID,
      }),
      z
        .string({ error: importMappingCodes.IMPORT_MAPPING_INVALID })
        .max(importMappingLimits.headerLength, { error: importMappingCodes.IMPORT_MAPPING_INVALID })
        .nullable(),
      { error: importMappingCodes.IMPORT_MAPPING_INVALID },
    )
    .refine((mapping) => Object.keys(mapping).length <= importMappingLimits.headers, {
      error: importMappingCodes.IMPORT_MAPPING_INVALID,
    }),
);

/** A column a header may be mapped to: its key, its header in the reader's language, whether every file needs it. */
export interface ImportTarget {
  key: string;
  label: string;
  /** Mapped from no header, the import is refused (`IMPORT_MAPPING_COLUMN_REQUIRED`). */
  required: boolean;
}

/** What `POST {resource}/import/preview` answers: the file's headers, its first rows, and the proposed mapping. */
export interface ImportPreview {
  fileName: string | null;
  format: 'csv' | 'xlsx';
  /** The header row's cells, trimmed (an empty header is a column never imported). */
  headers: string[];
  /** The first rows under the header (`importPreviewRows` at most), as many cells as headers. */
  rows: (string | number | null)[][];
  /**
   * Each non-empty header → the column proposed for it, or null: the one the workspace last chose
   * for that header in this list (decision 0046), else the one its name matches.
   */
  mapping: ImportMapping;
  /** The headers whose proposed column is a remembered choice that differs from the match by name. */
  remembered: string[];
  /** The columns a header may be mapped to, in the template's order. */
  targets: ImportTarget[];
}
