import type { CellKind, CellValue, Locale, ResourceDefinition } from '@dukkan/contract';
import type { Database } from '../db/client.ts';

/*
 * What a resource's export is made of — its fields, and the extra columns and rows a resource's
 * hooks add (`ExportExpansion`) — apart from the export itself (`export.ts`), so that the storage
 * and the engine's data, which hold those hooks, need nothing of the export's writing.
 */

/**
 * A field an export writes, and how: a localized text is a column per language, a reference the
 * referenced record's code (never its id), a list of references their codes, money the decimal
 * amount of the base currency (or of the record's `currencyField`). Every cell is written with the
 * shared cell format (`formatCell`), which the import reads back.
 */
export interface ExportField {
  field: string;
  kind:
    | 'text'
    | 'localizedText'
    | 'date'
    | 'number'
    | 'money'
    | 'list'
    | 'labelledPhones'
    | 'reference'
    | 'references'
    | 'workingHours'
    | 'boolean';
  /** reference, references: the referenced resource's key. */
  reference?: string;
  /** money: the record's field holding the amount's currency (else the workspace's base currency). */
  currencyField?: string;
}

/** A column of an export: its header in the reader's language, and its cells' kind. */
export interface ExportColumn {
  header: string;
  kind: CellKind;
}

/** What an export's extra rows and columns are made with. */
export interface ExportContext {
  db: Database;
  workspaceId: string;
  locale: Locale;
  baseCurrency: string;
}

/**
 * An export of more than one row per record (a product's row per variant): columns after the
 * resource's fields, known before the first row is written (one per variation type), and each
 * record's rows of those columns' cells, a chunk of records at a time.
 */
export interface ExportExpansion {
  columns: ExportColumn[];
  rows(records: Record<string, unknown>[]): Promise<CellValue[][][]>;
}

interface ZodDef {
  def: { type: string; innerType?: unknown; element?: unknown };
}

/** The zod type underneath optional, nullable and default wrappers. */
function unwrapped(schema: unknown): ZodDef {
  let current = schema as ZodDef;
  while (current.def.innerType) current = current.def.innerType as ZodDef;
  return current;
}

/** The zod type's kind underneath optional, nullable and default wrappers. */
const schemaKind = (schema: unknown): string => unwrapped(schema).def.type;

/** Whether a record's field is a list of objects (a location's labelled phones), not of texts. */
function listOfObjects(definition: ResourceDefinition, field: string): boolean {
  const schema = (definition.schemas.record.shape as Record<string, unknown>)[field];
  const { element } = schema ? unwrapped(schema).def : {};
  return element !== undefined && schemaKind(element) === 'object';
}

/** A record's plain fields, for a resource whose list declares no columns (roles). */
function recordExportFields(definition: ResourceDefinition): ExportField[] {
  return Object.entries(definition.schemas.record.shape).flatMap(([field, schema]): ExportField[] => {
    if (field === 'id') return [];
    switch (schemaKind(schema)) {
      case 'string':
      case 'enum':
        return [{ field, kind: 'text' }];
      case 'number':
        return [{ field, kind: 'number' }];
      case 'boolean':
        return [{ field, kind: 'boolean' }];
      case 'array':
        return [{ field, kind: 'list' }];
      default:
        return [];
    }
  });
}

/** The export's fields of a resource: the list's declared columns, else the record's plain fields. */
export function declaredExportFields(definition: ResourceDefinition): ExportField[] {
  if (!definition.columns) return recordExportFields(definition);
  return definition.columns.flatMap((column): ExportField[] => {
    switch (column.kind) {
      case 'image':
        return [];
      case 'localizedText':
        return [{ field: column.field, kind: 'localizedText' }];
      case 'date':
        return [{ field: column.field, kind: 'date' }];
      case 'number':
      case 'percent':
        return [{ field: column.field, kind: 'number' }];
      case 'money':
        return [{ field: column.field, kind: 'money', currencyField: column.currencyField }];
      case 'phones':
        return [
          { field: column.field, kind: listOfObjects(definition, column.field) ? 'labelledPhones' : 'list' },
        ];
      case 'currencies':
        return [{ field: column.field, kind: 'list' }];
      case 'workingDays':
        return [{ field: column.field, kind: 'workingHours' }];
      case 'reference':
        return column.reference
          ? [{ field: column.field, kind: 'reference', reference: column.reference }]
          : [{ field: column.field, kind: 'text' }];
      default:
        return [{ field: column.field, kind: 'text' }];
    }
  });
}
