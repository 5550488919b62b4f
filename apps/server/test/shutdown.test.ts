import { Agent, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
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
  it('answers 503 on health for the configured delay while serving everything else, then stops', async () => {
    const { t, shop, admin } = await startApp(3_600_000);
    const stopped = t.app.shutdown();

    expect(t.app.lifecycle.state).toBe('draining');
    const health = await api(t.app, { method: 'GET', url: '/api/health' });
    expect(health.status).toBe(503);
    expect(health.json).toEqual({ data: { status: 'stopping', database: 'ok' } });
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

  it('finishes every request already received — 25 writes in flight: 0 resets, 0 lost — and refuses new connections', async () => {
    const { t, shop, admin } = await startApp(0);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t.app.server.address() as AddressInfo;
    const marker = unique('drain');
    const inFlight = 25;

    const held = await holdBrands(t);

    const writes = Array.from({ length: inFlight }, (_, index) =>
      post(port, `/api/brands?workspaceId=${shop.id}`, admin.cookie, {
        code: `${marker}-${index}`,
        name: [{ locale: 'en', value: `Drained ${index}` }],
      }).then(
        (answer) => ({ ok: true as const, answer }),
        (error: NodeJS.ErrnoException) => ({ ok: false as const, code: error.code ?? error.message }),
      ),
    );
    await vi.waitFor(() => expect(t.app.lifecycle.inFlight).toBe(inFlight), { timeout: 20_000 });

    const stopped = t.app.shutdown();
    await vi.waitFor(() => expect(t.app.server.listening).toBe(false));
    expect(t.app.lifecycle.state).toBe('closing');
    // A new connection is refused; the received requests are still waiting on the table.
    await expect(
      post(port, `/api/brands?workspaceId=${shop.id}`, admin.cookie, { code: 'late', name: [] }),
    ).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    expect(t.app.lifecycle.inFlight).toBe(inFlight);

    await held.release();
    const results = await Promise.all(writes);
    await expect(stopped).resolves.toEqual({ cut: 0 });

    const failures = results.filter((result) => !result.ok);
    expect(failures).toEqual([]);
    const answers = results.flatMap((result) => (result.ok ? [result.answer] : []));
    expect(answers.map((answer) => answer.status)).toEqual(Array(inFlight).fill(201));
    // Each answer given while closing tells its client not to reuse the connection.
    expect(new Set(answers.map((answer) => answer.connection))).toEqual(new Set(['close']));

    const [row] = await t.db
      .select({ count: sql<number>`count(*)::int` })
      .from(brands)
      .where(sql`${brands.code} like ${`${marker}-%`}`);
    expect(row?.count).toBe(inFlight);
    await t.database.close();
  });

  it('a stop under steady keep-alive load: every request sent on an open connection is answered, none reset, none lost', async () => {
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

    // Each client reuses one connection and sends its next write the moment an answer arrives,
    // until the server stops (a refused new connection) or something goes wrong.
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
    // Every client's connection accepted and used (a connection still in the kernel's accept queue
    // when the listener closes is reset by the kernel: SHUTDOWN_DELAY_SECONDS is for those).
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
