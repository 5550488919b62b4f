import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  type ImportJob,
  type ImportMapping,
  type ImportReport,
  validationCodes,
  type WorkspaceGrant,
} from '@dukkan/contract';
import { and, desc, eq, inArray, isNotNull, lt } from 'drizzle-orm';
import { type AuditActor, asRecordedActor } from '../db/audit-log.ts';
import type { Database } from '../db/client.ts';
import { permissionList } from '../db/permission-list.ts';
import { importJobs, memberships, roles } from '../db/schema/index.ts';
import { AppError, forbidden, notFound, validationError } from '../errors.ts';
import { type FileStore, importFileKey } from '../platform/storage/file-store.ts';
import type { ResourceData } from './data.ts';
import { ImportCancelled, isImportable, runImport } from './import.ts';
import type { ImportJobEvents } from './import-events.ts';
import { type ImportedFile, readSheetRows } from './import-file.ts';
import { isUuid } from './queries.ts';
import type { ReaderLocale } from './storage.ts';

/*
 * An import as a job (decision 0042): the request stores the file in the file store and queues a
 * row of `import_jobs`; a worker in every process claims queued jobs (`FOR UPDATE SKIP LOCKED`,
 * so two workers never run one job) and runs the same `runImport` the request ran before, on the
 * stored file's rows, as the member of the request. The run writes its progress at most four
 * times a second and pushes it as often to the event streams of its list (decision 0052), stops
 * at a cancel (rolled back: nothing changed), and writes a commit's end in the commit's own
 * transaction, so a cancel either comes first and undoes the rows or finds the job done. The
 * file is removed when the job ends, and by the upload clean-up a day after it was queued
 * whatever happened. A job left running by a process that died is failed by the next start (and
 * by the clean-up): its transaction was never committed, so nothing changed.
 */

type JobRow = typeof importJobs.$inferSelect;

/**
 * How often a run writes its progress (and so its heartbeat), at most: four times a second, so
 * that the page, asking once a second, sees it move at every ask (decision 0049).
 */
export const importProgressIntervalMs = 250;
/** How long a job's file is kept, whatever became of the job. */
export const importFileLifetimeMs = 24 * 60 * 60 * 1000;
/** A running job whose heartbeat is older is taken for one whose process died (PostgreSQL). */
export const importHeartbeatTimeoutMs = 5 * 60 * 1000;
/** How many of a list's jobs `GET {resource}/import-jobs` answers, newest first. */
const recentJobs = 10;

