import { execFile } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { bootstrapDemo } from '../src/bootstrap.ts';
import { runCli } from '../src/cli.ts';
import { askOperatorSocket, operatorSocketPath } from '../src/http/operator-socket.ts';
import { login } from './helpers/api.ts';
import { signInOverHttp, spawnServer } from './helpers/server-process.ts';
import { useTempDirsAndChildren } from './helpers/temp-dirs.ts';
import { createTestApp } from './helpers/test-app.ts';
import { createTestDatabase } from './helpers/test-database.ts';

const { tempDir, children } = useTempDirsAndChildren('dukkan-backup-');

/** An operator command run in this process, as `npm run dukkan -- …` runs it. */
async function dukkan(argv: string[], env: Record<string, string>) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    env: { NODE_ENV: 'test', ...env },
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
  });
  return { code, stdout, stderr };
}

const oneLine = (text: string) => {
  expect(text.trim().split('\n')).toHaveLength(1);
};

describe('backup and restore refuse what they cannot do', () => {
  // The command line's own embedded database, whatever the suite's: skipped in the PostgreSQL run.
  it.skipIf(process.env.DATABASE_URL)(
    'backup: no file named, or a file that exists → exit 2; with no server, the command line writes it itself',
    async () => {
      const dataDir = tempDir();
      expect(await dukkan(['backup'], { DATA_DIR: dataDir })).toMatchObject({
        code: 2,
        stderr: 'backup needs exactly one <file> (see --help)\n',
      });
      const existing = join(dataDir, 'taken.tar.gz');
      writeFileSync(existing, 'an earlier backup');
      // The database opens (the command line's own, no server runs here), then the file is refused.
      const refused = await dukkan(['backup', existing], { DATA_DIR: dataDir });
      expect(refused).toMatchObject({ code: 2, stderr: `${existing} exists; name a new file\n` });
      // A new file is written by the command line itself: no server runs on this DATA_DIR.
      const fresh = join(dataDir, 'fresh.tar.gz');
      const written = await dukkan(['backup', fresh], { DATA_DIR: dataDir });
      expect(written.stderr).toBe('');
      expect(written.code).toBe(0);
      expect(written.stdout).toMatch(/^Backup of the embedded database written to /);
      expect(statSync(fresh).size).toBeGreaterThan(0);
    },
  );

  it('restore: a missing file, or PostgreSQL (DATABASE_URL) → exit 2 naming pg_restore; nothing is created', async () => {
    const dataDir = join(tempDir(), 'data');
    const missing = join(tempDir(), 'missing.tar.gz');
    expect(await dukkan(['restore', missing], { DATA_DIR: dataDir })).toMatchObject({
      code: 2,
      stderr: `${missing} does not exist\n`,
    });
    const onPostgres = await dukkan(['restore', missing], {
      DATA_DIR: dataDir,
      DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
    });
    expect(onPostgres.code).toBe(2);
    oneLine(onPostgres.stderr);
    expect(onPostgres.stderr).toMatch(/with DATABASE_URL use pg_restore/);
    expect(existsSync(dataDir)).toBe(false);
  });
});

