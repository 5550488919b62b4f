import { Agent, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { brands } from '../src/db/schema/index.ts';
import { api } from './helpers/api.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { addMember, createWorkspace, unique } from './helpers/workspaces.ts';

/**
 * Stopping the in-process app as SIGTERM does (main.ts calls app.shutdown): what is served while
 * it stops, and what happens to requests already received. The same path in a real process, with
 * a signal, is in shutdown-process.test.ts.
 */
const apps: TestApp[] = [];
afterEach(async () => {
  for (const t of apps.splice(0)) if (t.app.lifecycle.state === 'serving') await t.close();
});

async function startApp(delayMs: number) {
  const t = await createTestApp({
    configure: (config) => {
      config.shutdown = { delayMs, drainMs: 10_000 };
    },
  });
  apps.push(t);
  const shop = await createWorkspace(t.db, 'Shutdown Shop');
  const admin = await addMember(t.db, shop.id, { isAdmin: true });
  return { t, shop, admin };
}

/**
 * Holds the brands table in a transaction of the test's own until released: every write to it waits, so
 * the requests sending them stay in flight for as long as the test needs.
 */
async function holdBrands(t: TestApp): Promise<{ release(): Promise<void> }> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let locked!: () => void;
  const lockTaken = new Promise<void>((resolve) => {
    locked = resolve;
  });
  const holder = t.db.transaction(async (tx) => {
    await tx.execute(sql`lock table brands in exclusive mode`);
    locked();
    await released;
  });
  await lockTaken;
  return {
    async release() {
      release();
      await holder;
    },
  };
}

interface Answer {
  status: number;
  body: string;
  connection: string | undefined;
}

/** A POST over a real socket of its own; rejects with the socket's error (ECONNRESET...). */
function post(
  port: number,
  path: string,
  cookie: string,
  body: unknown,
  agent: Agent | false = false,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body);
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), cookie },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: text, connection: res.headers.connection }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

