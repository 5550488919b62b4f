import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../src/config.ts';
import { createApplication, updateApplication } from '../src/features/applications/applications.ts';
import {
  imageReferences,
  removeUnreferencedUploads,
  uploadedFileKey,
} from '../src/features/files/uploads.ts';
import { createS3FileStore } from '../src/platform/storage/s3-file-store.ts';
import { createAppResources } from '../src/resources.ts';
import { api, dataOf, multipart, tinyPng } from './helpers/api.ts';
import { startTestBucket, type TestBucket } from './helpers/file-stores.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { addMember, createWorkspace, unique } from './helpers/workspaces.ts';

/**
 * What only the S3 driver has: the bucket stays private and is never listed, the store's
 * readiness check, the platform's files in the bucket, and clean-up runs of several instances.
 * Uploads, quota, clean-up and the copy command run on both drivers in their own test files.
 */
let bucket: TestBucket;
let t: TestApp;
let clock = new Date('2032-01-01T00:00:00Z');
const graceMs = 60 * 60 * 1000;
const references = imageReferences(createAppResources());
let sources: string;

beforeAll(async () => {
  bucket = await startTestBucket();
  t = await createTestApp({
    env: bucket.env,
    now: () => clock,
    configure: (config) => (config.uploads.graceMs = graceMs),
  });
  sources = mkdtempSync(join(tmpdir(), 'dukkan-logos-'));
});
afterAll(async () => {
  await t?.close();
  await bucket?.close();
  rmSync(sources, { recursive: true, force: true });
});

async function uploadOrphans(count: number): Promise<string[]> {
  const shop = await createWorkspace(t.db);
  const admin = await addMember(t.db, shop.id, { isAdmin: true });
  const parts = Array.from({ length: count }, () => ({
    field: 'files',
    filename: 'a.png',
    type: 'image/png',
    content: tinyPng,
  }));
  const response = await api(t.app, {
    method: 'POST',
    url: `/api/files/bulk?workspaceId=${shop.id}`,
    ...multipart(parts),
    cookie: admin.cookie,
  });
  expect(response.status, response.text).toBe(201);
  return dataOf<{ urls: string[] }>(response).urls;
}
const cleanUp = () =>
  removeUnreferencedUploads(t.db, references, { store: t.app.fileStore, graceMs, now: clock });

describe('the bucket stays private', () => {
  it('a bucket that anyone may list stops the start, naming the bucket', async () => {
    const listable = await startTestBucket({ anonymousAccess: true });
    try {
      // It is listable indeed: an unsigned request lists it.
      const anonymous = await fetch(`${listable.endpoint}/${listable.bucket}?list-type=2`);
      expect(anonymous.status).toBe(200);
      // One line, as a wrong variable is (main.ts prints a ConfigError's message alone).
      const refusal = createTestApp({ env: listable.env });
      await expect(refusal).rejects.toBeInstanceOf(ConfigError);
      await expect(refusal).rejects.toThrow(
        `Invalid configuration: S3_BUCKET: The bucket ${listable.bucket} can be listed without credentials`,
      );
    } finally {
      await listable.close();
    }
  });

  it('the app reads, writes and removes files by name: it never lists the bucket', async () => {
    const from = bucket.requests.length;
    const [kept, orphan] = (await uploadOrphans(2)) as [string, string];
    expect((await t.app.inject({ url: kept })).statusCode).toBe(200);
    expect((await t.app.inject({ url: `${kept.slice(0, -4)}.jpg` })).statusCode).toBe(404);
    clock = new Date(clock.getTime() + graceMs + 60_000);
    await t.db.execute(sql`update workspaces set logo = ${kept} where id = ${kept.split('/')[2]}`);
    expect(await cleanUp()).toContain(orphan);
    await t.app.fileStore.check();

    const seen = bucket.requests.slice(from);
    expect(seen.map((request) => request.method)).toEqual(
      expect.arrayContaining(['PUT', 'GET', 'DELETE', 'HEAD']),
    );
    for (const request of seen) {
      expect(request.signed, `${request.method} ${request.path}`).toBe(true);
      const key = request.path.slice(`/${bucket.bucket}/`.length);
      if (request.method === 'HEAD' && request.path.replace(/\/$/, '') === `/${bucket.bucket}`) continue; // check()
      // Every other request names one stored file; none asks for the bucket itself (a listing).
      expect(key, `${request.method} ${request.path}?${request.query}`).toMatch(
        /^[0-9a-f-]{36}\/[0-9a-f-]{36}\.[a-z]{3}$/,
      );
      expect(request.query).not.toMatch(/list-type|prefix|delimiter/);
    }
  });

  it('the only unsigned request the app makes is the start-up probe, and it is refused', () => {
    const unsigned = bucket.requests.filter((request) => !request.signed);
    expect(unsigned).toEqual([
      {
        method: 'GET',
        path: `/${bucket.bucket}/`,
        query: expect.stringContaining('list-type=2'),
        signed: false,
        status: 403,
      },
    ]);
  });
});

