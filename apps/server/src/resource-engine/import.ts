import { randomUUID } from 'node:crypto';
import {
  CellFormatError,
  type CellKind,
  type CellValue,
  type ImportError,
  type ImportMapping,
  type ImportReport,
  type ImportTarget,
  isClearMarker,
  isImportableResource,
  parseCell,
  type ResourceDefinition,
  recordStatusField,
  satisfies,
  tagFor,
  validationCodes,
} from '@dukkan/contract';
import { and, eq, inArray } from 'drizzle-orm';
import type { z } from 'zod';
import { recordAudit, withoutAuditRows } from '../db/audit-log.ts';
import type { Database } from '../db/client.ts';
import { type AuditChanges, workspaces } from '../db/schema/index.ts';
import { writeTransaction } from '../db/write-transaction.ts';
import { AppError, issuesFromZod, refusedValueError, uniqueViolationTarget } from '../errors.ts';
import type { ResourceData } from './data.ts';
import type { ExportField } from './export-fields.ts';
import { fieldHeader, localizedHeader } from './export-texts.ts';
import type { ExpansionInput, ImportContext, ImportExpansion } from './import-expansion.ts';
import type { ImportedFile, SheetRowSource, SheetRows } from './import-file.ts';
import {
  expansionIdOf,
  expansionTargetKey,
  fieldTargetKey,
  type MappingRules,
  mappedColumn,
  mappingIssues,
} from './import-mapping.ts';
import { canonical, groupImportRows, type ParsedRow } from './import-rows.ts';
import { namedFieldsOnly } from './queries.ts';
import type { ReaderLocale, ResourceCaller } from './storage.ts';

/*
 * The import of a list's file into its resource, as one unit of work a request runs today and a
 * job runner can run later (decision 0038): rows in, a report out, every write through the
 * resource's data operations (their checks, hooks and audit rows) in one transaction.
 *
 * The dry run and the commit are the same run: each row is written in a savepoint of one
 * transaction, a refused row's savepoint undone and its refusal reported, and at the end the
 * transaction is rolled back — after a dry run, or a commit that met any error — or committed.
 * So a dry run reports exactly what the commit would meet, and a failure at the last row leaves
 * nothing changed. A kept commit is on the workspace's audit log as one `import` row of the list's
 * resource, written in the same transaction: the file, its rows and the counts. A resource whose
 * records are several rows each (a product's variants) reads them through its `ImportExpansion`.
 */

/** How many keys and codes a look-up asks for at a time. */
const lookupChunk = 1000;
/**
 * Rows created by one call of the engine's bulk create (a product's variants count each): its
 * checks, hooks and audit rows run as for any bulk, and a refused chunk is written again a row at
 * a time (bench/import.ts).
 */
const createChunkRows = 500;
/**
 * Rows read, looked up and written at a time (decision 0049): two of the bulk create's chunks,
 * one look-up of their keys.
 */
const importWindowRows = 1000;

/** A column of an import: the field it fills, how its cells read, and one language of a localized text. */
export interface ImportColumn {
  field: string;
  kind: ExportField['kind'];
  reference?: string;
  currencyField?: string;
  language?: ReaderLocale;
  /** Whether the import writes it (a computed column such as a count is read and ignored). */
  written: boolean;
}

/** A column's headers in both languages, as the export writes them (lower-cased, trimmed). */
function headersOf(definition: ResourceDefinition, field: ExportField, language?: ReaderLocale): string[] {
  return (['en', 'ar'] as const).map((reader) =>
    language
      ? localizedHeader(reader, definition.key, field.field, language)
      : fieldHeader(reader, definition.key, field.field),
  );
}

