import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { type FileStore, isStoredFileKey, type StoredFile, storedFileType } from './file-store.ts';

/** An S3-compatible bucket (AWS S3, MinIO, Cloudflare R2, DigitalOcean Spaces…). */
export interface S3StoreConfig {
  bucket: string;
  /** The service's address; absent for AWS S3 itself. */
  endpoint?: string;
  region: string;
  /** `<endpoint>/<bucket>/<key>` rather than `<bucket>.<endpoint>/<key>` (MinIO, s3rver). */
  forcePathStyle: boolean;
  /** From AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY; absent: the SDK's own chain (profile, role). */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
}

/** The bucket answers an anonymous listing: refused at start. */
export class ListableBucketError extends Error {
  override name = 'ListableBucketError';
}

export interface S3FileStore extends FileStore {
  /**
   * Throws when the bucket answers a listing without credentials: the random names are the only
   * thing between a file and anyone, so a listable bucket would hand them all out.
   */
  assertNotListable(): Promise<void>;
  close(): void;
}

function clientConfig(config: S3StoreConfig): S3ClientConfig {
  return {
    region: config.region,
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    forcePathStyle: config.forcePathStyle,
    ...(config.credentials ? { credentials: config.credentials } : {}),
    // Since its 2025 releases the SDK adds CRC checksums to every upload and asks them back on
    // downloads, which S3-compatible services refuse or do not send: only where S3 requires one.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 30_000 },
  };
}

const statusOf = (error: unknown) =>
  (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
const isMissing = (error: unknown) =>
  ['NoSuchKey', 'NotFound'].includes((error as Error).name) || statusOf(error) === 404;

/** Objects are written without an ACL (the bucket's owner only) and read through the app. */
export function createS3FileStore(config: S3StoreConfig): S3FileStore {
  const client = new S3Client(clientConfig(config));
  const Bucket = config.bucket;
  const checked = (key: string) => {
    if (!isStoredFileKey(key)) throw new Error(`Not a stored file's key: ${key}`);
    return key;
  };
  return {
    kind: 's3',
    async put(key, bytes) {
      await client.send(
        new PutObjectCommand({
          Bucket,
          Key: checked(key),
          Body: bytes,
          ContentLength: bytes.length,
          ContentType: storedFileType(key),
        }),
      );
    },
    async get(key): Promise<StoredFile | null> {
      if (!isStoredFileKey(key)) return null;
      try {
        const object = await client.send(new GetObjectCommand({ Bucket, Key: key }));
        if (!object.Body) return null;
        return {
          body: object.Body as Readable,
          bytes: object.ContentLength ?? 0,
          etag: object.ETag ?? `"${object.ContentLength ?? 0}"`,
        };
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async size(key) {
      if (!isStoredFileKey(key)) return null;
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket, Key: key }));
        return head.ContentLength ?? 0;
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async delete(key) {
      // S3 answers 204 for a key that is already gone.
      await client.send(new DeleteObjectCommand({ Bucket, Key: checked(key) }));
    },
    async check() {
      await client.send(new HeadBucketCommand({ Bucket }));
    },
    async assertNotListable() {
      const anonymous = new S3Client({
        ...clientConfig(config),
        credentials: { accessKeyId: '', secretAccessKey: '' },
        // Sent unsigned, as anyone on the internet would.
        signer: { sign: async (request) => request },
      });
      try {
        await anonymous.send(new ListObjectsV2Command({ Bucket, MaxKeys: 1 }));
      } catch (error) {
        // Refused (403, or 400/401 from services that want a signature): private, as it must be.
        const status = statusOf(error);
        if (status !== undefined && status >= 400 && status < 500 && status !== 404) return;
        throw error;
      } finally {
        anonymous.destroy();
      }
      throw new ListableBucketError(
        `The bucket ${Bucket} can be listed without credentials: anyone could find every stored file. Make it private (block public access; no anonymous "list" in its policy).`,
      );
    },
    close() {
      client.destroy();
    },
  };
}