/** A job as the API answers it. */
export function importJobView(row: JobRow): ImportJob {
  return {
    id: row.id,
    resource: row.resource,
    dryRun: row.dryRun,
    status: row.status,
    fileName: row.fileName,
    format: row.format,
    rowsTotal: row.rowsTotal,
    rowsDone: row.rowsDone,
    report: row.report ?? null,
    error: row.error ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export interface QueuedImport {
  workspaceId: string;
  resource: string;
  dryRun: boolean;
  file: ImportedFile;
  bytes: Buffer;
  /** The member's column mapping (decision 0046), checked by the request; kept in the job's row. */
  mapping?: ImportMapping | undefined;
  rowsTotal: number;
  locale: ReaderLocale;
  /** The request's member, id, address and user agent: the run writes as that request. */
  actor: Pick<AuditActor, 'requestId' | 'address' | 'userAgent'> & { userId: string };
  now: Date;
}

/** Stores an import's file and queues its job; the file is removed again when the row cannot be written. */
export async function queueImportJob(db: Database, store: FileStore, queued: QueuedImport): Promise<JobRow> {
  const id = randomUUID();
  const fileKey = importFileKey(queued.workspaceId, id, queued.file.format);
  await store.put(fileKey, queued.bytes);
  try {
    const [row] = await db
      .insert(importJobs)
      .values({
        id,
        workspaceId: queued.workspaceId,
        resource: queued.resource,
        dryRun: queued.dryRun,
        fileKey,
        fileName: queued.file.name,
        format: queued.file.format,
        // Never null from this version: a job without one was queued before it (`runImportJob`).
        mapping: queued.mapping ?? {},
        rowsTotal: queued.rowsTotal,
        locale: queued.locale,
        createdBy: queued.actor.userId,
        requestId: queued.actor.requestId,
        address: queued.actor.address,
        userAgent: queued.actor.userAgent,
        createdAt: queued.now,
        updatedAt: queued.now,
      })
      .returning();
    return row!;
  } catch (error) {
    await store.delete(fileKey).catch(() => undefined);
    throw error;
  }
}

const jobOf = (workspaceId: string, resource: string, id: string) =>
  and(eq(importJobs.workspaceId, workspaceId), eq(importJobs.resource, resource), eq(importJobs.id, id));

/** A job of a workspace's list, or undefined (another workspace's or list's id is none). */
export async function findImportJob(
  db: Database,
  workspaceId: string,
  resource: string,
  id: string,
): Promise<JobRow | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db
    .select()
    .from(importJobs)
    .where(jobOf(workspaceId, resource, id));
  return row;
}

/** A workspace's latest jobs of a list, newest first. */
export function recentImportJobs(db: Database, workspaceId: string, resource: string): Promise<JobRow[]> {
  return db
    .select()
    .from(importJobs)
    .where(and(eq(importJobs.workspaceId, workspaceId), eq(importJobs.resource, resource)))
    .orderBy(desc(importJobs.createdAt), desc(importJobs.id))
    .limit(recentJobs);
}

/**
 * Cancels a job before its commit: a queued one at once (its file removed), a running one at its
 * next progress write, rolled back. A job that has ended is refused with IMPORT_JOB_ENDED;
 * another workspace's or list's id is not found.
 */
export async function cancelImportJob(
  db: Database,
  store: FileStore,
  where: { workspaceId: string; resource: string; id: string; now: Date },
): Promise<JobRow> {
  const found = await findImportJob(db, where.workspaceId, where.resource, where.id);
  if (!found) throw notFound();
  const [cancelled] = await db
    .update(importJobs)
    .set({ status: 'cancelled', updatedAt: where.now })
    .where(
      and(
        jobOf(where.workspaceId, where.resource, where.id),
        inArray(importJobs.status, ['queued', 'running']),
      ),
    )
    .returning();
  if (!cancelled)
    throw validationError(
      [{ path: 'id', message: validationCodes.IMPORT_JOB_ENDED }],
      'The import has ended',
    );
  // A running job's worker removes the file when it stops; a queued one has none.
  if (found.status === 'queued') return (await releaseFile(db, store, cancelled)) ?? cancelled;
  return cancelled;
}

/** Removes a job's file and forgets its key; a file already gone is fine. */
async function releaseFile(db: Database, store: FileStore, job: JobRow): Promise<JobRow | undefined> {
  if (!job.fileKey) return job;
  await store.delete(job.fileKey);
  const [row] = await db
    .update(importJobs)
    .set({ fileKey: null })
    .where(and(eq(importJobs.workspaceId, job.workspaceId), eq(importJobs.id, job.id)))
    .returning();
  return row;
}

/**
 * Claims the oldest queued job for this worker: the row is locked by the claim and skipped by
 * every other claim meanwhile, so a job is run once however many processes ask at once.
 */
export async function claimImportJob(db: Database, now: Date): Promise<JobRow | undefined> {
  // The row is chosen and taken in one transaction: a subquery `… in (select … limit 1 for
  // update skip locked)` may be run again by the plan and take more than one.
  return db.transaction(async (tx) => {
    const [next] = await tx
      .select({ workspaceId: importJobs.workspaceId, id: importJobs.id })
      .from(importJobs)
      .where(eq(importJobs.status, 'queued'))
      .orderBy(importJobs.createdAt)
      .limit(1)
      .for('update', { skipLocked: true });
    if (!next) return undefined;
    const [claimed] = await tx
      .update(importJobs)
      .set({ status: 'running', updatedAt: now, heartbeatAt: now })
      .where(and(eq(importJobs.workspaceId, next.workspaceId), eq(importJobs.id, next.id)))
      .returning();
    return claimed;
  });
}

/** The member's grant in the workspace now (an active membership's), or null: a job runs with what they hold. */
async function memberGrant(
  db: Database,
  workspaceId: string,
  userId: string,
): Promise<WorkspaceGrant | null> {
  const [row] = await db
    .select({ isAdmin: memberships.isAdmin, permissions: permissionList() })
    .from(memberships)
    .leftJoin(roles, and(eq(roles.id, memberships.roleId), eq(roles.workspaceId, memberships.workspaceId)))
    .where(
      and(
        eq(memberships.workspaceId, workspaceId),
        eq(memberships.userId, userId),
        eq(memberships.status, 'active'),
      ),
    );
  if (!row) return null;
  return row.isAdmin
    ? { isAdmin: true, tags: new Set() }
    : { isAdmin: false, tags: new Set(row.permissions ?? []) };
}

async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const interruptedError = () =>
  validationError(
    [{ path: 'file', message: validationCodes.IMPORT_JOB_INTERRUPTED }],
    'The import stopped before it ended; nothing was changed',
  );

const interrupted = (): NonNullable<ImportJob['error']> => {
  const { requestId: _, ...body } = interruptedError().toBody();
  return body;
};

/**
 * Fails the jobs left running by a process that died: every running job whose heartbeat is older
 * than `staleBefore`. Their transaction was never committed, so nothing changed; their files go.
 */
export async function failAbandonedImportJobs(
  db: Database,
  store: FileStore,
  options: { staleBefore: Date; now: Date },
): Promise<number> {
  const failed = await db
    .update(importJobs)
    .set({ status: 'failed', error: interrupted(), updatedAt: options.now })
    .where(and(eq(importJobs.status, 'running'), lt(importJobs.heartbeatAt, options.staleBefore)))
    .returning();
  for (const job of failed) await releaseFile(db, store, job).catch(() => undefined);
  return failed.length;
}

/**
 * Removes the files of jobs queued more than a day ago, whatever became of them (the upload
 * clean-up runs it); a job still queued then is failed. Returns how many files went.
 */
export async function removeExpiredImportFiles(db: Database, store: FileStore, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - importFileLifetimeMs);
  await db
    .update(importJobs)
    .set({ status: 'failed', error: interrupted(), updatedAt: now })
    .where(and(eq(importJobs.status, 'queued'), lt(importJobs.createdAt, cutoff)));
  const expired = await db
    .select()
    .from(importJobs)
    .where(and(isNotNull(importJobs.fileKey), lt(importJobs.createdAt, cutoff)));
  for (const job of expired) await releaseFile(db, store, job);
  return expired.length;
}

