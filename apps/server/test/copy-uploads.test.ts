import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli.ts';
import { copyUploads } from '../src/features/files/copy-uploads.ts';
import type { FileStore } from '../src/platform/storage/file-store.ts';
import { createLocalFileStore } from '../src/platform/storage/local-file-store.ts';
import { createS3FileStore } from '../src/platform/storage/s3-file-store.ts';
import { api, dataOf, multipart, tinyPng } from './helpers/api.ts';
import { runCliOn } from './helpers/cli.ts';
import {
  fileStoreDrivers,
  startTestBucket,
  type TestBucket,
  useFileStoreDriver,
} from './helpers/file-stores.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { addMember, createWorkspace } from './helpers/workspaces.ts';

/**
 * Moving an existing DATA_DIR/uploads into a bucket (`copy-uploads`): every stored file under its
 * own key, nothing else; a second run copies nothing, and a run cut short is resumed.
 */
const workspaceId = '0b6c2f4e-1c1a-4b59-9a43-6d4f3e2a1b0c';
const stored: Record<string, Buffer> = {
  [`${workspaceId}/11111111-1c1a-4b59-9a43-6d4f3e2a1b0c.png`]: tinyPng,
  [`${workspaceId}/22222222-1c1a-4b59-9a43-6d4f3e2a1b0c.webp`]: Buffer.from('RIFF0000WEBPVP8 not really'),
  'platform/33333333-1c1a-4b59-9a43-6d4f3e2a1b0c.svg': Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg"/>',
  ),
};
const keys = Object.keys(stored).sort();
/** What else an uploads folder may hold: never copied. */
const strangers = ['notes.txt', `${workspaceId}/readme.md`, 'platform/logo.png'];

function uploadsFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'dukkan-uploads-'));
  for (const [key, content] of [
    ...Object.entries(stored),
    ...strangers.map((key) => [key, tinyPng] as const),
  ]) {
    mkdirSync(join(dir, key, '..'), { recursive: true });
    writeFileSync(join(dir, key), content);
  }
  return dir;
}

async function contentOf(store: FileStore, key: string): Promise<string | null> {
  const file = await store.get(key);
  return file ? text(file.body) : null;
}

describe.each(fileStoreDrivers)('copyUploads into the %s file store', (driver) => {
  const files = useFileStoreDriver(driver);
  let source: string;
  let targetDir: string;
  let target: FileStore & { close?: () => void };
  beforeAll(() => {
    source = uploadsFolder();
    targetDir = mkdtempSync(join(tmpdir(), 'dukkan-target-'));
    const bucket = files.bucket();
    target = bucket
      ? createS3FileStore({
          bucket: bucket.bucket,
          endpoint: bucket.endpoint,
          region: 'us-east-1',
          forcePathStyle: true,
          credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
        })
      : createLocalFileStore(targetDir);
  });
  afterAll(() => {
    target?.close?.();
    rmSync(source, { recursive: true, force: true });
    rmSync(targetDir, { recursive: true, force: true });
  });

  it('copies every stored file under its key and nothing else; a second run copies 0', async () => {
    const first = await copyUploads(source, target);
    expect(first).toEqual({ copied: 3, copiedBytes: expect.any(Number), skipped: 0, failed: [] });
    for (const key of keys) expect(await contentOf(target, key), key).toBe(stored[key]!.toString());
    const bucket = files.bucket();
    if (bucket) expect(await bucket.keys()).toEqual(keys);
    for (const key of strangers) expect(await target.size(key), key).toBeNull();

    expect(await copyUploads(source, target)).toEqual({ copied: 0, copiedBytes: 0, skipped: 3, failed: [] });
  });

  it('resumes a copy cut short: what is missing or differs in size is copied again, the rest skipped', async () => {
    const [missing, different] = keys as [string, string];
    await target.delete(missing);
    await target.delete(different);
    await target.put(different, Buffer.from('cut short'));
    const report = await copyUploads(source, target);
    expect(report).toMatchObject({ copied: 2, skipped: 1, failed: [] });
    expect(await contentOf(target, missing)).toBe(stored[missing]!.toString());
    expect(await contentOf(target, different)).toBe(stored[different]!.toString());
  });
});