const normalizeHeader = (header: CellValue) =>
  header === null ? '' : String(header).trim().replace(/^'/, '').toLowerCase();

/** The fields a resource's import reads, by the headers that name them in either language. */
export function importColumns(data: ResourceData): Map<string, ImportColumn> {
  const { definition } = data.storage;
  const inputFields = new Set(Object.keys(definition.schemas.create.shape));
  if (definition.hasStatus) inputFields.add('status');
  const byHeader = new Map<string, ImportColumn>();
  for (const field of data.exportFields) {
    const written = inputFields.has(field.field);
    const languages = field.kind === 'localizedText' ? (['en', 'ar'] as const) : [undefined];
    for (const language of languages) {
      const column: ImportColumn = {
        field: field.field,
        kind: field.kind,
        written,
        ...(field.reference ? { reference: field.reference } : {}),
        ...(field.currencyField ? { currencyField: field.currencyField } : {}),
        ...(language ? { language } : {}),
      };
      for (const header of headersOf(definition, field, language))
        byHeader.set(normalizeHeader(header), column);
    }
  }
  return byHeader;
}

/** The header row of a resource's template (and export) in a language: one cell per column. */
export function importTemplateHeaders(data: ResourceData, locale: ReaderLocale): string[] {
  const { definition } = data.storage;
  const inputFields = new Set(Object.keys(definition.schemas.create.shape));
  if (definition.hasStatus) inputFields.add('status');
  return data.exportFields
    .filter((field) => inputFields.has(field.field))
    .flatMap((field) =>
      field.kind === 'localizedText'
        ? (['en', 'ar'] as const).map((language) =>
            localizedHeader(locale, definition.key, field.field, language),
          )
        : [fieldHeader(locale, definition.key, field.field)],
    );
}

/**
 * What a resource's column mapping is checked against (`import-mapping.ts`): the columns a header
 * may fill — each written field (a localized text once per language) then the expansion's, named
 * as the template names them in the reader's language — the match by name, the key column, and
 * the fields a create needs.
 */
export function importMappingRules(
  data: ResourceData,
  expansion: ImportExpansion | undefined,
  locale: ReaderLocale,
): MappingRules {
  const { definition } = data.storage;
  const byHeader = importColumns(data);
  const shape = definition.schemas.create.shape as Record<string, z.ZodType | undefined>;
  const targets: ImportTarget[] = [];
  const required: MappingRules['required'][number][] = [];
  const keyField = data.storage.uniqueFields[0]!;
  for (const field of data.exportFields) {
    const column = [...byHeader.values()].find((candidate) => candidate.field === field.field);
    if (!column?.written) continue;
    const needed =
      field.field !== keyField && !!shape[field.field] && !shape[field.field]!.safeParse(undefined).success;
    const languages = field.kind === 'localizedText' ? (['en', 'ar'] as const) : [undefined];
    const keys = languages.map((language) => fieldTargetKey(field.field, language));
    for (const [index, language] of languages.entries())
      targets.push({
        key: keys[index]!,
        label: language
          ? localizedHeader(locale, definition.key, field.field, language)
          : fieldHeader(locale, definition.key, field.field),
        required: needed && !language,
      });
    if (needed) required.push({ label: fieldHeader(locale, definition.key, field.field), keys });
  }
  for (const column of expansion?.targets ?? [])
    targets.push({ key: expansionTargetKey(column.id), label: column.header, required: false });
  return {
    targets,
    keyTarget: fieldTargetKey(keyField),
    required,
    match(header) {
      const column = byHeader.get(normalizeHeader(header));
      if (column) return column.written ? fieldTargetKey(column.field, column.language) : null;
      const id = expansion?.column(header);
      return id === undefined ? undefined : expansionTargetKey(id);
    },
  };
}

/**
 * Whether a resource takes imports: its declaration allows them (`isImportableResource`), the
 * engine creates and updates its records, and a unique field (a code) finds them.
 */
export function isImportable(data: ResourceData): boolean {
  return (
    isImportableResource(data.storage.definition) &&
    data.engineVerbs.includes('create') &&
    data.engineVerbs.includes('update') &&
    data.storage.uniqueFields.length > 0
  );
}

/** The cell kind a column's cells are read with. */
function cellKindOf(column: ImportColumn): CellKind {
  switch (column.kind) {
    case 'localizedText':
    case 'reference':
      return 'text';
    case 'references':
      return 'list';
    default:
      return column.kind;
  }
}

/** An import's context in a workspace: its base currency read, the amounts' currency. */
export async function importContext(
  db: Database,
  workspaceId: string,
  locale: ReaderLocale,
): Promise<ImportContext> {
  const [workspace] = await db
    .select({ baseCurrency: workspaces.baseCurrency })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId));
  return { db, workspaceId, locale, baseCurrency: workspace?.baseCurrency ?? 'EGP' };
}

export interface ImportRequest {
  db: Database;
  data: ResourceData;
  dataOf(key: string): ResourceData | undefined;
  caller: ResourceCaller & { locale: ReaderLocale };
  /** The file's name and format, for the import's audit row. */
  file: ImportedFile;
  /** The file's rows, read once in order (`readSheetRows`). */
  sheet: SheetRowSource;
  dryRun: boolean;
  /**
   * The member's column mapping (decision 0046), checked by the request: a header it names fills
   * the column it chooses (or none); any other header is matched by name.
   */
  mapping?: ImportMapping;
  /** What a job adds around the run (decision 0042); a request's own run has none. */
  job?: ImportJobHooks;
}

/**
 * A job's hooks into a run: its progress, its cancellation and its end, each called where the
 * run knows it. None of them may wait for the database outside the run's transaction (the
 * embedded database runs one transaction at a time).
 */
