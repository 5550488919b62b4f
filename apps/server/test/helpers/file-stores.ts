import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { afterAll, beforeAll } from 'vitest';
import type { Config } from '../../src/config.ts';

/**
 * The two file store drivers the upload, quota, clean-up and copy tests run on: the uploads
 * folder, and an S3 bucket served in process by s3rver (on a random port, in a temporary folder:
 * nothing to install or start).
 */
export type FileStoreDriver = 'local' | 's3';
export const fileStoreDrivers: readonly FileStoreDriver[] = ['local', 's3'];

/** One request the bucket received. */
export interface BucketRequest {
  method: string;
  /** `/<bucket>` or `/<bucket>/<key>` (path-style). */
  path: string;
  query: string;
  /** Whether it carried a signature (the app's own requests do; anyone else's do not). */
  signed: boolean;
  /** The status answered. */
  status?: number;
}

export interface TestBucket {
  bucket: string;
  endpoint: string;
  /** The environment that points the server at this bucket. */
  env: Record<string, string>;
  /** Every request received, in order. */
  requests: BucketRequest[];
  /** While true, every write (PUT) is refused with 403 AccessDenied: a failing copy. */
  refuseWrites: boolean;
  /** The stored keys under `prefix`, as the test sees them (the app never lists the bucket). */
  keys(prefix?: string): Promise<string[]>;
  close(): Promise<void>;
}

const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/**
 * An s3rver bucket. By default it refuses unsigned requests with 403 AccessDenied, as a real
 * service's private bucket does (s3rver itself answers anyone); `anonymousAccess: true` keeps
 * s3rver's own behaviour: a bucket anyone may list.
 */
export async function startTestBucket(options: { anonymousAccess?: boolean } = {}): Promise<TestBucket> {
  const directory = mkdtempSync(join(tmpdir(), 'dukkan-s3-'));
  const bucket = 'dukkan-test-files';
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    directory,
    silent: true,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const requests: BucketRequest[] = [];
  // Before s3rver's own middleware (Koa composes the array when the server starts).
  server.middleware.unshift(async (ctx, next) => {
    const signed = 'authorization' in ctx.headers || 'X-Amz-Signature' in ctx.query;
    const request: BucketRequest = { method: ctx.method, path: ctx.path, query: ctx.querystring, signed };
    requests.push(request);
    if ((!signed && !options.anonymousAccess) || (ctx.method === 'PUT' && testBucket.refuseWrites)) {
      ctx.status = 403;
      ctx.type = 'application/xml';
      ctx.body =
        '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>';
    } else {
      try {
        await next();
      } finally {
        request.status = ctx.status;
      }
    }
    request.status = ctx.status;
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const testBucket: TestBucket = {
    bucket,
    endpoint,
    refuseWrites: false,
    env: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_FORCE_PATH_STYLE: 'true',
      AWS_ACCESS_KEY_ID: credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    },
    requests,
    async keys(prefix = '') {
      const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
      return (listed.Contents ?? []).map((object) => object.Key ?? '').sort();
    },
    async close() {
      client.destroy();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
  return testBucket;
}

/** What a test on one driver needs: the environment for its app, and a look at what is stored. */
export interface DriverUnderTest {
  driver: FileStoreDriver;
  /** The environment for `createTestApp` (empty for the local folder). */
  env(): Record<string, string>;
  /** The stored keys under `prefix` (`<workspace id>/`, `platform/`). */
  keys(config: Config, prefix: string): Promise<string[]>;
  /** The S3 bucket (undefined on the local driver). */
  bucket(): TestBucket | undefined;
}

/** Starts the driver's storage for the enclosing describe block (s3rver for `s3`), stopped after it. */
export function useFileStoreDriver(driver: FileStoreDriver): DriverUnderTest {
  let bucket: TestBucket | undefined;
  if (driver === 's3') {
    beforeAll(async () => {
      bucket = await startTestBucket();
    });
    afterAll(async () => {
      await bucket?.close();
    });
  }
  return {
    driver,
    env: () => bucket?.env ?? {},
    async keys(config, prefix) {
      if (bucket) return bucket.keys(prefix);
      const [folder = '', start = ''] = [
        prefix.slice(0, prefix.lastIndexOf('/')),
        prefix.slice(prefix.lastIndexOf('/') + 1),
      ];
      try {
        return readdirSync(join(config.uploads.dir, folder))
          .filter((name) => name.startsWith(start))
          .map((name) => `${folder}/${name}`)
          .sort();
      } catch {
        return [];
      }
    },
    bucket: () => bucket,
  };
}
