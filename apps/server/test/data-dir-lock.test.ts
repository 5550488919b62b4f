import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../src/db/client.ts';
import { DataDirLockedError, lockDataDir } from '../src/db/lock.ts';
import { serverDir, spawnServer } from './helpers/server-process.ts';
import { useTempDirsAndChildren } from './helpers/temp-dirs.ts';

// What a refused open did, counted without measuring time: how often it tried to take the lock
// (on Linux each try binds a socket), and whether it went on to open the embedded database.
const opened = vi.hoisted(() => ({ databases: 0 }));
vi.mock('node:net', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:net')>();
  return { ...actual, createServer: vi.fn(actual.createServer) };
});
vi.mock('@electric-sql/pglite', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@electric-sql/pglite')>();
  const PGlite = new Proxy(actual.PGlite, {
    construct(target, args, newTarget) {
      opened.databases += 1;
      return Reflect.construct(target, args, newTarget);
    },
  });
  return { ...actual, PGlite };
});

const holderScript = join(serverDir, 'test', 'fixtures', 'hold-data-dir.ts');

const { tempDir: tempDataDir, children } = useTempDirsAndChildren('dukkan-lock-');

/** Starts another process that opens the folder, and resolves once it holds it. */
async function startHolder(dataDir: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', holderScript, dataDir], {
    cwd: serverDir,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  children.push(child);
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    errors += chunk.toString();
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('ready')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`holder exited with ${code}: ${errors}`)));
  });
  return child;
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.on('exit', () => resolve());
  });
}

/** The pid of a process that has certainly ended. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await exited(child);
  return child.pid!;
}

// Each holder is a process of its own that creates or opens an embedded database: 19 s on a
// loaded 2-core machine for the first test, which went past the suite's 30 s limit in CI. The
// embedded database whatever the suite's: skipped in the PostgreSQL run, which would repeat it.
describe.skipIf(process.env.DATABASE_URL)(
  'the DATA_DIR lock (PGlite has none of its own)',
  { timeout: 120_000 },
  () => {
    /** Initialised once by the first test (a fresh PGlite folder takes seconds to create). */
    let sharedDataDir: string;

    it('a second process on the same folder fails fast with DataDirLockedError; kill -9 leaves a lock that is taken over', async () => {
      sharedDataDir = tempDataDir();
      const dataDir = sharedDataDir;
      const holder = await startHolder(dataDir);
      expect(readFileSync(join(dataDir, 'dukkan.lock'), 'utf8')).toBe(String(holder.pid));

      vi.mocked(createServer).mockClear();
      opened.databases = 0;
      // What the server does in the folder once it holds it (making it private): never for a refused one.
      const whileLocked = vi.fn();
      const error = await openDatabase({ kind: 'pglite', dataDir, whileLocked }).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      if (!(error instanceof DataDirLockedError))
        throw new Error(`expected DataDirLockedError, got ${String(error)}`);
      expect(whileLocked).not.toHaveBeenCalled();
      // Fast without a stopwatch: refused while the holder still runs (it never lets go by itself, so
      // an open that waited for the folder would never get here), on the first try at the lock, and
      // before the embedded database (seconds to start) was opened.
      expect(holder.exitCode).toBeNull();
      if (process.platform === 'linux') expect(createServer).toHaveBeenCalledTimes(1);
      expect(opened.databases).toBe(0);
      expect(error.holderPid).toBe(holder.pid);
      expect(error.message).toContain(dataDir);
      expect(error.message).toContain(`pid ${holder.pid}`);
      expect(error.message).toMatch(/DATA_DIR/);
      // The refused attempt did not remove the holder's lock.
      expect(readFileSync(join(dataDir, 'dukkan.lock'), 'utf8')).toBe(String(holder.pid));

      holder.kill('SIGKILL');
      await exited(holder);
      expect(existsSync(join(dataDir, 'dukkan.lock')), 'kill -9 leaves the lock file').toBe(true);

      const reopened = await openDatabase({ kind: 'pglite', dataDir, whileLocked });
      expect(whileLocked).toHaveBeenCalledTimes(1);
      try {
        expect(readFileSync(join(dataDir, 'dukkan.lock'), 'utf8')).toBe(String(process.pid));
        const result = await reopened.db.execute(sql`select pid from held`);
        expect((result as unknown as { rows: { pid: number }[] }).rows).toEqual([{ pid: holder.pid }]);
      } finally {
        await reopened.close();
      }
      expect(existsSync(join(dataDir, 'dukkan.lock')), 'close releases the lock').toBe(false);
    });

    it('a holder that closes cleanly releases the folder', async () => {
      const dataDir = sharedDataDir;
      const holder = await startHolder(dataDir);
      holder.stdin?.end();
      await exited(holder);
      expect(holder.exitCode).toBe(0);
      expect(existsSync(join(dataDir, 'dukkan.lock'))).toBe(false);
      const lock = await lockDataDir(dataDir);
      lock.release();
    });

    it('a lock file naming a dead process, or garbage, is stale and taken over', async () => {
      const dataDir = tempDataDir();
      for (const content of [String(await deadPid()), 'not a pid', '']) {
        writeFileSync(join(dataDir, 'dukkan.lock'), content);
        const lock = await lockDataDir(dataDir);
        expect(readFileSync(join(dataDir, 'dukkan.lock'), 'utf8')).toBe(String(process.pid));
        lock.release();
        lock.release();
        expect(existsSync(join(dataDir, 'dukkan.lock'))).toBe(false);
      }
    });

    it('a held lock refuses a second holder, even in the same process, until released', async () => {
      const dataDir = tempDataDir();
      const first = await lockDataDir(dataDir);
      await expect(lockDataDir(dataDir)).rejects.toThrow(DataDirLockedError);
      first.release();
      const second = await lockDataDir(dataDir);
      second.release();
    });

    it.runIf(process.platform === 'linux')(
      'on Linux a pid file naming a live, unrelated process (pid reuse after a crash) does not block',
      async () => {
        const dataDir = tempDataDir();
        writeFileSync(join(dataDir, 'dukkan.lock'), String(process.ppid));
        const lock = await lockDataDir(dataDir);
        expect(readFileSync(join(dataDir, 'dukkan.lock'), 'utf8')).toBe(String(process.pid));
        lock.release();
      },
    );

    it('creates a missing folder', async () => {
      const dataDir = join(tempDataDir(), 'nested', 'data');
      const lock = await lockDataDir(dataDir);
      expect(existsSync(join(dataDir, 'dukkan.lock'))).toBe(true);
      lock.release();
    });
  },
);