export interface ImportJobHooks {
  /**
   * After each record's rows, with the file's rows written or checked so far. A promise it
   * returns is awaited before the run goes on: the job lets the event loop turn there (decision
   * 0052), which the embedded database's queries, run on it back to back, otherwise never do.
   */
  progress(rowsDone: number): void | Promise<void>;
  /** Asked after each record: true stops the run, its transaction rolled back (`ImportCancelled`). */
  cancelled(): boolean;
  /** In a kept commit's transaction, after its last write: a throw undoes every row. */
  beforeCommit(tx: Database, report: ImportReport): Promise<void>;
}

/** Thrown by a run its job's cancellation stopped: nothing was changed. */
export class ImportCancelled extends Error {
  constructor() {
    super('The import was cancelled');
  }
}

/** Whether a sheet's row holds a cell: the rows an import reads (and a job counts). */
const holdsCell = (cells: CellValue[]) => cells.some((cell) => cell !== null && cell !== '');

/** A sheet's headers as an import names them: each cell's text, trimmed (an empty one is no column). */
export function sheetHeaders(sheet: Pick<SheetRows, 'headers'>): string[] {
  return sheet.headers.map((header) => (header === null ? '' : String(header).trim()));
}

/**
 * Refuses a member's mapping for a file's headers (`mappingIssues`), as a validation error the
 * request answers before anything is stored or queued; returns the rules it was checked by.
 */
export async function checkImportMapping(
  data: ResourceData,
  context: ImportContext,
  headers: readonly string[],
  mapping: ImportMapping,
): Promise<MappingRules> {
  const rules = importMappingRules(data, await data.importExpansion?.(context), context.locale);
  const issues = mappingIssues(headers, mapping, rules);
  if (issues.length > 0) throw new AppError('VALIDATION', 'The column mapping is refused', { issues });
  return rules;
}

/**
 * What an import's audit row holds, each as `[null, value]` like a create's fields: the file's
 * name (when it had one) and format, the rows read, and how many records were created, updated
 * and left unchanged.
 */
export function importAuditChanges(file: ImportedFile, report: ImportReport): AuditChanges {
  return {
    ...(file.name ? { fileName: [null, file.name] } : {}),
    format: [null, file.format],
    rows: [null, report.rows],
    created: [null, report.counts.create],
    updated: [null, report.counts.update],
    unchanged: [null, report.counts.unchanged],
  };
}

/** Sentinel thrown to roll the import's transaction back after a dry run or a commit with errors. */
class RollBack extends Error {}

/** The issues of a refused write (an `AppError`, or the database's own refusal) as the row's errors. */
function rowErrors(
  error: unknown,
  row: number,
  headerOf: (field: string) => string | undefined,
  locate?: ExpansionInput['locate'],
): ImportError[] {
  const target = uniqueViolationTarget(error);
  if (target) {
    const field = target.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
    const column = headerOf(field);
    return [{ row, ...(column ? { column } : {}), code: validationCodes.CODE_MUST_BE_UNIQUE }];
  }
  const appError = error instanceof AppError ? error : refusedValueError(error);
  if (appError?.code !== 'VALIDATION') throw error;
  const issues = appError.details.issues ?? [{ path: '', message: appError.message }];
  return issues.map((issue) => {
    const located = locate?.(issue.path);
    const column = located ? located.column : headerOf(issue.path.split('.')[0] ?? '');
    return {
      row: located?.row ?? row,
      ...(column ? { column } : {}),
      code: issue.message,
      ...(issue.params ? { params: issue.params as Record<string, string | number> } : {}),
    };
  });
}

/** Whether an error is a row's own refusal, which `rowErrors` names: a check of the engine or the database's. */
function isRowRefusal(error: unknown): boolean {
  if (uniqueViolationTarget(error)) return true;
  const appError = error instanceof AppError ? error : refusedValueError(error);
  return appError?.code === 'VALIDATION';
}

/** The first rows of a list, and how many more: `2, 3, 9 (+12)`. */
function rowList(rows: number[]): string {
  const shown = rows.slice(0, 20).join(', ');
  return rows.length > 20 ? `${shown} (+${rows.length - 20})` : shown;
}

/**
 * Runs an import: reads every row, finds each row's record by its key (the resource's unique
 * field: a code, a currency), refuses a file needing a permission the caller lacks (naming the
 * rows), then writes each row that changes something through the resource's own create or
 * update, in one transaction kept only by a commit without errors — with its `import` audit row.
 *
 * A dry run's transaction is rolled back whatever it wrote, so it writes no audit rows only to
 * undo them (decision 0054); it still meets every error a commit would, none of which an audit
 * row raises.
 */
