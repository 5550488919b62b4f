import { mkdirSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { migrationsFolder } from '../src/db/client.ts';
import { databaseProbe, newestMigration } from '../src/features/health/readiness.ts';
import { startMetricsServer } from '../src/http/metrics.ts';
import { api, errorOf } from './helpers/api.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { addMember, createWorkspace } from './helpers/workspaces.ts';

/** Liveness, readiness and its probes, request ids, and the Prometheus metrics, over HTTP in-process. */
const apps: TestApp[] = [];
afterAll(async () => {
  for (const t of apps.splice(0)) await t.close();
});
async function testApp(options: Parameters<typeof createTestApp>[0] = {}) {
  const t = await createTestApp(options);
  apps.push(t);
  return t;
}

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('liveness and readiness', () => {
  it('/livez answers while the process runs; /readyz and /api/health name each probe', async () => {
    const t = await testApp();
    const live = await api(t.app, { url: '/livez' });
    expect(live.status).toBe(200);
    expect(live.json).toEqual({ data: { status: 'ok' } });
    for (const url of ['/readyz', '/api/health']) {
      const ready = await api(t.app, { url });
      expect(ready.status, url).toBe(200);
      expect(ready.json).toEqual({ data: { status: 'ok', checks: { database: 'ok', storage: 'ok' } } });
    }
  });

  it('answers 503 from the first request after a probe fails or does not answer within a second, naming it', async () => {
    let failing = false;
    const t = await testApp({
      probes: [
        {
          name: 'files',
          check: async () => {
            if (failing) throw new Error('bucket unreachable');
          },
        },
        // Never answers once failing: counted as failed when its second is up.
        { name: 'slow', check: () => (failing ? new Promise<void>(() => {}) : Promise.resolve()) },
      ],
    });
    expect((await api(t.app, { url: '/readyz' })).status).toBe(200);
    failing = true;
    const down = await api(t.app, { url: '/readyz' });
    expect(down.status).toBe(503);
    expect(down.json).toEqual({
      data: {
        status: 'unavailable',
        checks: { database: 'ok', storage: 'ok', files: 'unavailable', slow: 'timeout' },
      },
    });
    // Liveness does not depend on them: restarting the process would not bring them back.
    expect((await api(t.app, { url: '/livez' })).status).toBe(200);
    failing = false;
    expect((await api(t.app, { url: '/api/health' })).status).toBe(200);
  });

  it('the storage probe fails while the uploads folder is gone', async () => {
    const t = await testApp();
    rmSync(t.config.uploads.dir, { recursive: true, force: true });
    const down = await api(t.app, { url: '/readyz' });
    expect(down.status).toBe(503);
    expect(down.json).toMatchObject({ data: { checks: { database: 'ok', storage: 'unavailable' } } });
    mkdirSync(t.config.uploads.dir, { recursive: true });
    expect((await api(t.app, { url: '/readyz' })).status).toBe(200);
  });

  it('the database probe requires every migration of this version to be applied', async () => {
    const t = await testApp();
    const newest = await newestMigration(migrationsFolder());
    expect(newest).toBeGreaterThan(0);
    await expect(databaseProbe(t.db, newest).check()).resolves.toBeUndefined();
    // A version one migration ahead of the database is not ready on it.
    await expect(databaseProbe(t.db, newest + 1).check()).rejects.toThrow(/migrations behind/);
  });
});

describe('request ids', () => {
  it('every answer carries a random id; an error answer carries it in its body too', async () => {
    const t = await testApp();
    const first = await api(t.app, { url: '/api/nope' });
    const second = await api(t.app, { url: '/api/nope' });
    errorOf(first);
    const ids = [first, second].map(
      (response) => (response.json as { error: { requestId: string } }).error.requestId,
    );
    expect(ids[0]).toMatch(uuid);
    expect(ids[1]).toMatch(uuid);
    expect(ids[0]).not.toBe(ids[1]);
    const ok = await api(t.app, { url: '/livez' });
    expect(String(ok.headers['x-request-id'])).toMatch(uuid);
  });

  it("a trusted proxy's X-Request-Id is the request's id; anyone else's is ignored", async () => {
    const behindProxy = await testApp({ env: { TRUST_PROXY: '10.0.0.5' } });
    const fromProxy = await api(behindProxy.app, {
      url: '/api/nope',
      remoteAddress: '10.0.0.5',
      headers: { 'x-request-id': 'proxy-7f3a9c01' },
    });
    expect(fromProxy.headers['x-request-id']).toBe('proxy-7f3a9c01');
    expect((fromProxy.json as { error: { requestId: string } }).error.requestId).toBe('proxy-7f3a9c01');

    // A client the configuration does not trust cannot choose its id (nor take another's).
    const direct = await api(behindProxy.app, {
      url: '/api/nope',
      remoteAddress: '203.0.113.9',
      headers: { 'x-request-id': 'proxy-7f3a9c01' },
    });
    expect(direct.headers['x-request-id']).toMatch(uuid);
    // Nor does a proxy's id of another shape pass into the logs.
    const odd = await api(behindProxy.app, {
      url: '/api/nope',
      remoteAddress: '10.0.0.5',
      headers: { 'x-request-id': 'a b\u0007c' },
    });
    expect(odd.headers['x-request-id']).toMatch(uuid);

    const noProxy = await testApp();
    const anyone = await api(noProxy.app, { url: '/livez', headers: { 'x-request-id': 'chosen-by-client' } });
    expect(anyone.headers['x-request-id']).toMatch(uuid);
  });

  it('the id of an error answer is the one its log lines carry', async () => {
    let logged = '';
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) => {
      logged += chunk.toString('utf8');
    });
    const t = await testApp({ logStream: stream });
    const refused = await api(t.app, { url: '/api/nope' });
    expect(refused.status).toBe(404);
    const { requestId } = (refused.json as { error: { requestId: string } }).error;
    const lines = logged
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { reqId?: string; res?: { statusCode?: number } });
    expect(lines.some((line) => line.reqId === requestId && line.res?.statusCode === 404)).toBe(true);
  });
});