describe('shutdown', () => {
  it('answers 503 on readiness for the configured delay while serving everything else, then stops', async () => {
    const { t, shop, admin } = await startApp(3_600_000);
    const stopped = t.app.shutdown();

    expect(t.app.lifecycle.state).toBe('draining');
    for (const url of ['/readyz', '/api/health']) {
      const readiness = await api(t.app, { method: 'GET', url });
      expect(readiness.status, url).toBe(503);
      expect(readiness.json).toEqual({ data: { status: 'stopping' } });
    }
    // The process still runs: liveness stays 200, nothing to restart.
    const liveness = await api(t.app, { method: 'GET', url: '/livez' });
    expect(liveness.status).toBe(200);
    const list = await api(t.app, {
      method: 'GET',
      url: `/api/brands?workspaceId=${shop.id}`,
      cookie: admin.cookie,
    });
    expect(list.status).toBe(200);
    const created = await api(t.app, {
      method: 'POST',
      url: `/api/brands?workspaceId=${shop.id}`,
      cookie: admin.cookie,
      body: { code: unique('b'), name: [{ locale: 'en', value: 'Served while draining' }] },
    });
    expect(created.status).toBe(201);
    expect(t.app.lifecycle.state).toBe('draining');

    // A second signal skips the rest of the hour.
    await expect(t.app.shutdown()).resolves.toEqual({ cut: 0 });
    await expect(stopped).resolves.toEqual({ cut: 0 });
    expect(t.app.lifecycle.state).toBe('closing');
    await t.database.close();
  });

  it('finishes every request already sent — 25 writes in flight: 0 resets, 0 lost — accepting new connections until nothing runs, then refusing them', async () => {
    const { t, shop, admin } = await startApp(0);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t.app.server.address() as AddressInfo;
    const marker = unique('drain');
    const inFlight = 25;

    const held = await holdBrands(t);
    const write = (index: number | string) =>
      post(port, `/api/brands?workspaceId=${shop.id}`, admin.cookie, {
        code: `${marker}-${index}`,
        name: [{ locale: 'en', value: `Drained ${index}` }],
      }).then(
        (answer) => ({ ok: true as const, answer }),
        (error: NodeJS.ErrnoException) => ({ ok: false as const, code: error.code ?? error.message }),
      );

    const writes = Array.from({ length: inFlight }, (_, index) => write(index));
    await vi.waitFor(() => expect(t.app.lifecycle.inFlight).toBe(inFlight), { timeout: 20_000 });

    const stopped = t.app.shutdown();
    expect(t.app.lifecycle.state).toBe('closing');
    // While requests run, the listener stays open: a request on a new connection is accepted, held
    // until they are answered, then served too.
    const late = write('late');
    await vi.waitFor(() => expect(t.app.lifecycle.inFlight).toBe(inFlight + 1), { timeout: 20_000 });
    expect(t.app.server.listening).toBe(true);

    await held.release();
    const results = await Promise.all([...writes, late]);
    await expect(stopped).resolves.toEqual({ cut: 0 });

    const failures = results.filter((result) => !result.ok);
    expect(failures).toEqual([]);
    const answers = results.flatMap((result) => (result.ok ? [result.answer] : []));
    expect(answers.map((answer) => answer.status)).toEqual(Array(inFlight + 1).fill(201));
    // Each answer given while closing tells its client not to reuse the connection.
    expect(new Set(answers.map((answer) => answer.connection))).toEqual(new Set(['close']));
    // Drained: the listener is closed, a new connection is refused (nothing was sent on it).
    expect(t.app.server.listening).toBe(false);
    await expect(
      post(port, `/api/brands?workspaceId=${shop.id}`, admin.cookie, { code: 'after', name: [] }),
    ).rejects.toMatchObject({ code: 'ECONNREFUSED' });

    const [row] = await t.db
      .select({ count: sql<number>`count(*)::int` })
      .from(brands)
      .where(sql`${brands.code} like ${`${marker}-%`}`);
    expect(row?.count).toBe(inFlight + 1);
    await t.database.close();
  });

  it('answers a connection still in the accept queue when the stop begins (closing the listener would reset it)', async () => {
    const { t, shop, admin } = await startApp(0);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t.app.server.address() as AddressInfo;
    const code = unique('queued');
    const payload = JSON.stringify({ code, name: [{ locale: 'en', value: 'Queued' }] });
    const request =
      `POST /api/brands?workspaceId=${shop.id} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(payload)}\r\n` +
      `Cookie: ${admin.cookie}\r\nConnection: close\r\n\r\n${payload}`;

    // A client in a thread of its own connects and sends its request while this thread — the
    // server's — is blocked: the kernel completes the connection and queues it, unaccepted.
    const sent = new Int32Array(new SharedArrayBuffer(4));
    const client = new Worker(queuedClientSource, { eval: true, workerData: { port, request, sent } });
    const answer = new Promise<{ ok: boolean; text?: string; code?: string }>((resolve, reject) => {
      client.once('message', resolve);
      client.once('error', reject);
    });
    expect(Atomics.wait(sent, 0, 0, 60_000)).toBe('ok');
    // The stop begins before this thread's event loop runs again, so before the accept.
    const stopped = t.app.shutdown();

    const received = await answer;
    await client.terminate();
    expect(received.code).toBeUndefined();
    expect(received.text).toMatch(/^HTTP\/1\.1 201 /);
    await expect(stopped).resolves.toEqual({ cut: 0 });
    const [row] = await t.db
      .select({ count: sql<number>`count(*)::int` })
      .from(brands)
      .where(sql`${brands.code} = ${code}`);
    expect(row?.count).toBe(1);
    await t.database.close();
  });

  it('a stop under steady keep-alive load: every request sent is answered, none reset, none lost', async () => {
    const { t, shop, admin } = await startApp(0);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t.app.server.address() as AddressInfo;
    const marker = unique('load');
    const clients = 20;
    const statuses: number[] = [];
    const answeredPerClient = Array<number>(clients).fill(0);
    const errors: string[] = [];
    let sent = 0;
    let stopping = false;

    // Each client reuses one connection and sends its next write the moment an answer arrives
    // (on a new connection once told to close the old one), until the server refuses a new
    // connection or something goes wrong.
    const run = async (client: number) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      try {
        for (let request = 0; ; request++) {
          sent += 1;
          try {
            const answer = await post(
              port,
              `/api/brands?workspaceId=${shop.id}`,
              admin.cookie,
              { code: `${marker}-${client}-${request}`, name: [{ locale: 'en', value: 'Under load' }] },
              agent,
            );
            statuses.push(answer.status);
            answeredPerClient[client] = (answeredPerClient[client] ?? 0) + 1;
          } catch (error) {
            const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
            // A new connection refused once the listener is closed is the only acceptable failure.
            if (!(stopping && code === 'ECONNREFUSED')) errors.push(code);
            sent -= 1;
            return;
          }
        }
      } finally {
        agent.destroy();
      }
    };
    const running = Array.from({ length: clients }, (_, client) => run(client));
    await vi.waitFor(() => expect(Math.min(...answeredPerClient)).toBeGreaterThanOrEqual(2), {
      timeout: 20_000,
    });
    stopping = true;
    const report = await t.app.shutdown();
    await Promise.all(running);

    expect(report).toEqual({ cut: 0 });
    expect(errors).toEqual([]);
    expect(statuses.length).toBe(sent);
    expect(new Set(statuses)).toEqual(new Set([201]));
    const [row] = await t.db
      .select({ count: sql<number>`count(*)::int` })
      .from(brands)
      .where(sql`${brands.code} like ${`${marker}-%`}`);
    expect(row?.count).toBe(statuses.length);
    await t.database.close();
  });

  it('cuts what is still running when the drain limit is reached, and says how much', async () => {
    const { t, shop, admin } = await startApp(0);
    t.config.shutdown.drainMs = 50;
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t.app.server.address() as AddressInfo;

    const held = await holdBrands(t);
    const stuck = post(port, `/api/brands?workspaceId=${shop.id}`, admin.cookie, {
      code: unique('stuck'),
      name: [{ locale: 'en', value: 'Stuck' }],
    }).catch((error: NodeJS.ErrnoException) => error.code);
    await vi.waitFor(() => expect(t.app.lifecycle.inFlight).toBe(1));

    const stopped = t.app.shutdown();
    await expect(stuck).resolves.toBe('ECONNRESET');
    await held.release();
    await expect(stopped).resolves.toEqual({ cut: 1 });
    await t.database.close();
  });
});

/** The client of the accept-queue test (a worker thread): connects, sends, then says so. */
const queuedClientSource = `
const { workerData, parentPort } = require('node:worker_threads');
const net = require('node:net');
const socket = net.connect(workerData.port, '127.0.0.1', () => {
  socket.write(workerData.request, () => {
    Atomics.store(workerData.sent, 0, 1);
    Atomics.notify(workerData.sent, 0);
  });
});
let text = '';
socket.setEncoding('utf8');
socket.on('data', (chunk) => { text += chunk; });
socket.on('end', () => parentPort.postMessage({ ok: true, text }));
socket.on('error', (error) => parentPort.postMessage({ ok: false, code: error.code ?? error.message }));
`;
