import { randomUUID } from 'node:crypto';
import { PassThrough, type Writable } from 'node:stream';
import {
  type CellValue,
  csvLine,
  type ExportFormat,
  formatCell,
  type ResourceDefinition,
} from '@dukkan/contract';
import { and, eq, inArray } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { recordAudit } from '../db/audit-log.ts';
import type { Database } from '../db/client.ts';
import { type AuditChanges, workspaces } from '../db/schema/index.ts';
import type { ResourceData } from './data.ts';
import type { ExportContext } from './export-fields.ts';
import { fieldHeader, localizedHeader } from './export-texts.ts';
import type { ReaderLocale } from './storage.ts';

/** How many records an export reads at a time. */
export const exportChunkSize = 1000;

const localizedValue = (value: unknown, language: ReaderLocale) =>
  Array.isArray(value)
    ? ((value as { locale: string; value: string }[]).find((entry) => entry.locale === language)?.value ??
      null)
    : null;

/** A value shown as text when it is not one (a member's role `{ title }`). */
const asText = (value: unknown): string | null => {
  if (value === null || value === undefined) return null;
  if (typeof value === 'object' && 'title' in value) return String((value as { title: unknown }).title);
  return String(value);
};

/** Waits until the stream has room again, so rows are read no faster than the client takes them. */
async function drained(stream: Writable): Promise<void> {
  if (!stream.writableNeedDrain || stream.destroyed) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });
}

/** Writes rows as CSV or XLSX to a stream, started before the first row. */
interface SheetWriter {
  row(cells: readonly CellValue[]): void;
  /** After a chunk of rows: waits while the reader is behind. */
  flush(): Promise<void>;
  finish(): Promise<void>;
}

function csvWriter(out: PassThrough): SheetWriter {
  // A byte-order mark: Excel reads the file as UTF-8 (Arabic included) only with one.
  out.write('\uFEFF');
  return {
    row: (cells) => out.write(csvLine(cells)),
    flush: () => drained(out),
    async finish() {
      out.end();
    },
  };
}

function xlsxWriter(out: PassThrough, sheetName: string, locale: ReaderLocale): SheetWriter {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useStyles: false,
    useSharedStrings: false,
  });
  const sheet = workbook.addWorksheet(sheetName, { views: [{ rightToLeft: locale === 'ar' }] });
  return {
    row: (cells) => sheet.addRow(cells.map((cell) => cell ?? undefined)).commit(),
    flush: () => drained(out),
    async finish() {
      sheet.commit();
      await workbook.commit();
    },
  };
}

/** The records' codes of a referenced resource, by id, for a chunk's references. */
async function codesById(
  db: Database,
  data: ResourceData,
  workspaceId: string,
  ids: Set<string>,
): Promise<Map<string, string>> {
  if (ids.size === 0) return new Map();
  const { table, columns } = data.storage;
  const code = columns.code;
  if (!code) return new Map();
  const rows = await db
    .select({ id: table.id, code })
    .from(table)
    .where(and(eq(table.workspaceId, workspaceId), inArray(table.id, [...ids])));
  return new Map(rows.map((row) => [row.id as string, row.code as string]));
}

export interface ExportRequest {
  db: Database;
  data: ResourceData;
  /** The data operations of a referenced resource, by key (to write its codes). */
  dataOf(key: string): ResourceData | undefined;
  workspaceId: string;
  query: Parameters<ResourceData['list']>[2];
  locale: ReaderLocale;
  format: ExportFormat;
}

/**
 * What an export's audit row holds (decision 0037), each as `[null, value]` like a create's
 * fields: the file's format and data rows, and the list's search and filters as the query gave
 * them (the ones set). `complete: false` when the file was cut short (the reader left, or a read
 * failed), its rows then those sent before.
 */
export function exportAuditChanges(
  definition: ResourceDefinition,
  query: Record<string, unknown>,
  format: ExportFormat,
  rows: number,
  complete: boolean,
): AuditChanges {
  const filterFields = [
    ...(definition.hasStatus ? ['status'] : []),
    ...definition.filters.map((filter) => filter.field),
  ];
  const filters = Object.fromEntries(
    filterFields.filter((field) => query[field] !== undefined).map((field) => [field, query[field]]),
  );
  return {
    format: [null, format],
    rows: [null, rows],
    ...(query.search ? { search: [null, query.search] } : {}),
    ...(Object.keys(filters).length > 0 ? { filters: [null, filters] } : {}),
    ...(complete ? {} : { complete: [null, false] }),
  };
}

/**
 * Starts writing a list's export to the returned stream: the header row, then the records the
 * list's query matches, a chunk of `exportChunkSize` at a time, each written before the next is
 * read and no faster than the reader takes them. A failure midway ends the stream with the error.
 * The export is on the workspace's audit log as the request's actor (`export`, one row): recorded
 * after the last row and before the file's end, so a file received whole has its row, and a
 * failure to record it cuts the file short; a file cut short is recorded with what was sent.
 */
