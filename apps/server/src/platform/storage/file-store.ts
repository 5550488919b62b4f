import type { Readable } from 'node:stream';
import { filesPathPrefix } from '@dukkan/contract';

/**
 * Where the uploads and the platform's files (applications' logos) are kept: the local folder
 * `DATA_DIR/uploads/` (the embedded default, `local-file-store.ts`) or an S3-compatible bucket
 * (`s3-file-store.ts`), chosen by the configuration. The features use only this interface; both
 * drivers keep the same keys, so a folder copied into a bucket (`copy-uploads`) is served as it was.
 *
 * A key is a stored file's address without `/files/`: `<workspace id>/<random>.<ext>` for an
 * upload, `platform/<random>.<ext>` for a platform file (`storedFileKey`); an import's file,
 * `imports/<workspace id>/<random>.<csv|xlsx>`, is kept only until its job ends and is never
 * served. Nothing else is ever written, served or removed, and the store is never listed to
 * serve a file.
 */
export interface FileStore {
  readonly kind: 'local' | 's3';
  /** Writes a new file under `key` (a new random name: an existing one is never replaced). */
  put(key: string, bytes: Buffer): Promise<void>;
  /** The file to stream, or null when there is none. */
  get(key: string): Promise<StoredFile | null>;
  /** The file's size in bytes, or null when there is none. */
  size(key: string): Promise<number | null>;
  /** Removes the file; one already gone is fine (another instance's clean-up, a retry). */
  delete(key: string): Promise<void>;
  /**
   * Throws when the store cannot answer (the folder is not writable, the bucket is unreachable or
   * refuses the credentials): what the readiness probe asks.
   */
  check(): Promise<void>;
}

export interface StoredFile {
  body: Readable;
  bytes: number;
  /** A validator for conditional requests (quoted, as in the `ETag` header). */
  etag: string;
}

/** An upload's key: `<workspace id>/<uuid>.<ext>`. */
const uploadKeyPattern = /^([0-9a-f-]{36})\/([0-9a-f-]{36}\.[a-z0-9]{2,5})$/;
/** A platform file's key: `platform/<uuid>.<png|jpg|webp|svg>`. */
const platformKeyPattern = /^platform\/[0-9a-f-]{36}\.(png|jpg|webp|svg)$/;

/** An import's file, `imports/<workspace id>/<uuid>.<csv|xlsx>`. */
const importKeyPattern = /^imports\/[0-9a-f-]{36}\/[0-9a-f-]{36}\.(csv|xlsx)$/;

export type StoredFileKind = 'upload' | 'platform' | 'import';

const keyPatterns: Record<StoredFileKind, RegExp> = {
  upload: uploadKeyPattern,
  platform: platformKeyPattern,
  import: importKeyPattern,
};

/**
 * The key of a stored file's address (`/files/<key>`), or null for any address outside the
 * naming scheme: such a key is never read from, written to nor removed from the store.
 */
export function storedFileKey(address: string, kind?: 'upload' | 'platform'): string | null {
  if (!address.startsWith(filesPathPrefix)) return null;
  const key = address.slice(filesPathPrefix.length);
  return kind ? (isStoredFileKey(key, kind) ? key : null) : isServedFileKey(key) ? key : null;
}

/** Whether a key follows the naming scheme (of `kind`, or of any). */
export function isStoredFileKey(key: string, kind?: StoredFileKind): boolean {
  if (kind) return keyPatterns[kind].test(key);
  return Object.values(keyPatterns).some((pattern) => pattern.test(key));
}

/** Whether a key is one `/files/` serves: an upload or a platform file, never an import's file. */
export function isServedFileKey(key: string): boolean {
  return isStoredFileKey(key, 'upload') || isStoredFileKey(key, 'platform');
}

/** A new key for an import's file in a workspace. */
export function importFileKey(workspaceId: string, id: string, format: 'csv' | 'xlsx'): string {
  return `imports/${workspaceId}/${id}.${format}`;
}

const contentTypes: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  svg: 'image/svg+xml',
};

/** A stored file's type, from its extension (checked against its content when it was stored). */
export function storedFileType(key: string): string {
  return contentTypes[key.slice(key.lastIndexOf('.') + 1)] ?? 'application/octet-stream';
}

/**
 * Where the browser fetches stored files from: the one place that names the file store's public
 * address. Both drivers are served by the app itself under `/files/` (the bucket stays private,
 * decision 0025), so this is the app's own origin and the content security policy's `img-src`
 * stays `'self'`; a store with an origin of its own (a CDN) would return that origin here.
 */
export function fileStorePublicUrl(config: { publicUrl: string }): URL {
  return new URL(filesPathPrefix, `${config.publicUrl}/`);
}
