import { createHash } from 'node:crypto';
import {
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { privateFileMode, privateFolderMode } from '../platform/storage/private-files.ts';

/**
 * PGlite has no lock of its own: two processes on one folder both write and corrupt it. The
 * server therefore takes this lock before opening the folder.
 *
 * On Linux the lock is an abstract unix socket named after the folder: binding it is atomic and
 * the kernel frees it when the process dies, even by kill -9, so there is no stale lock and no
 * pid to mistake. The pid file beside it only names the holder in the error message. Elsewhere
 * the pid file is the lock (created with O_EXCL; one left by a dead process is taken over).
 */
export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holderPid: number,
  ) {
    super(
      `DATA_DIR ${dataDir} is in use by another Dukkan process (pid ${holderPid}); stop it or choose another DATA_DIR`,
    );
    this.name = 'DataDirLockedError';
  }
}

export interface DataDirLock {
  release(): void;
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else, so it is alive.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readHolder(lockPath: string): number {
  try {
    return Number.parseInt(readFileSync(lockPath, 'utf8'), 10);
  } catch {
    return Number.NaN;
  }
}

/** Binds the abstract socket; false when another live process holds it. */
function bindAbstractSocket(name: string): Promise<Server | false> {
  return new Promise((resolve, reject) => {
    const server = createServer((connection) => connection.destroy());
    server.once('error', (error: NodeJS.ErrnoException) =>
      error.code === 'EADDRINUSE' ? resolve(false) : reject(error),
    );
    server.listen(`\0${name}`, () => {
      server.unref();
      resolve(server);
    });
  });
}

/** The lock's pid file in DATA_DIR. */
export function dataDirLockPath(dataDir: string): string {
  return join(dataDir, 'dukkan.lock');
}

export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  mkdirSync(dataDir, { recursive: true, mode: privateFolderMode });
  const lockPath = dataDirLockPath(dataDir);
  if (process.platform === 'linux') {
    const folder = createHash('sha256').update(realpathSync(dataDir)).digest('hex');
    const socket = await bindAbstractSocket(`dukkan-data-dir-${folder}`);
    if (!socket) throw new DataDirLockedError(dataDir, readHolder(lockPath));
    writeFileSync(lockPath, String(process.pid), { mode: privateFileMode });
    return releasedOnce(lockPath, () => socket.close());
  }
  return lockWithPidFile(dataDir, lockPath);
}

/** A lock whose release, the first time only, removes the pid file and then runs `alsoRelease`. */
function releasedOnce(lockPath: string, alsoRelease?: () => void): DataDirLock {
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      rmSync(lockPath, { force: true });
      alsoRelease?.();
    },
  };
}

function lockWithPidFile(dataDir: string, lockPath: string): DataDirLock {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx', privateFileMode);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return releasedOnce(lockPath);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readHolder(lockPath);
      if (isAlive(holder)) throw new DataDirLockedError(dataDir, holder);
      rmSync(lockPath, { force: true }); // stale: its process is gone
    }
  }
  throw new Error(`Could not lock DATA_DIR ${dataDir}`);
}