export async function exportList(request: ExportRequest): Promise<PassThrough> {
  const { db, data, workspaceId, locale } = request;
  const { definition } = data.storage;
  const [workspace] = await db
    .select({ baseCurrency: workspaces.baseCurrency })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId));
  const context: ExportContext = { db, workspaceId, locale, baseCurrency: workspace?.baseCurrency ?? 'EGP' };
  const fields = data.exportFields;
  const expansion = await data.exportExpansion?.(context);

  const headers: string[] = fields.flatMap((field) =>
    field.kind === 'localizedText'
      ? (['en', 'ar'] as const).map((language) =>
          localizedHeader(locale, definition.key, field.field, language),
        )
      : [fieldHeader(locale, definition.key, field.field)],
  );
  headers.push(...(expansion?.columns.map((column) => column.header) ?? []));

  const out = new PassThrough();
  const writer =
    request.format === 'csv' ? csvWriter(out) : xlsxWriter(out, definition.key.slice(0, 31), locale);
  writer.row(headers.map((header) => formatCell('text', header)));

  // The first chunk is read before the answer starts: a query the database refuses is answered
  // as the list's error would be, not as a file cut short.
  const chunks = data.listAll(db, workspaceId, request.query, locale, exportChunkSize);
  const first = await chunks.next();

  let rowsWritten = 0;
  let recorded = false;
  const record = async (complete: boolean) => {
    if (recorded) return;
    recorded = true;
    const query = request.query as Record<string, unknown>;
    await recordAudit(db, [
      {
        workspaceId,
        action: 'export',
        resource: definition.key,
        // An export is no stored record: its row has an id of its own, named by no other row.
        recordId: randomUUID(),
        changes: exportAuditChanges(definition, query, request.format, rowsWritten, complete),
      },
    ]);
  };

  const write = async () => {
    for (let next = first; !next.done; next = await chunks.next()) {
      const records = next.value;
      if (out.destroyed) break;
      const codes = new Map<string, Map<string, string>>();
      for (const field of fields) {
        if (!field.reference || codes.has(field.reference)) continue;
        const ids = new Set<string>();
        for (const other of fields.filter((candidate) => candidate.reference === field.reference)) {
          for (const record of records) {
            const value = record[other.field];
            for (const id of Array.isArray(value) ? value : [value]) if (typeof id === 'string') ids.add(id);
          }
        }
        const referenced = request.dataOf(field.reference);
        codes.set(
          field.reference,
          referenced ? await codesById(db, referenced, workspaceId, ids) : new Map(),
        );
      }
      const expanded = await expansion?.rows(records);
      records.forEach((record, index) => {
        const cells = fields.flatMap((field): CellValue[] => {
          const value = record[field.field];
          switch (field.kind) {
            case 'localizedText':
              return (['en', 'ar'] as const).map((language) =>
                formatCell('text', localizedValue(value, language)),
              );
            case 'reference':
              return [
                formatCell(
                  'text',
                  typeof value === 'string' ? (codes.get(field.reference!)?.get(value) ?? null) : null,
                ),
              ];
            case 'references':
              return [
                formatCell(
                  'list',
                  ((value as string[] | null) ?? []).map((id) => codes.get(field.reference!)?.get(id) ?? id),
                ),
              ];
            case 'money': {
              const currency =
                (field.currencyField && (record[field.currencyField] as string)) || context.baseCurrency;
              return [formatCell('money', value, { currency })];
            }
            case 'text':
              return [formatCell('text', asText(value))];
            case 'labelledPhones':
              return [formatCell('labelledPhones', Array.isArray(value) ? value : [])];
            case 'list':
              return [
                formatCell('list', Array.isArray(value) ? value.map((item) => asText(item) ?? '') : []),
              ];
            default:
              return [formatCell(field.kind, value)];
          }
        });
        const extra = expanded?.[index];
        if (!extra || extra.length === 0) {
          writer.row(cells);
          rowsWritten += 1;
        } else {
          for (const cellsOfRow of extra) writer.row([...cells, ...cellsOfRow]);
          rowsWritten += extra.length;
        }
      });
      await writer.flush();
    }
    const complete = !out.destroyed;
    await record(complete);
    if (complete) await writer.finish();
  };
  write().catch(async (error: unknown) => {
    out.destroy(error instanceof Error ? error : new Error(String(error)));
    // What was sent before a failed read is on record too; a failed record has nothing more to try.
    await record(false).catch(() => undefined);
  });
  return out;
}

/** The attachment's file name: the resource and the day, e.g. `customers-2026-03-01.xlsx`. */
export function exportFileName(
  definition: ResourceDefinition,
  format: ExportFormat,
  now = new Date(),
): string {
  return `${definition.path.replace(/\//g, '-')}-${now.toISOString().slice(0, 10)}.${format}`;
}

export const exportContentTypes: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};
