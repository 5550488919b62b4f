import { mkdir } from 'node:fs/promises';
import { ConfigError } from '../../config-error.ts';
import type { FileStore } from './file-store.ts';
import { createLocalFileStore } from './local-file-store.ts';
import { privateFolderMode } from './private-files.ts';
import { createS3FileStore, ListableBucketError, type S3StoreConfig } from './s3-file-store.ts';

/** The configured driver: the uploads folder, or an S3-compatible bucket (S3_BUCKET). */
export type FileStoreConfig = { kind: 'local'; dir: string } | ({ kind: 's3' } & S3StoreConfig);

/** A store and what releases it (the S3 client's connections). */
export interface OpenedFileStore extends FileStore {
  close(): void;
}

/**
 * Opens the configured store. A bucket that anyone can list is refused here (a `ConfigError`),
 * before anything is stored in it or served from it; so is one that cannot be reached to ask (as an unreachable
 * database stops the start). Later outages are the readiness probe's (`check`).
 */
export async function openFileStore(config: FileStoreConfig): Promise<OpenedFileStore> {
  if (config.kind === 'local') {
    await mkdir(config.dir, { recursive: true, mode: privateFolderMode });
    return { ...createLocalFileStore(config.dir), close() {} };
  }
  const store = createS3FileStore(config);
  try {
    await store.assertNotListable();
  } catch (error) {
    store.close();
    // A configuration to change: said in one line, as a wrong variable is.
    if (error instanceof ListableBucketError)
      throw new ConfigError(`Invalid configuration: S3_BUCKET: ${error.message}`);
    throw error;
  }
  return store;
}
