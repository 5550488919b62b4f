import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type CliIo, runCli } from '../../src/cli.ts';
import type { DatabaseHandle } from '../../src/db/client.ts';
import type { Mailer } from '../../src/platform/mail/mailer.ts';
import { serverDir } from './server-process.ts';
import type { TestApp } from './test-app.ts';

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs an operator command in process on the test app's database (never closed or migrated by
 * the command), with the app's configuration unless `env` is given instead, and returns its exit
 * code and what it printed.
 */
export async function runCliOn(
  t: TestApp,
  argv: readonly string[],
  options: { mailer?: Mailer; now?: () => Date; env?: NodeJS.ProcessEnv } = {},
): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const database: DatabaseHandle = {
    db: t.db,
    kind: t.database.kind,
    migrate: async () => {},
    close: async () => {},
  };
  const io: CliIo = {
    env: options.env ?? {},
    ...(options.env ? {} : { config: t.config }),
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    database,
    ...(options.mailer ? { mailer: options.mailer } : {}),
    ...(options.now ? { now: options.now } : {}),
  };
  const code = await runCli(argv, io);
  return { code, stdout, stderr };
}

const cliEntry = join(serverDir, 'src', 'cli.ts');
/** tsx's loader by its path, for a CLI started from a folder outside the project. */
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/**
 * `npm run dukkan -- …` as the operator runs it: a process with only the environment given (in
 * `cwd`, the server's folder by default), added to `children` while it runs; its exit code and
 * what it printed.
 */
export function runCliProcess(
  argv: string[],
  env: Record<string, string>,
  options: { cwd?: string; children?: ChildProcess[] } = {},
): Promise<Omit<CliRun, 'code'> & { code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', tsxLoader, cliEntry, ...argv], {
      cwd: options.cwd ?? serverDir,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_ENV: 'test', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    options.children?.push(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** `app create` options of a valid public client (any of them replaced or added by `extra`). */
export function appCreateArgs(clientId: string, extra: string[] = []): string[] {
  return [
    'app',
    'create',
    '--client-id',
    clientId,
    '--name-en',
    'Point of sale',
    '--name-ar',
    'نقطة البيع',
    '--home-url',
    'https://pos.example/',
    '--redirect-uri',
    'https://pos.example/callback',
    '--redirect-uri',
    'http://localhost:4000/cb',
    '--type',
    'public',
    '--currency',
    'EGP',
    '--monthly-price',
    '25000',
    '--discount',
    'quarterly=500',
    '--discount',
    'annually=2000',
    '--trial-days',
    '14',
    ...extra,
  ];
}