export interface ImportWorkerServices {
  db: Database;
  store: FileStore;
  dataOf(key: string): ResourceData | undefined;
  now(): Date;
  log: { error(object: unknown, message: string): void };
  /**
   * The embedded database: one process holds it (the data folder's lock), so at start every
   * running job is abandoned, and its one transaction at a time holds back every heartbeat.
   */
  embedded: boolean;
  /**
   * Where the run's progress is pushed to the pages of its list as it moves (decision 0052),
   * beside the writes of `rows_done`: no database between them, so the embedded one's pages
   * see it too.
   */
  events?: Pick<ImportJobEvents, 'publish'>;
}

export interface ImportWorker {
  /** Claims and runs queued jobs until none is left; a call while it runs makes it look again after. */
  wake(): void;
  /** Resolves once the worker has nothing more to do (tests). */
  idle(): Promise<void>;
  /** Stops claiming and waits for the job under way. */
  stop(): Promise<void>;
  /**
   * At start: fails the jobs a dead process left running (every one on the embedded database,
   * those without a heartbeat for five minutes on PostgreSQL), then claims what is queued.
   */
  start(): Promise<void>;
  /**
   * The upload clean-up's turn: fails the running jobs without a heartbeat for five minutes
   * (PostgreSQL), removes the files of jobs older than a day, and claims what is queued.
   */
  sweep(): Promise<void>;
}

/** A process's worker: one job at a time, each claimed from the table. */
export function createImportWorker(services: ImportWorkerServices): ImportWorker {
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  const loop = async () => {
    while (!stopped) {
      const job = await claimImportJob(services.db, services.now());
      if (!job) return;
      await runImportJob(services, job);
    }
  };
  const wake = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = loop()
      .catch((error: unknown) => services.log.error({ err: error }, 'import worker failed'))
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          wake();
        }
      });
  };
  const failAbandoned = (staleBefore: Date) =>
    failAbandonedImportJobs(services.db, services.store, { staleBefore, now: services.now() });
  const heartbeatCutoff = () => new Date(services.now().getTime() - importHeartbeatTimeoutMs);
  return {
    wake,
    async start() {
      await failAbandoned(services.embedded ? services.now() : heartbeatCutoff());
      wake();
    },
    async sweep() {
      if (!services.embedded) await failAbandoned(heartbeatCutoff());
      await removeExpiredImportFiles(services.db, services.store, services.now());
      wake();
    },
    async idle() {
      while (running) await running;
    },
    async stop() {
      stopped = true;
      while (running) await running;
    },
  };
}

/** The end a job's run came to, written unless a cancel came first. */
async function endJob(db: Database, job: JobRow, set: Partial<JobRow>, now: Date) {
  await db
    .update(importJobs)
    .set({ ...set, updatedAt: now })
    .where(
      and(
        eq(importJobs.workspaceId, job.workspaceId),
        eq(importJobs.id, job.id),
        eq(importJobs.status, 'running'),
      ),
    );
}

/**
 * Runs one claimed job: reads its stored file, runs the import as its member (their grant now),
 * writing progress and watching for a cancel, and records how it ended; then removes the file.
 */