describe('the readiness check', () => {
  it('answers for the bucket; throws for unknown credentials, a missing bucket and a stopped service', async () => {
    await expect(t.app.fileStore.check()).resolves.toBeUndefined();
    const config = {
      bucket: bucket.bucket,
      endpoint: bucket.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    };
    const cases = [
      { ...config, credentials: { accessKeyId: 'UNKNOWN', secretAccessKey: 'S3RVER' } },
      { ...config, bucket: 'no-such-bucket' },
      { ...config, endpoint: 'http://127.0.0.1:9' },
    ];
    for (const broken of cases) {
      const store = createS3FileStore(broken);
      await expect(store.check(), JSON.stringify(broken)).rejects.toThrow();
      store.close();
    }
  });
});

describe("the platform's files in the bucket", () => {
  it('a logo is stored under platform/, served from the bucket, and a replaced one removed', async () => {
    const logo = join(sources, 'logo.svg');
    writeFileSync(
      logo,
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"><rect width="8" height="8"/></svg>',
    );
    const created = await createApplication(
      t.db,
      {
        clientId: unique('pos-'),
        name: { en: 'Point of sale', ar: 'نقطة البيع' },
        homeUrl: 'https://pos.example/',
        redirectUris: ['https://pos.example/callback'],
        clientType: 'public',
        currency: 'EGP',
        monthlyPricePerLocation: 25_000,
        discounts: { monthly: 0, quarterly: 0, semiannually: 0, annually: 0 },
        trialDays: 0,
        logo,
      },
      t.app.fileStore,
    );
    const address = created.application.logo!;
    expect(address).toMatch(/^\/files\/platform\/[0-9a-f-]{36}\.svg$/);
    expect(await bucket.keys('platform/')).toEqual([address.slice('/files/'.length)]);
    const served = await t.app.inject({ url: address });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(served.headers['content-security-policy']).toBe("default-src 'none'");

    const png = join(sources, 'logo.png');
    writeFileSync(png, tinyPng);
    const updated = await updateApplication(
      t.db,
      created.application.clientId,
      { logo: png },
      t.app.fileStore,
    );
    expect(await bucket.keys('platform/')).toEqual([updated.application.logo!.slice('/files/'.length)]);
    expect((await t.app.inject({ url: address })).statusCode).toBe(404);
  });
});

describe('clean-up runs of several instances', () => {
  it('two runs at once remove each file once, and neither fails on the other', async () => {
    const orphans = await uploadOrphans(4);
    clock = new Date(clock.getTime() + graceMs + 60_000);
    const from = bucket.requests.length;
    const [first, second] = await Promise.all([cleanUp(), cleanUp()]);
    expect([...first!, ...second!].sort()).toEqual([...orphans].sort());
    // Each file has one successful removal (s3rver may fail one under load, which the SDK retries).
    const deletes = bucket.requests
      .slice(from)
      .filter((request) => request.method === 'DELETE' && request.status === 204);
    expect(deletes.map((request) => request.path.slice(`/${bucket.bucket}/`.length)).sort()).toEqual(
      orphans.map((path) => uploadedFileKey(path)).sort(),
    );
  });

  it.runIf(process.env.DATABASE_URL)(
    'a run while another instance holds the clean-up removes nothing, and the next one does (PostgreSQL only)',
    async () => {
      const orphans = await uploadOrphans(2);
      clock = new Date(clock.getTime() + graceMs + 60_000);
      // Another instance's run, holding the claim for its transaction.
      const during = await t.db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext('upload-cleanup'), 0)`);
        return cleanUp();
      });
      expect(during).toEqual([]);
      for (const path of orphans) expect(await t.app.fileStore.size(uploadedFileKey(path)!)).not.toBeNull();
      expect((await cleanUp()).sort()).toEqual([...orphans].sort());
    },
  );
});
