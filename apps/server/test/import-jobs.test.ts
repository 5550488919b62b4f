import type { CustomerRecord, ImportJob } from '@dukkan/contract';
import { and, eq } from 'drizzle-orm';
import pg from 'pg';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { auditLog, importJobs } from '../src/db/schema/index.ts';
import {
  claimImportJob,
  createImportWorker,
  type ImportWorkerServices,
  queueImportJob,
  runImportJob,
} from '../src/resource-engine/import-jobs.ts';
import { dataOf, errorOf, multipart } from './helpers/api.ts';
import { csvFile, queuedJob, readJob } from './helpers/import-jobs.ts';
import { testResources } from './helpers/route-scenarios.ts';
import { callInWorkspace, type TwoShops, useTwoShops } from './helpers/shops.ts';
import { createTestApp } from './helpers/test-app.ts';
import { addMember, unique } from './helpers/workspaces.ts';

/*
 * Imports as jobs (decision 0042): the request stores the file and answers 202 with a job; a
 * worker claims it (`SKIP LOCKED`), runs the import, writes its progress and its report; a
 * cancel before the commit changes nothing; a job a dead process left running is failed at the
 * next start.
 */

describe('import jobs', () => {
  let shops: TwoShops;
  useTwoShops('Import jobs', (given) => {
    shops = given;
  });
  const postgres = !!process.env.DATABASE_URL;

  const call = (path: string, options: Parameters<typeof callInWorkspace>[3] = {}) =>
    callInWorkspace(shops.t, shops.shop, path, { member: shops.admin, ...options });

  const header = ['Code', 'Name'];
  const importUrl = (dryRun: boolean, workspaceId = shops.shop.id) =>
    `/api/customers/import?workspaceId=${workspaceId}&dryRun=${dryRun}`;

  function post(file: Buffer, { dryRun = true, cookie = shops.admin.cookie } = {}) {
    const { body, headers } = multipart([
      { field: 'file', filename: 'customers.csv', type: 'text/csv', content: file },
    ]);
    return shops.t.app.inject({
      method: 'POST',
      url: importUrl(dryRun),
      headers: { ...headers, cookie, 'accept-language': 'en' },
      payload: body,
    });
  }

  const jobRow = async (id: string) =>
    (await shops.t.db.select().from(importJobs).where(eq(importJobs.id, id)))[0]!;

  async function customersByCode(codes: string[]) {
    const all = dataOf<CustomerRecord[]>(await call('customers?pageSize=100&sort=code'));
    return all.filter((customer) => codes.includes(customer.code));
  }

  const codes = Array.from({ length: 5 }, (_, index) => `IJ-${index}`);
  beforeAll(async () => {
    dataOf(
      await call('customers/bulk', {
        method: 'POST',
        body: codes.map((code, index) => ({
          code,
          name: `Before ${index}`,
          phones: [`+2010${String(index).padStart(8, '0')}`],
          source: 'walkIn',
          brandId: null,
        })),
      }),
    );
  });
  const renamed = (prefix: string) =>
    csvFile([header, ...codes.map((code, index) => [code, `${prefix} ${index}`])]);

  /** A job queued as the request queues it, without waking a worker. */
  const queue = (file: Buffer, dryRun: boolean) =>
    queueImportJob(shops.t.db, shops.t.app.fileStore, {
      workspaceId: shops.shop.id,
      resource: 'customers',
      dryRun,
      file: { name: 'customers.csv', format: 'csv' },
      bytes: file,
      rowsTotal: 5,
      locale: 'en',
      actor: { userId: shops.admin.user.id, requestId: unique('req'), address: null, userAgent: null },
      now: new Date(),
    });

  const services = (now: () => Date = () => new Date()): ImportWorkerServices => ({
    db: shops.t.db,
    store: shops.t.app.fileStore,
    dataOf: (key) => testResources.served.find((data) => data.storage.definition.key === key),
    now,
    log: { error: (object, message) => console.error(message, object) },
    embedded: !postgres,
  });

  it('a dry run and a commit each answer 202 with a job, which ends done with the report; the file goes', async () => {
    const dryAnswer = await post(renamed('Dry'));
    const dry = queuedJob(dryAnswer);
    expect(dry).toMatchObject({
      resource: 'customers',
      dryRun: true,
      status: 'queued',
      fileName: 'customers.csv',
      format: 'csv',
      rowsTotal: 5,
      rowsDone: 0,
      report: null,
    });
    await shops.t.app.importWorker.idle();
    expect(await readJob(shops.t.app, importUrl(true), dry.id, shops.admin.cookie)).toMatchObject({
      status: 'done',
      rowsDone: 5,
      report: { dryRun: true, committed: false, counts: { create: 0, update: 5, unchanged: 0 }, errors: [] },
    });
    expect((await customersByCode(codes)).map((customer) => customer.name)).toEqual(
      codes.map((_, index) => `Before ${index}`),
    );

    const committed = queuedJob(await post(renamed('After'), { dryRun: false }));
    await shops.t.app.importWorker.idle();
    const ended = await readJob(shops.t.app, importUrl(false), committed.id, shops.admin.cookie);
    expect(ended).toMatchObject({
      status: 'done',
      rowsDone: 5,
      report: { committed: true, counts: { update: 5 } },
    });
    expect((await customersByCode(codes)).map((customer) => customer.name)).toEqual(
      codes.map((_, index) => `After ${index}`),
    );
    // Kept until the job ended, then removed from the store.
    for (const job of [dry, committed]) {
      const row = await jobRow(job.id);
      expect(row.fileKey).toBeNull();
      expect(await shops.t.app.fileStore.size(`imports/${shops.shop.id}/${job.id}.csv`)).toBeNull();
    }
    // The list's jobs, newest first, for a member who comes back.
    const recent = dataOf<ImportJob[]>(await call('customers/import-jobs'));
    expect(recent.slice(0, 2).map((job) => job.id)).toEqual([committed.id, dry.id]);
  });

  it('a job keeps its column mapping in its row, no file beside its own, and reads it at the run', async () => {
    const file = csvFile([['Ref', 'Client'], ...codes.map((code, index) => [code, `Mapped ${index}`])]);
    const queued = await queueImportJob(shops.t.db, shops.t.app.fileStore, {
      workspaceId: shops.shop.id,
      resource: 'customers',
      dryRun: false,
      file: { name: 'customers.csv', format: 'csv' },
      bytes: file,
      mapping: { Ref: 'code', Client: 'name' },
      rowsTotal: 5,
      locale: 'en',
      actor: { userId: shops.admin.user.id, requestId: unique('req'), address: null, userAgent: null },
      now: new Date(),
    });
    expect((await jobRow(queued.id)).mapping).toEqual({ Ref: 'code', Client: 'name' });
    expect(await shops.t.app.fileStore.size(`imports/${shops.shop.id}/${queued.id}.json`)).toBeNull();
    shops.t.app.importWorker.wake();
    await shops.t.app.importWorker.idle();
    expect(await readJob(shops.t.app, importUrl(false), queued.id, shops.admin.cookie)).toMatchObject({
      status: 'done',
      report: { committed: true, errors: [], counts: { update: 5 } },
    });
    expect((await customersByCode(codes)).map((customer) => customer.name)).toEqual(
      codes.map((_, index) => `Mapped ${index}`),
    );
    expect(await shops.t.app.fileStore.size(queued.fileKey!)).toBeNull();
  });

  it('a job queued before its row had a mapping (migration 0026) ends interrupted, nothing changed, its file removed', async () => {
    const file = csvFile([['Ref', 'Client'], ...codes.map((code) => [code, 'Never written'])]);
    const before = await customersByCode(codes);
    const queued = await queueImportJob(shops.t.db, shops.t.app.fileStore, {
      workspaceId: shops.shop.id,
      resource: 'customers',
      dryRun: false,
      file: { name: 'customers.csv', format: 'csv' },
      bytes: file,
      rowsTotal: 5,
      locale: 'en',
      actor: { userId: shops.admin.user.id, requestId: unique('req'), address: null, userAgent: null },
      now: new Date(),
    });
    // What an older process wrote: no mapping column (its mapping, if any, in a file beside).
    await shops.t.db
      .update(importJobs)
      .set({ mapping: null })
      .where(and(eq(importJobs.workspaceId, shops.shop.id), eq(importJobs.id, queued.id)));
    shops.t.app.importWorker.wake();
    await shops.t.app.importWorker.idle();
    const ended = await readJob(shops.t.app, importUrl(false), queued.id, shops.admin.cookie);
    expect(ended.status).toBe('failed');
    expect(ended.error!.issues![0]).toMatchObject({ message: 'IMPORT_JOB_INTERRUPTED' });
    expect(await customersByCode(codes)).toEqual(before);
    expect(await shops.t.app.fileStore.size(queued.fileKey!)).toBeNull();
  });

  it('a file refused by its rows (a permission the member lacks) ends failed with the refusal', async () => {
    const adder = await addMember(shops.t.db, shops.shop.id, { tags: ['addCustomers'] });
    const job = queuedJob(await post(renamed('Adder'), { cookie: adder.cookie, dryRun: false }));
    await shops.t.app.importWorker.idle();
    const ended = await readJob(shops.t.app, importUrl(false), job.id, adder.cookie);
    expect(ended.status).toBe('failed');
    expect(ended.error).toMatchObject({ code: 'FORBIDDEN', statusCode: 403 });
    expect(ended.error!.issues![0]).toMatchObject({ message: 'IMPORT_UPDATE_NOT_ALLOWED' });
  });

  it('cancelling a queued job changes nothing and removes its file; a cancel after the end is refused', async () => {
    const queued = await queue(renamed('Cancelled'), false);
    expect(await shops.t.app.fileStore.size(queued.fileKey!)).toBeGreaterThan(0);
    // Kept in the store, never served: `/files/` answers only uploads and platform files.
    const served = await shops.t.app.inject({ method: 'GET', url: `/files/${queued.fileKey}` });
    expect(served.statusCode).toBe(404);
    const before = await customersByCode(codes);
    const cancelled = await call(`customers/import-jobs/${queued.id}/cancel`, { method: 'POST' });
    expect(dataOf<ImportJob>(cancelled)).toMatchObject({ status: 'cancelled' });
    expect(await shops.t.app.fileStore.size(queued.fileKey!)).toBeNull();
    shops.t.app.importWorker.wake();
    await shops.t.app.importWorker.idle();
    expect((await jobRow(queued.id)).status).toBe('cancelled');
    expect(await customersByCode(codes)).toEqual(before);
    const again = await call(`customers/import-jobs/${queued.id}/cancel`, { method: 'POST' });
    expect(again.status).toBe(400);
    expect(errorOf(again).issues).toEqual([{ path: 'id', message: 'IMPORT_JOB_ENDED' }]);
  });

  it('a job left running by a process that died is failed at the next start, nothing changed', async () => {
    const left = await queue(renamed('Dead'), false);
    const claimed = await claimImportJob(shops.t.db, new Date());
    expect(claimed?.id).toBe(left.id);
    // Its process died ten minutes ago; another process's job is running now.
    await shops.t.db
      .update(importJobs)
      .set({ heartbeatAt: new Date(Date.now() - 10 * 60 * 1000) })
      .where(eq(importJobs.id, left.id));
    const before = await customersByCode(codes);
    const restarted = await createTestApp({ database: shops.t.database });
    try {
      const ended = await readJob(restarted.app, importUrl(false), left.id, shops.admin.cookie);
      expect(ended).toMatchObject({
        status: 'failed',
        error: { code: 'VALIDATION', issues: [{ path: 'file', message: 'IMPORT_JOB_INTERRUPTED' }] },
      });
      expect((await jobRow(left.id)).fileKey).toBeNull();
      expect(await customersByCode(codes)).toEqual(before);
    } finally {
      await restarted.close();
    }
  }, 60_000);

  it.runIf(postgres)(
    'a running job of a live process is left alone by another start (PostgreSQL only)',
    async () => {
      const live = await queue(renamed('Live'), true);
      await claimImportJob(shops.t.db, new Date());
      const other = await createTestApp({ database: shops.t.database });
      try {
        expect((await jobRow(live.id)).status).toBe('running');
      } finally {
        await other.close();
        await shops.t.db.update(importJobs).set({ status: 'cancelled' }).where(eq(importJobs.id, live.id));
      }
    },
    60_000,
  );

  it('two workers never run the same job: each of three runs once', async () => {
    const jobs = [await queue(renamed('Twice'), false), await queue(renamed('Twice'), false)];
    jobs.push(await queue(renamed('Twice'), true));
    const first = createImportWorker(services());
    const second = createImportWorker(services());
    first.wake();
    second.wake();
    await Promise.all([first.idle(), second.idle()]);
    for (const job of jobs) {
      const row = await jobRow(job.id);
      expect(row.status).toBe('done');
      // One run, one import row on the audit log (the dry run writes none).
      const imports = await shops.t.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.requestId, job.requestId!), eq(auditLog.action, 'import')));
      expect(imports).toHaveLength(job.dryRun ? 0 : 1);
    }
  });

  it.runIf(postgres)('two claims at once of one queued job: one gets it (PostgreSQL only)', async () => {
    const job = await queue(renamed('Claim'), true);
    const claims = await Promise.all([
      claimImportJob(shops.t.db, new Date()),
      claimImportJob(shops.t.db, new Date()),
    ]);
    expect(claims.filter((claim) => claim?.id === job.id)).toHaveLength(1);
    await shops.t.db.update(importJobs).set({ status: 'cancelled' }).where(eq(importJobs.id, job.id));
  });

  describe.runIf(postgres)('while a run waits on a locked record (PostgreSQL only)', () => {
    /** Runs a job whose third row waits for `blocker`'s lock, with a clock that moves a second a call. */
    async function blockedRun(dryRun: boolean, prefix: string) {
      const job = await queue(renamed(prefix), dryRun);
      const blocker = new pg.Client({ connectionString: shops.t.database.url });
      await blocker.connect();
      await blocker.query('begin');
      await blocker.query('select 1 from customers where workspace_id = $1 and code = $2 for update', [
        shops.shop.id,
        codes[2],
      ]);
      let tick = Date.now();
      const claimed = await claimImportJob(shops.t.db, new Date());
      expect(claimed?.id).toBe(job.id);
      const run = runImportJob(
        services(() => {
          tick += 1000;
          return new Date(tick);
        }),
        claimed!,
      );
      const release = async () => {
        await blocker.query('rollback');
        await blocker.end();
      };
      return { job, run, release };
    }

    it('shows rows done of rows while it runs, then the total', async () => {
      const { job, run, release } = await blockedRun(false, 'Progress');
      try {
        await vi.waitFor(
          async () => {
            const seen = await readJob(shops.t.app, importUrl(false), job.id, shops.admin.cookie);
            expect(seen.status).toBe('running');
            expect(seen.rowsDone).toBeGreaterThan(0);
            expect(seen.rowsDone).toBeLessThan(seen.rowsTotal);
          },
          { timeout: 10_000, interval: 50 },
        );
      } finally {
        await release();
      }
      await run;
      expect(await readJob(shops.t.app, importUrl(false), job.id, shops.admin.cookie)).toMatchObject({
        status: 'done',
        rowsDone: 5,
        report: { committed: true },
      });
    });

    it('a cancel before the commit stops it, rolled back: nothing changed', async () => {
      const before = await customersByCode(codes);
      const { job, run, release } = await blockedRun(false, 'Stopped');
      try {
        await vi.waitFor(async () => expect((await jobRow(job.id)).rowsDone).toBeGreaterThan(0), {
          timeout: 10_000,
          interval: 50,
        });
        const cancelled = await call(`customers/import-jobs/${job.id}/cancel`, { method: 'POST' });
        expect(dataOf<ImportJob>(cancelled).status).toBe('cancelled');
      } finally {
        await release();
      }
      await run;
      expect(await jobRow(job.id)).toMatchObject({ status: 'cancelled', fileKey: null, report: null });
      expect(await customersByCode(codes)).toEqual(before);
    });
  });

  it('without a stream configured (IMPORT_EVENTS_SECONDS=0, as here), its events answer 204: the page polls', async () => {
    const answer = await call('customers/import-jobs/events');
    expect(answer.status).toBe(204);
    expect(answer.text).toBe('');
    expect(shops.t.app.importEvents.open).toBe(0);
  });

  describe('access', () => {
    let jobId: string;
    beforeAll(async () => {
      jobId = queuedJob(await post(renamed('Access'))).id;
      await shops.t.app.importWorker.idle();
    });
    const routes = (id: () => string) => [
      { method: 'GET' as const, path: 'customers/import-jobs' },
      { method: 'GET' as const, path: `customers/import-jobs/${id()}` },
      { method: 'POST' as const, path: `customers/import-jobs/${id()}/cancel` },
    ];

    it('signed out: 401 on the import and its jobs', async () => {
      expect((await post(renamed('x'), { cookie: '' })).statusCode).toBe(401);
      for (const { method, path } of routes(() => jobId)) {
        const response = await call(path, { method, member: null });
        expect(response.status, path).toBe(401);
      }
    });

    it('without add or edit: 403', async () => {
      const viewer = await addMember(shops.t.db, shops.shop.id, { tags: ['viewCustomers'] });
      expect((await post(renamed('x'), { cookie: viewer.cookie })).statusCode).toBe(403);
      for (const { method, path } of routes(() => jobId)) {
        const response = await call(path, { method, member: viewer });
        expect(response.status, path).toBe(403);
        expect(errorOf(response).code).toBe('FORBIDDEN');
      }
    });

    it("another workspace's job, or another list's, is not found", async () => {
      for (const path of [`customers/import-jobs/${jobId}`, `customers/import-jobs/${jobId}/cancel`]) {
        const response = await callInWorkspace(shops.t, shops.other, path, {
          method: path.endsWith('cancel') ? 'POST' : 'GET',
          member: shops.otherAdmin,
        });
        expect(response.status, path).toBe(404);
      }
      expect((await call(`brands/import-jobs/${jobId}`)).status).toBe(404);
      expect((await call('customers/import-jobs/not-an-id')).status).toBe(404);
      const theirs = dataOf<ImportJob[]>(
        await callInWorkspace(shops.t, shops.other, 'customers/import-jobs', { member: shops.otherAdmin }),
      );
      expect(theirs.map((job) => job.id)).not.toContain(jobId);
    });
  });
});