// Three spawned servers on one new DATA_DIR: the first creates and migrates the embedded database
// (20-40 s on a loaded 2-core machine), the second stops at the lock, the third reopens it. The
// embedded database whatever the suite's: skipped in the PostgreSQL run, which would repeat it.
describe.skipIf(process.env.DATABASE_URL)(
  'servers on one DATA_DIR (spawned processes)',
  { timeout: 300_000 },
  () => {
    it("a second server refuses to start, in one line naming the folder and the first one's pid; once the first is killed with -9, a server starts there", async () => {
      const dataDir = tempDataDir();
      const first = spawnServer({ DATA_DIR: dataDir }, children);
      await first.ready;

      const second = await spawnServer({ DATA_DIR: dataDir }, children).exited;
      expect(second).toEqual({
        code: 1,
        stdout: '',
        stderr: `DATA_DIR ${dataDir} is in use by another Dukkan process (pid ${first.child.pid}); stop it or choose another DATA_DIR\n`,
      });
      expect(first.child.exitCode, 'the first server runs on').toBeNull();

      first.child.kill('SIGKILL');
      await first.exited;
      expect(readFileSync(join(dataDir, 'dukkan.lock'), 'utf8'), 'kill -9 leaves the lock file').toBe(
        String(first.child.pid),
      );
      const third = spawnServer({ DATA_DIR: dataDir }, children);
      await third.ready;
      expect(readFileSync(join(dataDir, 'dukkan.lock'), 'utf8')).toBe(String(third.child.pid));
      expect(await third.stop()).toBe(0);
      expect(existsSync(join(dataDir, 'dukkan.lock')), 'a clean stop releases the lock').toBe(false);
    });
  },
);