describe('metrics', () => {
  const token = 'metrics-token-0123456789abcdef0123456789';
  /** No metrics in the answer: a 404, or the web app's page where a build is served. */
  const expectNoMetrics = (
    answer: { status: number; text: string; headers: Record<string, unknown> },
    label?: string,
  ) => {
    expect([404, 200], label).toContain(answer.status);
    expect(String(answer.headers['content-type']), label).not.toMatch(/^text\/plain/);
    expect(answer.text, label).not.toContain('http_server_request_duration_seconds');
  };

  it('are not served without METRICS_TOKEN or METRICS_PORT', async () => {
    const t = await testApp();
    expect(t.app.metrics).toBeUndefined();
    expectNoMetrics(await api(t.app, { url: '/metrics', headers: { authorization: `Bearer ${token}` } }));
  });

  it('on the main port, to a bearer of METRICS_TOKEN only: durations by route template, in flight, pool, event loop, clock', async () => {
    const t = await testApp({
      env: { METRICS_TOKEN: token },
      poolStats: () => ({ total: 4, idle: 1, waiting: 2, max: 10 }),
    });
    const shop = await createWorkspace(t.db, 'Metrics Shop');
    const admin = await addMember(t.db, shop.id, { isAdmin: true });
    const missing = '00000000-0000-4000-8000-000000000000';
    expect(
      (await api(t.app, { url: `/api/brands/${missing}?workspaceId=${shop.id}`, cookie: admin.cookie }))
        .status,
    ).toBe(404);
    expect((await api(t.app, { url: '/readyz' })).status).toBe(200);

    for (const authorization of [undefined, 'Bearer wrong', `Basic ${token}`, `Bearer ${token}x`]) {
      const refused = await api(t.app, { url: '/metrics', headers: authorization ? { authorization } : {} });
      expectNoMetrics(refused, authorization);
    }
    const scraped = await api(t.app, { url: '/metrics', headers: { authorization: `Bearer ${token}` } });
    expect(scraped.status).toBe(200);
    expect(String(scraped.headers['content-type'])).toMatch(/^text\/plain/);
    const text = scraped.text;
    expect(text).toContain(
      'http_server_request_duration_seconds_bucket{le="0.005",http_request_method="GET",http_route="/api/brands/:id",http_response_status_code="404"}',
    );
    expect(text).toContain(
      'http_server_request_duration_seconds_count{http_request_method="GET",http_route="/readyz",http_response_status_code="200"} 1',
    );
    expect(text).toContain('le="10"');
    // The path as typed (with its id) is never a label value.
    expect(text).not.toContain(missing);
    expect(text).toMatch(/^http_server_active_requests 1$/m);
    expect(text).toMatch(/^db_client_connection_count\{db_client_connection_state="used"\} 3$/m);
    expect(text).toMatch(/^db_client_connection_pending_requests 2$/m);
    expect(text).toMatch(/^db_client_connection_max 10$/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_p99_seconds /m);
    expect(text).toMatch(/^dukkan_subscription_clock_runs_total\{outcome="failed"\} 0$/m);
    expect(text).toMatch(/^dukkan_subscription_clock_event_errors_total 0$/m);
  });

  it('on a port of their own (METRICS_PORT)', async () => {
    const t = await testApp({ env: { METRICS_PORT: '9464' } });
    expectNoMetrics(await api(t.app, { url: '/metrics' }));
    const server = await startMetricsServer(t.app.metrics!, '127.0.0.1', 0);
    try {
      const { port } = server.address() as AddressInfo;
      const answer = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(answer.status).toBe(200);
      expect(await answer.text()).toContain('# TYPE http_server_request_duration_seconds histogram');
      expect((await fetch(`http://127.0.0.1:${port}/metrics`, { method: 'POST' })).status).toBe(405);
    } finally {
      server.close();
    }
  });
});