// Two starts of a spawned server on the embedded database (the first creates it) and two
// restores, each opening PGlite: 50-80 s on a loaded 2-core machine. The servers it spawns use
// the embedded database whatever the suite's: skipped in the PostgreSQL run, which would repeat it.
describe.skipIf(process.env.DATABASE_URL)(
  'a backup of a running server, restored',
  { timeout: 900_000 },
  () => {
    it('is taken while records are written, restores into a fresh DATA_DIR where the bootstrap admin signs in and finds what was written before it; restore refuses beside a running server and over a database without --force', async () => {
      const dataDir = join(tempDir(), 'data');
      const admin = { email: 'backup-admin@example.com', password: 'Sesame#Open1' };
      const server = spawnServer(
        { DATA_DIR: dataDir, BOOTSTRAP_ADMIN_EMAIL: admin.email, BOOTSTRAP_ADMIN_PASSWORD: admin.password },
        children,
      );
      const address = await server.ready;
      const { cookie, adminWorkspaces } = await signInOverHttp(address, admin);
      const shopId = adminWorkspaces[0]!.id;
      const createBrand = async (name: string) => {
        const response = await fetch(`${address}/api/brands?workspaceId=${shopId}`, {
          method: 'POST',
          headers: { cookie, 'content-type': 'application/json' },
          body: JSON.stringify({ name: [{ locale: 'en', value: name }] }),
        });
        expect(response.status, await response.clone().text()).toBe(201);
      };
      await createBrand('Written before the backup');

      // Two clients keep writing while the backup is taken.
      const written: string[] = [];
      let writing = true;
      const writer = async (client: string) => {
        for (let index = 0; writing; index++) {
          const name = `During ${client} ${index}`;
          await createBrand(name);
          written.push(name);
        }
      };
      const writers = [writer('a'), writer('b')];
      while (written.length < 4) await new Promise((resolve) => setTimeout(resolve, 10));
      const file = join(tempDir(), 'dukkan.tar.gz');
      const writtenBeforeBackup = written.length;
      // The command line's environment names only DATA_DIR: the server holds the embedded
      // database, so the backup succeeds only by running in the server, through its socket.
      const backedUp = await dukkan(['backup', file], { DATA_DIR: dataDir });
      const writtenDuringBackup = written.length;
      writing = false;
      await Promise.all(writers);
      expect(backedUp.stderr).toBe('');
      expect(backedUp.code).toBe(0);
      expect(backedUp.stdout).toMatch(
        new RegExp(
          `^Backup of the embedded database written to ${file} \\(\\d+\\.\\d MB\\)\\. Uploaded files are not in it: copy ${join(dataDir, 'uploads')} too\\.\\n$`,
        ),
      );
      // Private: it holds password hashes and every workspace's data.
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(existsSync(`${file}.partial`)).toBe(false);

      // Restore replaces the database: refused while the server runs on that DATA_DIR.
      const beside = await dukkan(['restore', file, '--force'], { DATA_DIR: dataDir });
      expect(beside.code).toBe(1);
      oneLine(beside.stderr);
      expect(beside.stderr).toContain(
        `DATA_DIR ${dataDir} is in use by another Dukkan process (pid ${server.child.pid})`,
      );
      expect(beside.stderr).toMatch(/restore replaces the database: stop the server first/);
      // Nor does the server run it when asked through its socket.
      let socketErrors = '';
      const asked = await askOperatorSocket(operatorSocketPath(dataDir), ['restore', file, '--force'], {
        stdout: () => {},
        stderr: (text) => {
          socketErrors += text;
        },
      });
      expect(asked).toEqual({ served: true, code: 1 });
      expect(socketErrors).toBe('restore runs from the command line, not in a server\n');
      expect(await server.stop()).toBe(0);

      // Over a database, only with --force.
      const over = await dukkan(['restore', file], { DATA_DIR: dataDir });
      expect(over).toMatchObject({
        code: 2,
        stderr: `${join(dataDir, 'pgdata')} already holds a database; add --force to replace it with the backup\n`,
      });
      const forced = await dukkan(['restore', file, '--force'], { DATA_DIR: dataDir });
      expect(forced.stderr).toBe('');
      expect(forced.code).toBe(0);
      expect(readdirSync(dataDir).filter((name) => name.startsWith('pgdata'))).toEqual(['pgdata']);

      // Into a fresh DATA_DIR, then a server on it, started without the bootstrap admin's variables.
      const restoredDir = join(tempDir(), 'restored');
      const restored = await dukkan(['restore', file], { DATA_DIR: restoredDir });
      expect(restored.stderr).toBe('');
      expect(restored.code).toBe(0);
      expect(restored.stdout).toBe(
        `Restored the embedded database in ${restoredDir} from ${file}. Put the uploaded files back in ${join(restoredDir, 'uploads')} if they were lost too, then start the server.\n`,
      );
      const again = spawnServer({ DATA_DIR: restoredDir }, children);
      const againAddress = await again.ready;
      const signedIn = await signInOverHttp(againAddress, admin);
      expect(signedIn.adminWorkspaces.map((workspace) => workspace.id)).toEqual([shopId]);
      const names: string[] = [];
      for (let page = 1; ; page++) {
        const listed = await fetch(
          `${againAddress}/api/brands?workspaceId=${shopId}&pageSize=100&page=${page}`,
          {
            headers: { cookie: signedIn.cookie },
          },
        );
        expect(listed.status, await listed.clone().text()).toBe(200);
        const brands = ((await listed.json()) as { data: { name: { value: string }[] }[] }).data;
        names.push(...brands.map((brand) => brand.name[0]!.value));
        if (brands.length < 100) break;
      }
      expect(names).toContain('Written before the backup');
      // What the clients saw written before the backup started is in it; what is in it besides, a
      // client saw succeed, by the time the backup ended or in the answer then under way (one per
      // client): whole writes only.
      const during = names.filter((name) => name.startsWith('During '));
      expect(during).toEqual(expect.arrayContaining(written.slice(0, writtenBeforeBackup)));
      for (const name of during) expect(written).toContain(name);
      expect(during.length).toBeLessThanOrEqual(writtenDuringBackup + writers.length);
      expect(await again.stop()).toBe(0);
    });
  },
);

describe.runIf(process.env.DATABASE_URL)(
  "PostgreSQL: README's pg_dump and pg_restore lines (PostgreSQL only)",
  () => {
    it("a dump restored into an empty database serves the bootstrap admin; the operator's backup names pg_dump", async () => {
      const admin = { email: 'pg-backup-admin@example.com', password: 'Sesame#Open1' };
      const source = await createTestDatabase();
      const target = await createTestDatabase({ migrated: false });
      try {
        expect((await bootstrapDemo(source.db, admin)).created).toBe(true);
        const file = join(tempDir(), 'dukkan.dump');
        // The operator's backup is the embedded database's: on PostgreSQL it names pg_dump.
        const refused = await dukkan(['backup', file], { DATA_DIR: tempDir(), DATABASE_URL: source.url! });
        expect(refused.code).toBe(2);
        oneLine(refused.stderr);
        expect(refused.stderr).toMatch(/^backup is for the embedded database; with DATABASE_URL use pg_dump/);
        expect(existsSync(file)).toBe(false);
        const run = promisify(execFile);
        await run('pg_dump', ['--format=custom', `--file=${file}`, source.url!]);
        await run('pg_restore', ['--no-owner', `--dbname=${target.url!}`, file]);
        // The restored database is migrated as it was (nothing left to apply) and serves sign-in.
        await target.migrate();
        const restored = await createTestApp({ database: target });
        try {
          await login(restored.app, admin);
        } finally {
          await restored.close();
        }
      } finally {
        await target.close();
        await source.close();
      }
    });
  },
);
