import { chmodSync, lstatSync, readdirSync, type Stats, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * DATA_DIR holds the embedded database (sessions, password-reset tokens, the OAuth signing keys),
 * the uploads and the outbox (mails with live links): only the server's OS account may read or
 * write any of it. Three measures, because none covers everything on its own:
 *
 * - the process umask 077 (`usePrivateUmask`, first thing in the server and the CLI): what the
 *   libraries create (PGlite's relation files, WAL segments and folders) gets no group or other
 *   permission;
 * - explicit modes (`privateFolderMode`, `privateFileMode`) where Dukkan creates a folder or file
 *   itself: they hold where the umask is not ours (the app built in process by the tests);
 * - `tightenPrivateTree`, which removes group and other permissions from what exists: PGlite
 *   chmods the files its initdb writes to 0666 and postmaster.pid to 0644, which no umask
 *   prevents, and a folder made by an older version (or by hand) is still open.
 *
 * Windows has no such modes (ACLs decide): everything here does nothing there.
 */
export const privateFolderMode = 0o700;
export const privateFileMode = 0o600;
const groupAndOther = 0o077;

const modesApply = () => process.platform !== 'win32';

/** New files and folders of this process: no permission for group or other. */
export function usePrivateUmask(): void {
  if (modesApply()) process.umask(groupAndOther);
}

export interface Tightened {
  /** Entries whose group or other permission bits were removed. */
  changed: number;
  /** Entries that could not be changed or read (owned by another account, say). */
  failed: number;
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException).code;
}

/** Counts a failure, unless the entry is gone in between (a temporary file of the database). */
function failure(result: Tightened, error: unknown): void {
  if (errorCode(error) !== 'ENOENT') result.failed += 1;
}

/** Removes the group and other bits of one entry (a folder, a file or a socket). */
function tightenEntry(path: string, stats: Stats, result: Tightened): void {
  if (!stats.isDirectory() && !stats.isFile() && !stats.isSocket()) return;
  const mode = stats.mode & 0o7777;
  if ((mode & groupAndOther) === 0) return;
  try {
    chmodSync(path, mode & ~groupAndOther);
    result.changed += 1;
  } catch (error) {
    failure(result, error);
  }
}

/**
 * Removes the group and other permission bits of `path` and, for a folder, of everything in it,
 * without following symbolic links (a link is neither changed nor entered). Only these bits
 * change: a folder 0777 becomes 0700, a file 0666 0600, a file 0600 is left as it is.
 */
export function tightenPrivateTree(path: string, result: Tightened = { changed: 0, failed: 0 }): Tightened {
  if (!modesApply()) return result;
  const pending = [path];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    let stats: Stats;
    try {
      stats = lstatSync(next);
    } catch (error) {
      failure(result, error);
      continue;
    }
    tightenEntry(next, stats, result);
    if (!stats.isDirectory()) continue;
    try {
      for (const name of readdirSync(next)) pending.push(join(next, name));
    } catch (error) {
      failure(result, error);
    }
  }
  return result;
}

/**
 * Makes DATA_DIR private to this account: the folder itself (followed if it is a link to a
 * volume), and the entries Dukkan owns in it (`owned`, absolute paths) with everything in them.
 * Whatever else its owner keeps there is left as it is (the folder's own mode already shuts it).
 */
export function tightenDataDir(dataDir: string, owned: readonly string[]): Tightened {
  const result: Tightened = { changed: 0, failed: 0 };
  if (!modesApply()) return result;
  try {
    const stats = statSync(dataDir);
    if (!stats.isDirectory()) return result;
    tightenEntry(dataDir, stats, result);
  } catch (error) {
    failure(result, error);
    return result;
  }
  for (const path of owned) tightenPrivateTree(path, result);
  return result;
}
