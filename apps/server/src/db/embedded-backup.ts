import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { privateFolderMode, tightenPrivateTree } from '../platform/storage/private-files.ts';
import { pgliteDataPath } from './client.ts';
import { lockDataDir } from './lock.ts';

/**
 * Putting back a copy of the embedded database (`DatabaseHandle.copy`, the operator's `backup`)
 * into DATA_DIR. It holds the folder's lock throughout, so it never runs beside a server on it.
 */

/** DATA_DIR already holds a database and replacing it was not asked for. */
export class DataDirNotEmptyError extends Error {
  override name = 'DataDirNotEmptyError';
  constructor(readonly folder: string) {
    super(`${folder} already holds a database; add --force to replace it with the backup`);
  }
}

/** True when the folder exists and has something in it. */
function holdsSomething(folder: string): boolean {
  return existsSync(folder) && readdirSync(folder).length > 0;
}

/**
 * Restores `archive` as DATA_DIR's embedded database. The copy is unpacked and opened beside the
 * current folder first, and takes its place only once it opens: a damaged archive leaves DATA_DIR
 * as it was. Throws DataDirLockedError while another process holds DATA_DIR, DataDirNotEmptyError
 * when a database is there and `force` is not set.
 */
export async function restoreEmbeddedDatabase(
  dataDir: string,
  archive: Blob,
  options: { force: boolean },
): Promise<void> {
  const lock = await lockDataDir(dataDir);
  try {
    const target = pgliteDataPath(dataDir);
    if (holdsSomething(target) && !options.force) throw new DataDirNotEmptyError(target);
    const unpacked = `${target}.restoring`;
    const replaced = `${target}.replaced`;
    rmSync(unpacked, { recursive: true, force: true });
    mkdirSync(unpacked, { recursive: true, mode: privateFolderMode });
    try {
      const client = new PGlite(unpacked, { extensions: { pg_trgm }, loadDataDir: archive });
      await client.waitReady;
      await client.query('select 1');
      await client.close();
    } catch (error) {
      rmSync(unpacked, { recursive: true, force: true });
      throw error;
    }
    // PGlite writes its files 0666 whatever the umask (see client.ts).
    tightenPrivateTree(unpacked);
    rmSync(replaced, { recursive: true, force: true });
    if (existsSync(target)) renameSync(target, replaced);
    renameSync(unpacked, target);
    rmSync(replaced, { recursive: true, force: true });
  } finally {
    lock.release();
  }
}