export function runImport(request: ImportRequest): Promise<ImportReport> {
  return request.dryRun ? withoutAuditRows(() => importRows(request)) : importRows(request);
}

async function importRows(request: ImportRequest): Promise<ImportReport> {
  const { db, data, caller, sheet, dryRun } = request;
  const { definition, table, columns } = data.storage;
  const keyField = data.storage.uniqueFields[0]!;
  const byHeader = importColumns(data);
  const context = await importContext(db, caller.workspaceId, caller.locale);
  const { baseCurrency } = context;
  const expansion = await data.importExpansion?.(context);
  const report: ImportReport = {
    dryRun,
    committed: false,
    rows: 0,
    counts: { create: 0, update: 0, unchanged: 0 },
    errors: [],
  };

  /** The written columns by their mapping key. */
  const columnsByKey = new Map(
    [...byHeader.values()]
      .filter((column) => column.written)
      .map((column) => [fieldTargetKey(column.field, column.language), column]),
  );

  // The header row: every named column must be one of the resource's, once.
  const fileColumns: (ImportColumn | undefined)[] = [];
  /** The expansion's column ids, by the file's column. */
  const expansionColumns: (string | undefined)[] = [];
  const fileHeaders: string[] = [];
  const seen = new Set<string>();
  sheet.headers.forEach((header, index) => {
    const name = header === null ? '' : String(header).trim();
    fileHeaders[index] = name;
    if (name === '') return;
    const refuse = (
      code: typeof validationCodes.IMPORT_COLUMN_UNKNOWN | typeof validationCodes.IMPORT_COLUMN_REPEATED,
    ) => report.errors.push({ row: 1, column: name, code, params: { header: name } });
    let column: ImportColumn | undefined;
    let expanded: string | undefined;
    const mapped = mappedColumn(name, request.mapping, () => undefined);
    if (mapped === null) return;
    if (mapped !== undefined) {
      // The member's choice: a field's column (one language of a localized text), or the expansion's.
      expanded = expansionIdOf(mapped);
      if (expanded !== undefined) {
        if (expansion?.targets.some((target) => target.id === expanded)) expansion.useColumn(expanded, name);
        else expanded = undefined;
      } else column = columnsByKey.get(mapped);
    } else {
      column = byHeader.get(normalizeHeader(header));
      expanded = column ? undefined : expansion?.column(name);
    }
    // A column is the resource's field (in one language) or the expansion's, each once.
    const identity =
      expanded !== undefined ? `expansion.${expanded}` : column && `${column.field}.${column.language ?? ''}`;
    if (identity === undefined) {
      refuse(validationCodes.IMPORT_COLUMN_UNKNOWN);
      return;
    }
    if (seen.has(identity)) {
      refuse(validationCodes.IMPORT_COLUMN_REPEATED);
      return;
    }
    seen.add(identity);
    if (expanded !== undefined) expansionColumns[index] = expanded;
    else fileColumns[index] = column;
  });
  if (report.errors.length > 0) {
    for (const cells of sheet.rows) if (holdsCell(cells)) report.rows += 1;
    return report;
  }

  /** The file's header of a field (the reader's header when the file lacks the column). */
  const headerOf = (field: string): string | undefined => {
    const index = fileColumns.findIndex((column) => column?.field === field);
    if (index >= 0) return fileHeaders[index];
    if (!(field in definition.schemas.create.shape) && field !== 'status') return undefined;
    return fieldHeader(caller.locale, definition.key, field);
  };

  /** A row's cells, read by their column's kind; a cell no kind reads is the row's error. */
  const readRow = (cells: CellValue[], row: number): ParsedRow => {
    const result: ParsedRow = {
      row,
      key: null,
      values: new Map(),
      localized: new Map(),
      errors: [],
      expansion: [],
    };
    if (expansion) {
      const expansionCells = new Map<string, CellValue>();
      expansionColumns.forEach((id, index) => {
        const cell = cells[index] ?? null;
        if (id !== undefined && cell !== null && cell !== '') expansionCells.set(id, cell);
      });
      result.expansion.push({ row, cells: expansionCells });
    }
    fileColumns.forEach((column, index) => {
      if (!column) return;
      const cell = cells[index] ?? null;
      if (cell === null || cell === '') return;
      const clear = isClearMarker(cell);
      if (column.field === keyField && !column.language) {
        result.key = clear ? null : (parseCell('text', cell) as string | null)?.trim() || null;
      }
      if (!column.written) return;
      if (column.language) {
        const texts = result.localized.get(column.field) ?? new Map<ReaderLocale, string | null>();
        texts.set(column.language, clear ? null : (parseCell('text', cell) as string | null));
        result.localized.set(column.field, texts);
        return;
      }
      if (clear) {
        result.values.set(column.field, null);
        return;
      }
      try {
        const currency =
          (column.currencyField &&
            (cells[fileColumns.findIndex((c) => c?.field === column.currencyField)] as string)) ||
          baseCurrency;
        result.values.set(column.field, parseCell(cellKindOf(column), cell, { currency }));
      } catch (error) {
        if (!(error instanceof CellFormatError)) throw error;
        result.errors.push({ row, column: fileHeaders[index], code: validationCodes.IMPORT_CELL_INVALID });
      }
    });
    return result;
  };

  /** A field's column in the file (a localized text's aside): what a row's value of it is read as. */
  const columnOfField = new Map<string, ImportColumn>();
  for (const column of fileColumns)
    if (column && !column.language && !columnOfField.has(column.field))
      columnOfField.set(column.field, column);
  const keyColumn = columns[keyField]!;
  const referenceColumns = [
    ...new Set([...fileColumns].filter((c): c is ImportColumn => !!c?.reference && c.written)),
  ];
  const createsStatus = 'status' in definition.schemas.create.shape;
  // A create's input is checked as a create, with the status a row may give beside it.
  const createSchema = (
    definition.hasStatus && !createsStatus
      ? definition.schemas.create.extend({ status: recordStatusField.optional() })
      : definition.schemas.create
  ).strict() as z.ZodType;
  const updateSchema = (
    definition.hasStatus
      ? definition.schemas.update.extend({ status: recordStatusField.optional() })
      : definition.schemas.update
  ).strict() as z.ZodType;
  const canCreate = satisfies(caller.grant, { and: [tagFor(definition, 'create')] });
  const canUpdate = satisfies(caller.grant, { and: [tagFor(definition, 'update')] });
  // A row naming a record of this resource by code may name one created by an earlier row.
  const selfReferences = [...new Set(fileColumns)].filter(
    (column): column is ImportColumn => !!column?.reference && column.reference === definition.key,
  );
  const namesCode = (row: ParsedRow, codes: ReadonlySet<string>) =>
    selfReferences.some((column) => {
      const value = row.values.get(column.field);
      return (Array.isArray(value) ? value : [value]).some(
        (code) => typeof code === 'string' && codes.has(code),
      );
    });

  /*
   * The file is read, looked up and written a window of rows at a time (decision 0049): only a
   * window's parsed rows, stored records and references are held, and the progress moves while
   * the rows are read and looked up, not only while they are written. A resource reading several
   * rows per record (a product's variants, grouped by key anywhere in the file) reads its file
   * as one window. What must span the file is kept small: the first row of each key (repeated
   * keys), and the rows a missing permission refuses.
   */
  const windowRows = expansion ? Number.POSITIVE_INFINITY : importWindowRows;
  /** The first row of each key read so far (without an expansion): a later one repeats it. */
  const firstRowOfKey = new Map<string, number>();
  /**
   * The keys whose record was stored before the import: a repeated row of one is read against it
   * again, as its first row was (an update, never a create), and a repeated row of a key the file
   * creates against none. Without edit no update is ever written, so a record read again for the
   * permission's check is the one stored before the import.
   */
  const storedKeys = new Set<string>();
  /**
   * The codes the import's rows without one were given: a later window's look-up finds their
   * records, which a row typing that code does not update (it is created, and refused as a
   * repeated code, as when every key was looked up before any write).
   */
  const generatedKeys = new Set<string>();
  // The window's stored records by key, each record's expansion input, and references by code.
  let existing = new Map<string, Record<string, unknown>>();
  let expanded = new Map<ParsedRow, ExpansionInput>();
  let referenceIds = new Map<string, Map<string, string>>();
  const refusedCreates: number[] = [];
  const refusedUpdates: number[] = [];

  /** Reads a window's rows and what they need: their records, expansions, references and permissions. */
  async function readWindow(tx: Database, window: readonly { cells: CellValue[]; row: number }[]) {
    const rowsRead = window.map(({ cells, row }) => readRow(cells, row));
    // With an expansion, the rows of one key are one record's (a product's variants); without, a
    // key twice in the file is an error at the later row (which of the two the file means is unknown).
    const parsed = expansion
      ? groupImportRows(rowsRead, expansion.keylessRecordBy, (field, language) => {
          const index = fileColumns.findIndex(
            (column) => column?.field === field && column.language === language,
          );
          return index >= 0 ? fileHeaders[index] : undefined;
        })
      : rowsRead;
    const repeated = new Set<ParsedRow>();
    for (const row of expansion ? [] : parsed) {
      if (row.key === null) continue;
      const first = firstRowOfKey.get(row.key);
      if (first !== undefined) {
        repeated.add(row);
        row.errors.push({
          row: row.row,
          column: headerOf(keyField),
          code: validationCodes.IMPORT_ROW_REPEATED,
          params: { row: first },
        });
      } else firstRowOfKey.set(row.key, row.row);
    }

    // The records the rows name, by key, in chunks; a repeated key's record is the one its first
    // row found (none when that row created it).
    const keys = [
      ...new Set(
        parsed.flatMap((row) =>
          row.key === null || (repeated.has(row) && !storedKeys.has(row.key)) ? [] : [row.key],
        ),
      ),
    ];
    existing = new Map();
    for (let start = 0; start < keys.length; start += lookupChunk) {
      const found = await data.storage
        .joined(tx.select(data.storage.selection).from(table).$dynamic())
        .where(
          and(
            eq(table.workspaceId, caller.workspaceId),
            inArray(keyColumn, keys.slice(start, start + lookupChunk)),
          ),
        );
      for (const row of found) {
        const record = data.storage.toRecord(row);
        if (generatedKeys.has(String(record[keyField]))) continue;
        existing.set(String(record[keyField]), record);
        storedKeys.add(String(record[keyField]));
      }
    }
    // What each record's rows add to its write, read against the stored records.
    expanded = new Map();
    if (expansion) {
      await expansion.prepare([...existing.values()]);
      for (const row of parsed) {
        const extra = expansion.input(row.expansion, row.key === null ? undefined : existing.get(row.key));
        row.errors.push(...extra.errors);
        expanded.set(row, extra);
      }
    }

    // References by code, to records of this workspace only: another workspace's code is not found.
    referenceIds = new Map();
    for (const column of referenceColumns) {
      const referenced = request.dataOf(column.reference!);
      const codeColumn = referenced?.storage.columns.code;
      if (!referenced || !codeColumn) continue;
      const codes = new Set<string>();
      for (const row of parsed) {
        const value = row.values.get(column.field);
        for (const code of Array.isArray(value) ? value : [value])
          if (typeof code === 'string') codes.add(code);
      }
      const ids = referenceIds.get(column.reference!) ?? new Map<string, string>();
      const list = [...codes];
      for (let start = 0; start < list.length; start += lookupChunk) {
        const found = await tx
          .select({ id: referenced.storage.table.id, code: codeColumn })
          .from(referenced.storage.table)
          .where(
            and(
              eq(referenced.storage.table.workspaceId, caller.workspaceId),
              inArray(codeColumn, list.slice(start, start + lookupChunk)),
            ),
          );
        for (const { id, code } of found) ids.set(String(code), id as string);
      }
      referenceIds.set(column.reference!, ids);
    }

    for (const row of parsed) {
      const record = row.key === null ? undefined : existing.get(row.key);
      if (!record && !canCreate) refusedCreates.push(row.row);
      // Whether an update changes anything is known only once the cells are read against the
      // record: a member without edit may re-import rows that change nothing.
      if (record && !canUpdate && hasChanges(row, record)) refusedUpdates.push(row.row);
    }
    return parsed;
  }

  /** A row's input for its record: references by id, localized texts whole (a language kept or cleared). */
  function inputOf(
    row: ParsedRow,
    record: Record<string, unknown> | undefined,
    createdIds: Map<string, string>,
  ) {
    const input: Record<string, unknown> = {};
    for (const [field, value] of row.values) {
      const column = columnOfField.get(field)!;
      if (column.reference && value !== null) {
        const resolve = (code: string) => {
          const id =
            referenceIds.get(column.reference!)?.get(code) ??
            (column.reference === definition.key ? createdIds.get(code) : undefined);
          if (!id)
            row.errors.push({
              row: row.row,
              column: headerOf(field),
              code: validationCodes.IMPORT_CODE_NOT_FOUND,
              params: { code },
            });
          return id ?? null;
        };
        input[field] = Array.isArray(value)
          ? value.map((code: string) => resolve(code))
          : resolve(value as string);
      } else input[field] = value ?? clearedValue(field, column);
    }
    for (const [field, texts] of row.localized) {
      const stored = (record?.[field] as { locale: ReaderLocale; value: string }[] | undefined) ?? [];
      const merged = (['en', 'ar'] as const).flatMap((language) => {
        const value = texts.has(language)
          ? texts.get(language)
          : stored.find((entry) => entry.locale === language)?.value;
        return value ? [{ locale: language, value }] : [];
      });
      input[field] = merged;
    }
    return input;
  }

  /** What a cleared cell writes: an empty list, else none where the field takes none, else an empty text. */
  function clearedValue(field: string, column: ImportColumn): unknown {
    if (
      column.kind === 'list' ||
      column.kind === 'labelledPhones' ||
      column.kind === 'references' ||
      column.kind === 'workingHours'
    )
      return [];
    const schema = (definition.schemas.create.shape as Record<string, z.ZodType | undefined>)[field];
    return !schema || schema.safeParse(null).success ? null : '';
  }

  /** Whether a row's update input (validated) differs from the record; without a valid input, yes. */
  function changedFields(
    input: Record<string, unknown>,
    record: Record<string, unknown>,
  ): Record<string, unknown> {
    return Object.fromEntries(
      Object.entries(input).filter(([field, value]) => canonical(value) !== canonical(record[field])),
    );
  }

  function hasChanges(row: ParsedRow, record: Record<string, unknown>): boolean {
    const probe: ParsedRow = { ...row, errors: [] };
    const input = { ...inputOf(probe, record, new Map()), ...expanded.get(row)?.input };
    const result = updateSchema.safeParse(input);
    if (!result.success || probe.errors.length > 0) return true;
    return (
      Object.keys(changedFields(namedFieldsOnly(result.data as Record<string, unknown>, input), record))
        .length > 0
    );
  }

  /** The refusal of a file needing a permission the member lacks, naming its rows. */
  function permissionRefusal(): AppError {
    const issues = [
      ...(refusedCreates.length > 0
        ? [
            {
              path: 'file',
              message: validationCodes.IMPORT_CREATE_NOT_ALLOWED,
              params: { rows: rowList(refusedCreates), count: refusedCreates.length },
            },
          ]
        : []),
      ...(refusedUpdates.length > 0
        ? [
            {
              path: 'file',
              message: validationCodes.IMPORT_UPDATE_NOT_ALLOWED,
              params: { rows: rowList(refusedUpdates), count: refusedUpdates.length },
            },
          ]
        : []),
    ];
    return new AppError(
      'FORBIDDEN',
      'The file needs a permission you do not have',
      { key: 'file', issues },
      403,
    );
  }

  // The writes: one transaction; the creates in chunks through the engine's bulk create, each in
  // a savepoint, and a chunk refused is written again a row at a time to name each refused row
  // (a savepoint each); an update a row at a time. Kept only by a commit without errors. Once a
  // row needs a permission the member lacks, nothing more is written: the rest of the file is
  // read only to name every such row, and the refusal undoes the transaction.
  const errors: ImportError[] = [];
  const { job } = request;
  // The rows as the file gives them (a CSV's parsed as they are taken), a window at a time.
  const sheetRows = sheet.rows[Symbol.iterator]();
  let line = 1;
  const nextWindow = () => {
    const window: { cells: CellValue[]; row: number }[] = [];
    while (window.length < windowRows) {
      const next = sheetRows.next();
      if (next.done) break;
      line += 1;
      if (!holdsCell(next.value)) continue;
      report.rows += 1;
      window.push({ cells: next.value, row: line });
    }
    return window;
  };
  // The first window before the transaction: an expansion reads its records with the request's
  // database (the embedded one runs one transaction at a time), and its window is the file.
  const first = await readWindow(db, nextWindow());
  await job?.progress(0);
  try {
    await writeTransaction(db, async (tx) => {
      /** Codes of the records created so far, for a later row naming one (only with such a column). */
      const createdIds = new Map<string, string>();
      /** Rows checked and waiting to be created in one chunk, with their rows' count and keys. */
      let pending: { row: ParsedRow; input: Record<string, unknown> }[] = [];
      let pendingRows = 0;
      const pendingKeys = new Set<string>();
      let rowsDone = 0;

      /** A created record's follow-up: the status a create cannot take, and its key for later rows. */
      const created = async (row: ParsedRow, record: Record<string, unknown>, status: unknown) => {
        if (!createsStatus && status !== undefined && status !== record.status)
          await data.update(tx, caller, record.id as string, { status });
        if (selfReferences.length > 0 && typeof record[keyField] === 'string')
          createdIds.set(record[keyField] as string, record.id as string);
        if (row.key === null && typeof record[keyField] === 'string') generatedKeys.add(record[keyField]);
        report.counts.create += 1;
      };
      /** A create's input as the engine takes it: without the status where a create has none. */
      const createInput = (checked: Record<string, unknown>) => {
        if (createsStatus) return checked;
        const { status: _, ...rest } = checked;
        return rest;
      };
      /** One row's create, its refusal named by row and column. */
      const createOne = async (row: ParsedRow, checked: Record<string, unknown>) => {
        try {
          const [record] = await data.create(tx, caller, [createInput(checked)]);
          if (record) await created(row, record, checked.status);
        } catch (error) {
          errors.push(...rowErrors(error, row.row, headerOf, expanded.get(row)?.locate));
        }
      };
      /** Creates the waiting rows: in one bulk, or, refused, a row at a time. */
      const flush = async () => {
        const chunk = pending;
        pending = [];
        pendingRows = 0;
        pendingKeys.clear();
        if (chunk.length === 0) return;
        let records: Record<string, unknown>[] | undefined;
        try {
          // The rows as inserted: the records read back with their details would go unused.
          records = await data.create(
            tx,
            caller,
            chunk.map((entry) => createInput(entry.input)),
            true,
            'rows',
          );
        } catch (error) {
          // A row's refusal undid the chunk's savepoint; anything else is no row's.
          if (!isRowRefusal(error)) throw error;
        }
        if (records) {
          for (const [index, record] of records.entries())
            await created(chunk[index]!.row, record, chunk[index]!.input.status);
        } else {
          for (const entry of chunk) await createOne(entry.row, entry.input);
        }
        await job?.progress(rowsDone);
      };

      /** Checks one record's rows and writes them, or queues its create, or records why they are refused. */
      const writeRecord = async (row: ParsedRow) => {
        if (pendingKeys.size > 0 && namesCode(row, pendingKeys)) await flush();
        const record = row.key === null ? undefined : existing.get(row.key);
        const extra = expanded.get(row);
        const input = { ...inputOf(row, record, createdIds), ...extra?.input };
        if (row.errors.length > 0) {
          errors.push(...row.errors);
          return;
        }
        if (record) {
          const result = updateSchema.safeParse(input);
          if (!result.success) {
            errors.push(...rowErrors(validationIssues(result.error), row.row, headerOf, extra?.locate));
            return;
          }
          const changes = changedFields(
            namedFieldsOnly(result.data as Record<string, unknown>, input),
            record,
          );
          if (Object.keys(changes).length === 0) {
            report.counts.unchanged += 1;
            return;
          }
          // The file's order holds: the creates before this row are written first.
          await flush();
          try {
            await data.update(tx, caller, record.id as string, changes);
            report.counts.update += 1;
          } catch (error) {
            errors.push(...rowErrors(error, row.row, headerOf, extra?.locate));
          }
          return;
        }
        const result = createSchema.safeParse(input);
        if (!result.success) {
          errors.push(...rowErrors(validationIssues(result.error), row.row, headerOf, extra?.locate));
          return;
        }
        pending.push({ row, input: result.data as Record<string, unknown> });
        pendingRows += Math.max(1, row.expansion.length);
        if (row.key !== null) pendingKeys.add(row.key);
        if (pendingRows >= createChunkRows) await flush();
      };
      /** How many of the file's rows a record is: a product's variants count each. */
      const rowsOf = (row: ParsedRow) => Math.max(1, row.expansion.length);
      for (let parsed = first; parsed.length > 0; ) {
        for (const row of parsed) {
          if (refusedCreates.length === 0 && refusedUpdates.length === 0) await writeRecord(row);
          rowsDone += rowsOf(row);
          await job?.progress(rowsDone);
          if (job?.cancelled()) throw new ImportCancelled();
        }
        // A window's rows are written before the next is read: its records and expansions go.
        await flush();
        const next = nextWindow();
        parsed = next.length > 0 ? await readWindow(tx, next) : [];
      }
      if (report.rows === 0) {
        errors.push({ row: 2, code: validationCodes.IMPORT_FILE_EMPTY });
        throw new RollBack();
      }
      if (refusedCreates.length > 0 || refusedUpdates.length > 0) throw permissionRefusal();
      if (dryRun || errors.length > 0) throw new RollBack();
      // The import itself, as the request's actor: kept or undone with its writes.
      await recordAudit(tx, [
        {
          workspaceId: caller.workspaceId,
          action: 'import',
          resource: definition.key,
          // An import is no stored record: its row has an id of its own, named by no other row.
          recordId: randomUUID(),
          changes: importAuditChanges(request.file, report),
        },
      ]);
      // A job's end is written with the rows: a cancel that comes now finds it done, or the rows undone.
      await job?.beforeCommit(tx, { ...report, committed: true, errors: [] });
    });
    report.committed = true;
  } catch (error) {
    if (!(error instanceof RollBack)) throw error;
  }
  report.errors = errors.sort((a, b) => a.row - b.row);
  return report;
}

/** A schema's refusal as the engine's validation error. */
function validationIssues(error: z.ZodError): AppError {
  return new AppError('VALIDATION', 'Validation failed', { issues: issuesFromZod(error) });
}
