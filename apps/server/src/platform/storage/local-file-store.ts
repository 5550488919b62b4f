import { constants } from 'node:fs';
import { access, mkdir, open, readdir, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { type FileStore, isStoredFileKey, type StoredFile } from './file-store.ts';
import { privateFileMode, privateFolderMode } from './private-files.ts';

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

/**
 * The embedded default: files under `DATA_DIR/uploads/`, one folder per workspace and `platform/`,
 * readable by the server's OS account only (private-files.ts). A key outside the naming scheme
 * is refused before it becomes a path, so no key reaches outside the folder.
 */
export function createLocalFileStore(dir: string): FileStore {
  const location = (key: string) => {
    if (!isStoredFileKey(key)) throw new Error(`Not a stored file's key: ${key}`);
    return join(dir, key);
  };
  return {
    kind: 'local',
    async put(key, bytes) {
      const path = location(key);
      await mkdir(dirname(path), { recursive: true, mode: privateFolderMode });
      await writeFile(path, bytes, { flag: 'wx', mode: privateFileMode });
    },
    async get(key): Promise<StoredFile | null> {
      if (!isStoredFileKey(key)) return null;
      let handle: Awaited<ReturnType<typeof open>>;
      try {
        handle = await open(location(key), 'r');
      } catch (error) {
        if (isMissing(error) || (error as NodeJS.ErrnoException).code === 'EISDIR') return null;
        throw error;
      }
      const info = await handle.stat();
      if (!info.isFile()) {
        await handle.close();
        return null;
      }
      // The open handle is streamed: a removal in between cannot turn it into a missing file.
      const body = handle.createReadStream();
      return {
        body,
        bytes: info.size,
        etag: `"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`,
      };
    },
    async size(key) {
      if (!isStoredFileKey(key)) return null;
      try {
        const info = await stat(location(key));
        return info.isFile() ? info.size : null;
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async delete(key) {
      await unlink(location(key)).catch((error: unknown) => {
        if (!isMissing(error)) throw error;
      });
    },
    // The folder is made when the store is opened; one gone since (a volume unmounted) is reported,
    // not made again on the disk beneath it.
    async check() {
      if (!(await stat(dir)).isDirectory()) throw new Error(`${dir} is not a folder`);
      await access(dir, constants.R_OK | constants.W_OK);
    },
  };
}

/**
 * Every stored file of an uploads folder, by key with its size: the files that follow the naming
 * scheme (anything else there is left out), folder by folder in name order.
 */
export async function* localStoredFiles(dir: string): AsyncGenerator<{ key: string; bytes: number }> {
  const folders = (await readdir(dir, { withFileTypes: true }).catch((error: unknown) => {
    if (isMissing(error)) return [];
    throw error;
  })) as { name: string; isDirectory(): boolean }[];
  for (const folder of folders.filter((entry) => entry.isDirectory()).sort(byName)) {
    const files = await readdir(join(dir, folder.name), { withFileTypes: true });
    for (const file of files.filter((entry) => entry.isFile()).sort(byName)) {
      const key = `${folder.name}/${file.name}`;
      if (!isStoredFileKey(key)) continue;
      const info = await stat(join(dir, key));
      yield { key, bytes: info.size };
    }
  }
}

const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