export async function runImportJob(services: ImportWorkerServices, job: JobRow): Promise<void> {
  const { db, store, now } = services;
  const jobRow = and(eq(importJobs.workspaceId, job.workspaceId), eq(importJobs.id, job.id));
  let cancelled = false;
  let lastWrite = now().getTime();
  let writing = false;
  const publish = (status: JobRow['status'], rowsDone: number, rowsTotal = job.rowsTotal) =>
    services.events?.publish({
      workspaceId: job.workspaceId,
      resource: job.resource,
      jobId: job.id,
      status,
      rowsDone,
      rowsTotal,
    });
  let lastPublished = lastWrite;
  publish('running', job.rowsDone);
  try {
    const data = services.dataOf(job.resource);
    if (!data || !isImportable(data)) throw notFound();
    // A job queued before migration 0026 kept its mapping in a file this version does not read:
    // run without it, its columns could go astray, so it ends as interrupted, nothing changed.
    if (job.mapping === null) throw interruptedError();
    const stored = job.fileKey ? await store.get(job.fileKey) : null;
    if (!stored)
      throw validationError(
        [{ path: 'file', message: validationCodes.IMPORT_JOB_ENDED }],
        'The file is gone',
      );
    const sheet = await readSheetRows(await readAll(stored.body));
    const grant = await memberGrant(db, job.workspaceId, job.createdBy);
    if (!grant) throw forbidden();
    const actor: AuditActor = {
      kind: 'member',
      userId: job.createdBy,
      requestId: job.requestId,
      address: job.address,
      userAgent: job.userAgent,
    };
    const report: ImportReport = await asRecordedActor(actor, () =>
      runImport({
        db,
        data,
        dataOf: services.dataOf,
        caller: { workspaceId: job.workspaceId, userId: job.createdBy, grant, locale: job.locale },
        file: { name: job.fileName, format: job.format },
        sheet,
        dryRun: job.dryRun,
        mapping: job.mapping ?? undefined,
        job: {
          progress(rowsDone) {
            const at = now();
            // Pushed as often as written, but never held back by the write: on the embedded
            // database the write waits for the run's transaction, and the push needs none.
            let turn: Promise<void> | undefined;
            if (at.getTime() - lastPublished >= importProgressIntervalMs) {
              lastPublished = at.getTime();
              publish('running', rowsDone);
              // The event loop turns here: the embedded database runs the whole transaction's
              // queries on it back to back, and until it turns no byte of the event leaves the
              // process (a response's write completes on a later tick), nor does any other answer.
              turn = new Promise<void>((resolve) => setImmediate(resolve));
            }
            if (writing || at.getTime() - lastWrite < importProgressIntervalMs) return turn;
            lastWrite = at.getTime();
            writing = true;
            // Not awaited: the embedded database holds it until the run's transaction ends.
            db.update(importJobs)
              .set({ rowsDone, heartbeatAt: at, updatedAt: at })
              .where(and(jobRow, eq(importJobs.status, 'running')))
              .returning({ id: importJobs.id })
              .then((rows) => {
                if (rows.length === 0) cancelled = true;
              })
              .catch((error: unknown) => services.log.error({ err: error }, 'import progress not written'))
              .finally(() => {
                writing = false;
              });
            return turn;
          },
          cancelled: () => cancelled,
          async beforeCommit(tx, committed) {
            const [done] = await tx
              .update(importJobs)
              .set({ status: 'done', report: committed, rowsDone: job.rowsTotal, updatedAt: now() })
              .where(and(jobRow, eq(importJobs.status, 'running')))
              .returning({ id: importJobs.id });
            if (!done) throw new ImportCancelled();
          },
        },
      }),
    );
    if (!report.committed) await endJob(db, job, { status: 'done', report, rowsDone: job.rowsTotal }, now());
  } catch (error) {
    if (error instanceof ImportCancelled) {
      await endJob(db, job, { status: 'cancelled' }, now());
    } else {
      const appError =
        error instanceof AppError ? error : new AppError('INTERNAL', 'The import failed on the server');
      if (!(error instanceof AppError))
        services.log.error({ err: error, importJob: job.id }, 'import job failed');
      await endJob(db, job, { status: 'failed', error: appError.toBody() }, now());
    }
  } finally {
    const [ended] = await db.select().from(importJobs).where(jobRow);
    // How the job ended, as stored (a cancel that came first wins): the page then reads its report.
    if (ended) publish(ended.status, ended.rowsDone, ended.rowsTotal);
    if (ended)
      await releaseFile(db, store, ended).catch((error: unknown) =>
        services.log.error({ err: error }, 'import file not removed'),
      );
  }
}
