import type { ImportError, Locale } from '@dukkan/contract';
import type { Database } from '../db/client.ts';
import type { ExpansionRow } from './import-rows.ts';

/*
 * What a resource's import hooks are given and give back (`ImportExpansion`: a product's rows per
 * variant), apart from the import itself (`import.ts`), so that the storage and the engine's data,
 * which hold those hooks, need nothing of the import's run.
 */

/** What an import's extra columns are read with (a product's variation types and values). */
export interface ImportContext {
  db: Database;
  workspaceId: string;
  locale: Locale;
  baseCurrency: string;
}

/** Where in the file an issue of a record's write belongs. */
export interface ImportLocation {
  row: number;
  column?: string;
}

/** What a record's rows add to its write, read by an import expansion. */
export interface ExpansionInput {
  /** Input fields beside the record's own; on an update, only what changes the record. */
  input: Record<string, unknown>;
  errors: ImportError[];
  /** The row and column of an issue of the write, by its path (`variants.2.price`); undefined: the record's. */
  locate(path: string): ImportLocation | undefined;
}

/**
 * An import of more than one row per record (a product's row per variant), mirroring the
 * export's `ExportExpansion`: columns beyond the resource's fields, named by their headers; the
 * rows of one key read as one record (`groupImportRows`); and what a record's rows' cells of those
 * columns add to its create or update, which then goes through the resource's own write.
 */
export interface ImportExpansion {
  /** The template's headers after the resource's fields, in the reader's language. */
  templateHeaders: string[];
  /** What the template's notes add, in the reader's language. */
  templateNotes: readonly string[];
  /** The id of the expansion's column a file's header names (either language), or undefined. */
  column(header: string): string | undefined;
  /** The expansion's columns a header may be mapped to, named in the reader's language (the template's order). */
  targets: readonly { id: string; header: string }[];
  /** A file's header mapped to one of its columns: the errors of that column name the header. */
  useColumn(id: string, header: string): void;
  /** The field whose same cells make consecutive rows without a key one new record. */
  keylessRecordBy: string;
  /** Reads what it needs of the stored records the file names, before any record's rows. */
  prepare(records: Record<string, unknown>[]): Promise<void>;
  /** What a record's rows add to its write; `record` is the stored one (none for a create). */
  input(rows: ExpansionRow[], record: Record<string, unknown> | undefined): ExpansionInput;
}
