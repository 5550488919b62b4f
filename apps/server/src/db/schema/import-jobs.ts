import { type ImportJob, type ImportMapping, type ImportReport, importJobStatuses } from '@dukkan/contract';
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users, workspaces } from './identity.ts';
import { recordId, workspaceKey } from './workspace-keys.ts';

/*
 * The imports of list files as jobs (decision 0042): the request stores the file and queues a
 * row; a worker in any process claims it (`FOR UPDATE SKIP LOCKED`), runs the import and writes
 * its progress and its report here.
 */

/**
 * One import of a file into a resource. `file_key` is the file's key in the file store while it
 * is kept (null once the job ended, or after a day); `rows_total` the file's rows with a cell,
 * `rows_done` how many the run has written or checked. The request's member, language, id,
 * address and user agent are kept so that the run writes and refuses as that request would.
 * `heartbeat_at` moves with the run's progress: a running job whose process died is failed by
 * the next start or clean-up. `mapping` is the member's column mapping the run reads the file by.
 */
export const importJobs = pgTable(
  'import_jobs',
  {
    id: recordId(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    resource: text('resource').notNull(),
    dryRun: boolean('dry_run').notNull(),
    status: text('status', { enum: importJobStatuses }).notNull().default('queued'),
    fileKey: text('file_key'),
    fileName: text('file_name'),
    format: text('format', { enum: ['csv', 'xlsx'] }).notNull(),
    rowsTotal: integer('rows_total').notNull(),
    rowsDone: integer('rows_done').notNull().default(0),
    /** The member's column mapping (decision 0046), checked by the request; null: matched by name. */
    mapping: jsonb('mapping').$type<ImportMapping>(),
    report: jsonb('report').$type<ImportReport>(),
    error: jsonb('error').$type<NonNullable<ImportJob['error']>>(),
    locale: text('locale', { enum: ['en', 'ar'] }).notNull(),
    createdBy: uuid('created_by')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    requestId: text('request_id'),
    address: text('address'),
    userAgent: text('user_agent'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }),
  },
  (table) => [
    workspaceKey('import_jobs', table.workspaceId, table.id),
    // A list's recent imports, newest first.
    index('import_jobs_resource_idx').on(table.workspaceId, table.resource, table.createdAt),
    // The workers' claims and the clean-up: only the jobs not ended, or still holding a file.
    index('import_jobs_pending_idx')
      .on(table.status, table.createdAt)
      .where(sql`${table.status} in ('queued', 'running')`),
    index('import_jobs_files_idx').on(table.createdAt).where(sql`${table.fileKey} is not null`),
    check(
      'import_jobs_status_check',
      sql`${table.status} in ('queued', 'running', 'done', 'failed', 'cancelled')`,
    ),
    check('import_jobs_rows_check', sql`${table.rowsDone} >= 0`),
  ],
);

/**
 * The column mapping a workspace last imported a list with (decision 0046): a file's header → the
 * column it fills, or null for "do not import", merged over the one kept before so that the
 * headers of earlier files are still remembered. Written when a check or an import with a
 * mapping is accepted; read by the preview, whose proposal takes it for the headers the new file
 * shares. `resource` is the list's key; `updated_by` the member who last saved it.
 */
export const importMappings = pgTable(
  'import_mappings',
  {
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    resource: text('resource').notNull(),
    mapping: jsonb('mapping').$type<ImportMapping>().notNull(),
    updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [workspaceKey('import_mappings', table.workspaceId, table.resource)],
);
