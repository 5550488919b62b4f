import { type CliIo, runCli } from '../../src/cli.ts';
import type { DatabaseHandle } from '../../src/db/client.ts';
import type { Mailer } from '../../src/platform/mail/mailer.ts';
import type { TestApp } from './test-app.ts';

export interface CliRun {
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
