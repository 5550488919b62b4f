import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import type { ImportJob, ImportJobEvent } from '@dukkan/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, multipart } from './helpers/api.ts';
import { csvFile, queuedJob, readJob } from './helpers/import-jobs.ts';
import { callInWorkspace } from './helpers/shops.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { addMember, createWorkspace, type TestMember, unique } from './helpers/workspaces.ts';

/*
 * An import's progress pushed over an event stream (decision 0052): `GET {resource}/import-jobs/
 * events` is checked when it opens, then relays its workspace's list's jobs as this process's
 * worker runs them, without a query — so on the embedded database, whose one connection the
 * run's transaction holds, the page still sees rows done move while the run goes on.
 */

/** A stream opened over a real socket, its events gathered as they arrive. */
interface OpenStream {
  status: number;
  headers: Record<string, string>;
  /** The events as they arrived in the reader's thread. */
  events: ImportJobEvent[];
  /** Resolves once an event matches (the test's own timeout bounds the wait). */
  until(match: (event: ImportJobEvent) => boolean): Promise<ImportJobEvent>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): Promise<void>;
}

/**
 * The page's side, in a thread of its own: it reads the stream and stamps each event as it
 * arrives, while this thread — the server's — may be busy for the whole run (the embedded
 * database runs its queries on it), as a browser is another process.
 */
