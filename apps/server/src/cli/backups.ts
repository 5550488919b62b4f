/**
 * The operator's backup commands for the embedded database. `backup` runs where the database is
 * open (in the running server, through its socket, or here); `restore` replaces DATA_DIR's
 * database and so runs here only, never beside a server. PostgreSQL has its own tools (README).
 */
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import type { Config } from '../config.ts';
import { DataDirNotEmptyError, restoreEmbeddedDatabase } from '../db/embedded-backup.ts';
import { DataDirLockedError } from '../db/lock.ts';
import { privateFileMode } from '../platform/storage/private-files.ts';
import { type CommandGroup, type CommandSpec, UsageError } from './command.ts';

/** A backup command asked of a PostgreSQL database, whose copies pg_dump makes. */
class NotEmbeddedError extends UsageError {
  constructor(command: 'backup' | 'restore') {
    super(
      `${command} is for the embedded database; with DATABASE_URL use ${command === 'backup' ? 'pg_dump' : 'pg_restore'} (README, "Backup and restore")`,
    );
  }
}

/** The backup file named on the command line (absolute once sent to a server). */
function fileArgument(positionals: string[]): string {
  const file = positionals[0] ?? '';
  if (file === '') throw new UsageError('Name the backup file');
  return file;
}

function megabytes(bytes: number): string {
  return (bytes / (1024 * 1024)).toFixed(1);
}

function requireEmbedded(config: Config, command: 'backup' | 'restore') {
  if (config.database.kind !== 'pglite') throw new NotEmbeddedError(command);
}

const commands = {
  backup: {
    options: {},
    positionals: ['file'],
    run(args) {
      const file = fileArgument(args.positionals);
      return async (context) => {
        requireEmbedded(context.config, 'backup');
        if (!context.database.copy) throw new NotEmbeddedError('backup');
        if (existsSync(file)) throw new UsageError(`${file} exists; name a new file`);
        const archive = Buffer.from(await (await context.database.copy()).arrayBuffer());
        // Written whole or not at all: a file by that name is always a complete backup. It holds
        // password hashes and every workspace's data: readable by this account only.
        const partial = `${file}.partial`;
        try {
          writeFileSync(partial, archive, { mode: privateFileMode, flag: 'wx' });
          renameSync(partial, file);
        } catch (error) {
          rmSync(partial, { force: true });
          throw error;
        }
        context.io.stdout(
          `Backup of the embedded database written to ${file} (${megabytes(archive.length)} MB). Uploaded files are not in it: copy ${uploadedFilesPlace(context.config)} too.\n`,
        );
      };
    },
  },
  restore: {
    options: { force: { type: 'boolean' } },
    positionals: ['file'],
    local: true,
    run(args) {
      const file = fileArgument(args.positionals);
      const force = args.values.force === true;
      return async ({ config, io }) => {
        // Never in a server (one handed it through its socket): it replaces the server's database.
        if (io.database) throw new RestoreRefusedError('restore runs from the command line, not in a server');
        requireEmbedded(config, 'restore');
        if (!existsSync(file)) throw new UsageError(`${file} does not exist`);
        try {
          await restoreEmbeddedDatabase(config.dataDir, new Blob([readFileSync(file)]), { force });
        } catch (error) {
          if (error instanceof DataDirLockedError) {
            throw new RestoreRefusedError(
              `${error.message}. restore replaces the database: stop the server first`,
            );
          }
          throw error;
        }
        io.stdout(
          `Restored the embedded database in ${config.dataDir} from ${file}. Put the uploaded files back in ${uploadedFilesPlace(config)} if they were lost too, then start the server.\n`,
        );
      };
    },
  },
} satisfies Record<string, CommandSpec>;

/** restore refused because a process holds DATA_DIR: one line, exit code 1. */
/** Where the uploaded files are kept: the uploads folder, or the bucket. */
function uploadedFilesPlace(config: Config): string {
  return config.fileStore.kind === 's3' ? `the bucket ${config.fileStore.bucket}` : config.uploads.dir;
}

export class RestoreRefusedError extends Error {
  override name = 'RestoreRefusedError';
}

export const backupCommands: CommandGroup<keyof typeof commands> = {
  commands,
  inputErrors: [DataDirNotEmptyError],
};