describe('the copy-uploads command', () => {
  let bucket: TestBucket;
  let local: TestApp;
  beforeAll(async () => {
    bucket = await startTestBucket();
    local = await createTestApp();
  });
  afterAll(async () => {
    await local?.close();
    await bucket?.close();
  });

  it('copies the uploads of a server on the folder into the bucket, which then serves them at the same addresses', async () => {
    const shop = await createWorkspace(local.db);
    const admin = await addMember(local.db, shop.id, { isAdmin: true });
    const uploaded = await api(local.app, {
      method: 'POST',
      url: `/api/files/bulk?workspaceId=${shop.id}`,
      ...multipart(
        [1, 2].map(() => ({ field: 'files', filename: 'a.png', type: 'image/png', content: tinyPng })),
      ),
      cookie: admin.cookie,
    });
    const { urls } = dataOf<{ urls: string[] }>(uploaded);
    const env = { NODE_ENV: 'test', DATA_DIR: local.config.dataDir, ...bucket.env };

    const first = await runCliOn(local, ['copy-uploads'], { env });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain(
      `Copied 2 files (${2 * tinyPng.length} bytes) from ${local.config.uploads.dir} to the bucket ${bucket.bucket}; 0 already there with the same size; 0 failed.`,
    );

    const again = await runCliOn(local, ['copy-uploads'], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('Copied 0 files (0 bytes)');
    expect(again.stdout).toContain('2 already there with the same size; 0 failed.');
    // The command asks for each file by name (HEAD, then PUT): it never lists the bucket.
    const methods = bucket.requests.filter((request) => request.signed).map((request) => request.method);
    expect(methods.sort()).toEqual(['HEAD', 'HEAD', 'HEAD', 'HEAD', 'PUT', 'PUT']);
    expect(await bucket.keys()).toEqual(urls.map((url) => url.slice('/files/'.length)).sort());

    // A server on the bucket, same database: the same addresses, the same bytes.
    const onBucket = await createTestApp({ env: bucket.env, database: local.database });
    try {
      for (const url of urls) {
        const served = await onBucket.app.inject({ url });
        expect(served.statusCode, url).toBe(200);
        expect(
          served.rawPayload.equals(readFileSync(join(local.config.uploads.dir, url.slice('/files/'.length)))),
        ).toBe(true);
      }
    } finally {
      await onBucket.close();
    }
  });

  it("runs in the operator's process with the operator's environment: no database, no running server asked", async () => {
    const run = await runCli(['copy-uploads'], {
      // A database that cannot be reached: the command never opens it.
      env: {
        NODE_ENV: 'test',
        DATA_DIR: local.config.dataDir,
        DATABASE_URL: 'postgres://127.0.0.1:9/none',
        ...bucket.env,
      },
      stdout: () => {},
      stderr: (text) => {
        throw new Error(text);
      },
    });
    expect(run).toBe(0);
  });

  it('refuses to run without a bucket configured (exit code 2), and says what to set', async () => {
    const run = await runCliOn(local, ['copy-uploads'], {
      env: { NODE_ENV: 'test', DATA_DIR: local.config.dataDir },
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('set S3_BUCKET');
  });

  it('reports the files it could not copy and fails (exit code 1); run again, it copies them', async () => {
    const refusing = await startTestBucket();
    try {
      const env = { NODE_ENV: 'test', DATA_DIR: local.config.dataDir, ...refusing.env };
      refusing.refuseWrites = true;
      const failed = await runCliOn(local, ['copy-uploads'], { env });
      expect(failed.code).toBe(1);
      expect(failed.stderr.match(/^Not copied: [0-9a-f-]{36}\/[0-9a-f-]{36}\.png: /gm)).toHaveLength(2);
      expect(failed.stdout).toContain('Copied 0 files (0 bytes)');
      expect(failed.stdout).toContain('2 failed.');
      expect(failed.stderr).toContain('2 files not copied: run copy-uploads again to retry them');

      refusing.refuseWrites = false;
      const retried = await runCliOn(local, ['copy-uploads'], { env });
      expect(retried.code, retried.stderr).toBe(0);
      expect(retried.stdout).toContain('Copied 2 files');
      expect(await refusing.keys()).toHaveLength(2);
    } finally {
      await refusing.close();
    }
  });
});