const readerSource = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  const response = await fetch(workerData.url, {
    headers: { cookie: workerData.cookie, accept: 'text/event-stream', 'accept-encoding': 'gzip, br' },
  });
  parentPort.postMessage({ kind: 'open', status: response.status, headers: Object.fromEntries(response.headers) });
  const decoder = new TextDecoder();
  let buffered = '';
  for await (const chunk of response.body) {
    buffered += decoder.decode(chunk, { stream: true });
    let end = buffered.indexOf('\\n\\n');
    while (end !== -1) {
      const lines = buffered.slice(0, end).split('\\n');
      buffered = buffered.slice(end + 2);
      end = buffered.indexOf('\\n\\n');
      const data = lines.find((line) => line.startsWith('data: '));
      if (lines.includes('event: job') && data)
        parentPort.postMessage({ kind: 'event', event: JSON.parse(data.slice(6)) });
    }
  }
  parentPort.postMessage({ kind: 'end' });
})().catch((error) => parentPort.postMessage({ kind: 'error', message: String(error) }));
`;

type ReaderMessage =
  | { kind: 'open'; status: number; headers: Record<string, string> }
  | { kind: 'event'; event: ImportJobEvent }
  | { kind: 'end' }
  | { kind: 'error'; message: string };

async function openStream(url: string, cookie: string): Promise<OpenStream> {
  const reader = new Worker(readerSource, { eval: true, workerData: { url, cookie } });
  const events: ImportJobEvent[] = [];
  const waiters: (() => void)[] = [];
  let endStream!: () => void;
  const ended = new Promise<void>((resolve) => {
    endStream = resolve;
  });
  const opened = new Promise<{ status: number; headers: Record<string, string> }>((resolve, reject) => {
    reader.on('message', (message: ReaderMessage) => {
      if (message.kind === 'open') resolve(message);
      else if (message.kind === 'event') {
        events.push(message.event);
        for (const wake of waiters.splice(0)) wake();
      } else if (message.kind === 'end') endStream();
      else reject(new Error(message.message));
    });
    reader.once('error', reject);
  });
  const { status, headers } = await opened;
  return {
    status,
    headers,
    events,
    ended,
    close: async () => {
      await reader.terminate();
    },
    async until(match) {
      for (;;) {
        const found = events.find(match);
        if (found) return found;
        // Woken by the next event; a stream that ends without one leaves the test to its timeout.
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
  };
}

describe('import job events', () => {
  let t: TestApp;
  let base: string;
  let shop: { id: string };
  let other: { id: string };
  let admin: TestMember;
  let otherAdmin: TestMember;
  const streams: OpenStream[] = [];

  beforeAll(async () => {
    t = await createTestApp({ env: { IMPORT_EVENTS_SECONDS: '600', SHUTDOWN_DELAY_SECONDS: '0' } });
    shop = await createWorkspace(t.db, 'Import events');
    other = await createWorkspace(t.db, 'Other import events');
    admin = await addMember(t.db, shop.id, { isAdmin: true });
    otherAdmin = await addMember(t.db, other.id, { isAdmin: true });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const stream of streams) await stream.close();
    if (t?.app.lifecycle.state === 'serving') await t.close();
    else await t?.database.close();
  });

  const eventsUrl = (workspaceId: string, path = 'customers') =>
    `${base}/api/${path}/import-jobs/events?workspaceId=${workspaceId}`;
  async function open(workspaceId: string, member: TestMember, path = 'customers') {
    const stream = await openStream(eventsUrl(workspaceId, path), member.cookie);
    streams.push(stream);
    return stream;
  }

  /** `rows` new customers, each with the phone number a customer needs. */
  const customersFile = (prefix: string, rows: number) =>
    csvFile([
      ['Code', 'Name', 'Phone numbers', 'Source'],
      ...Array.from({ length: rows }, (_, index) => [
        `${prefix}-${String(index).padStart(5, '0')}`,
        `Customer ${index}`,
        `'+2011${String(index).padStart(8, '0')}`,
        'walkIn',
      ]),
    ]);

  function postImport(workspaceId: string, member: TestMember, file: Buffer, dryRun: boolean) {
    const { body, headers } = multipart([
      { field: 'file', filename: 'customers.csv', type: 'text/csv', content: file },
    ]);
    return t.app.inject({
      method: 'POST',
      url: `/api/customers/import?workspaceId=${workspaceId}&dryRun=${dryRun}`,
      headers: { ...headers, cookie: member.cookie, 'accept-language': 'en' },
      payload: body,
    });
  }

  it('a stream opened before the upload shows the rows done rising while the commit runs, then its end', async () => {
    const stream = await open(shop.id, admin);
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(stream.headers['cache-control']).toBe('no-store');
    // Never compressed: a compressor would keep the events until it had enough bytes.
    expect(stream.headers['content-encoding']).toBeUndefined();

    const rows = 3000;
    const isProgress = (event: ImportJobEvent) =>
      event.status === 'running' && event.rowsDone > 0 && event.rowsDone < rows;
    // The reader's progress events already received when the end was published.
    const receivedBeforeEnd: Record<string, number> = {};
    const publish = t.app.importEvents.publish;
    t.app.importEvents.publish = (event) => {
      if (event.status === 'done')
        receivedBeforeEnd[event.jobId] = stream.events.filter(
          (arrived) => arrived.jobId === event.jobId && isProgress(arrived),
        ).length;
      publish(event);
    };
    const job = queuedJob(await postImport(shop.id, admin, customersFile(unique('EV'), rows), false));
    const end = await stream
      .until((event) => event.jobId === job.id && event.status === 'done')
      .finally(() => {
        t.app.importEvents.publish = publish;
      });
    const own = stream.events.filter((event) => event.jobId === job.id);
    const progress = own.slice(0, own.indexOf(end)).filter(isProgress);
    // Rows done of rows, rising, while the run went on (on the embedded database its
    // transaction held the one connection the whole time: a poll would have waited for the end).
    expect(progress.length, JSON.stringify(own)).toBeGreaterThanOrEqual(2);
    const done = progress.map((event) => event.rowsDone);
    expect(done).toEqual([...done].sort((a, b) => a - b));
    expect(new Set(done).size).toBe(done.length);
    for (const event of own) expect(event.rowsTotal).toBe(rows);
    expect(Object.keys(own[0]!).sort()).toEqual(['jobId', 'rowsDone', 'rowsTotal', 'status']);
    // Received as it happened, before the run ended — not kept and sent with its end.
    expect(receivedBeforeEnd[job.id]).toBeGreaterThanOrEqual(1);
    expect(end).toEqual({ jobId: job.id, status: 'done', rowsDone: rows, rowsTotal: rows });

    await t.app.importWorker.idle();
    const ended: ImportJob = await readJob(
      t.app,
      `/api/customers/import?workspaceId=${shop.id}`,
      job.id,
      admin.cookie,
    );
    expect(ended).toMatchObject({ status: 'done', rowsDone: rows, report: { committed: true } });
  }, 180_000);

  it("a workspace's events never reach another workspace's stream, nor another list's", async () => {
    const mine = await open(shop.id, admin);
    const theirs = await open(other.id, otherAdmin);
    const brands = await open(shop.id, admin, 'brands');
    const job = queuedJob(await postImport(shop.id, admin, customersFile(unique('ISO'), 5), true));
    await mine.until((event) => event.jobId === job.id && event.status === 'done');
    await t.app.importWorker.idle();
    // Their own job afterwards: what was published before it would have come first.
    const their = queuedJob(await postImport(other.id, otherAdmin, customersFile(unique('ISO'), 5), true));
    await theirs.until((event) => event.jobId === their.id && event.status === 'done');
    expect(theirs.events.map((event) => event.jobId)).not.toContain(job.id);
    expect(mine.events.map((event) => event.jobId)).not.toContain(their.id);
    expect(brands.events).toEqual([]);
  });

  describe('access, checked when the stream opens', () => {
    const call = (workspaceId: string, member: TestMember | null, path = 'customers') =>
      callInWorkspace(t, { id: workspaceId }, `${path}/import-jobs/events`, { member });

    it('signed out: 401', async () => {
      const answer = await call(shop.id, null);
      expect(answer.status).toBe(401);
      expect(errorOf(answer).code).toBe('UNAUTHORIZED');
    });

    it('a member who may neither add nor edit the list: 403', async () => {
      const viewer = await addMember(t.db, shop.id, { tags: ['viewCustomers', 'addBrands'] });
      const answer = await call(shop.id, viewer);
      expect(answer.status).toBe(403);
      expect(errorOf(answer).code).toBe('FORBIDDEN');
    });

    it("another workspace's id: 403, and without one, 400", async () => {
      const answer = await call(other.id, admin);
      expect(answer.status).toBe(403);
      const bare = await t.app.inject({
        method: 'GET',
        url: '/api/customers/import-jobs/events',
        headers: { cookie: admin.cookie },
      });
      expect(bare.statusCode).toBe(400);
    });

    it('a member who may add: the stream opens', async () => {
      const adder = await addMember(t.db, shop.id, { tags: ['addCustomers'] });
      const stream = await open(shop.id, adder);
      expect(stream.status).toBe(200);
    });

    it('HEAD: the headers, and no stream kept open', async () => {
      const before = t.app.importEvents.open;
      const answer = await t.app.inject({
        method: 'HEAD',
        url: `/api/customers/import-jobs/events?workspaceId=${shop.id}`,
        headers: { cookie: admin.cookie },
      });
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['content-type']).toBe('text/event-stream; charset=utf-8');
      expect(t.app.importEvents.open).toBe(before);
    });
  });

  it('the drain ends every stream, so the stop waits for none of them', async () => {
    const stream = await open(shop.id, admin);
    expect(t.app.importEvents.open).toBeGreaterThan(0);
    // Without the end at the drain, the stop would wait its limit and cut the open streams.
    await expect(t.app.shutdown()).resolves.toEqual({ cut: 0 });
    await stream.ended;
    expect(t.app.importEvents.open).toBe(0);
  });
});
