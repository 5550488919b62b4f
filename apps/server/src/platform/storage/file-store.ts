import { filesPathPrefix } from '@dukkan/contract';

/**
 * Where the browser fetches stored files from: the one place that names the file store's public
 * address. The local driver (uploads in `DATA_DIR/uploads/`) is served by the app itself under
 * `/files/`; a store with an origin of its own (an S3 bucket, a CDN) returns that origin here, and
 * the content security policy's `img-src` follows it.
 */
export function fileStorePublicUrl(config: { publicUrl: string }): URL {
  return new URL(filesPathPrefix, `${config.publicUrl}/`);
}
