/**
 * What every operator command shares: where it reads and writes, its context once the database
 * and mailer are open, how it parses its arguments, and the helpers several groups use. Each
 * group of commands (`workspaces.ts`, `applications.ts`, `subscriptions.ts`, `maintenance.ts`)
 * exports a table of its commands; `../cli.ts` composes them.
 */

import type { ParseArgsOptionsConfig } from 'node:util';
import { localDate } from '@dukkan/contract';
import { z } from 'zod';
import type { Config } from '../config.ts';
import type { DatabaseHandle } from '../db/client.ts';
import type { MailDelivery } from '../features/workspaces/create-workspace.ts';
import type { Mailer } from '../platform/mail/mailer.ts';
import { type OpenedFileStore, openFileStore } from '../platform/storage/open-file-store.ts';
import { createAppResources } from '../resources.ts';

/** Where the command line reads and writes; replaceable in tests. */
export interface CliIo {
  env: NodeJS.ProcessEnv;
  stdout(text: string): void;
  stderr(text: string): void;
  /** Replaces the configured mail driver. */
  mailer?: Mailer;
  /**
   * An open, migrated database to use instead of the configured one (it is not closed). Without
   * one, a command goes to the server running on DATA_DIR, if any, before opening the database.
   */
  database?: DatabaseHandle;
  /** The configuration to use instead of reading `env` (the server's own, for forwarded commands). */
  config?: Config;
  now?: () => Date;
}

/** Bad input: one line on stderr, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

const requestIdSchema = z.uuid();

export interface CommandContext {
  config: Config;
  database: DatabaseHandle;
  mailer: Mailer;
  io: CliIo;
  now: () => Date;
}

/**
 * A command checks its arguments first (bad input never opens the database) and returns the
 * work to run once the database and mailer are ready.
 */
export type Command = (args: ParsedArgs) => (context: CommandContext) => Promise<void>;
export interface ParsedArgs {
  positionals: string[];
  values: Record<string, string | boolean | undefined>;
}

/** What a command that runs here only, and opens no database, works with. */
export interface LocalCommandContext {
  config: Config;
  io: CliIo;
  now: () => Date;
}
export type LocalCommand = (args: ParsedArgs) => (context: LocalCommandContext) => Promise<void>;

interface CommandSpecBase {
  /** Its options; an option another command takes is still unknown here. */
  options: ParseArgsOptionsConfig;
  /** The positionals it needs, by name; one named `file` is a path (made absolute before sending). */
  positionals: readonly string[];
}

/**
 * One command: its options, the positionals it needs, and what it does. Most run on the database
 * (in the running server when there is one); a `local` one runs in the command line's own process
 * with the operator's environment, never in a server, and opens what it needs itself (`restore`,
 * which replaces the database; `copy-uploads`, which runs before the server is given the bucket).
 */
export type CommandSpec =
  | (CommandSpecBase & { local?: false; run: Command })
  | (CommandSpecBase & { local: true; run: LocalCommand });

/** A group of commands, by name (`app create` is one name), and the errors that are bad input. */
export interface CommandGroup<Name extends string = string> {
  commands: Record<Name, CommandSpec>;
  /** Errors of the group's features that mean bad input: one line on stderr, exit code 2. */
  inputErrors: readonly (abstract new (
    ...args: never[]
  ) => Error)[];
}

/** A status option among `allowed`, or undefined when absent. */
export function statusOption<S extends string>(args: ParsedArgs, allowed: readonly S[]): S | undefined {
  const status = args.values.status;
  if (status !== undefined && !(allowed as readonly unknown[]).includes(status)) {
    throw new UsageError(`--status must be one of ${allowed.join(', ')} (got "${String(status)}")`);
  }
  return status as S | undefined;
}

/**
 * A command that lists rows, optionally only those with `--status` (one of `statuses`): a line a
 * row, then how many (`2 invoices.`), or `No paid invoices.` when there are none. `noun` is the
 * singular (`invoice`).
 */
export function listCommand<S extends string, Row>(list: {
  noun: string;
  statuses: readonly S[];
  rows: (db: DatabaseHandle['db'], status: S | undefined) => Promise<Row[]>;
  line: (row: Row) => string;
}): CommandSpec {
  return {
    options: { status: { type: 'string' } },
    positionals: [],
    run(args) {
      const status = statusOption(args, list.statuses);
      return async (context) => {
        const rows = await list.rows(context.database.db, status);
        if (rows.length === 0) {
          context.io.stdout(status ? `No ${status} ${list.noun}s.\n` : `No ${list.noun}s.\n`);
          return;
        }
        context.io.stdout(
          `${rows.map(list.line).join('\n')}\n${rows.length} ${list.noun}${rows.length === 1 ? '' : 's'}.\n`,
        );
      };
    },
  };
}

export function uuidArgument(args: ParsedArgs, what: string): string {
  const id = args.positionals[0] ?? '';
  if (!requestIdSchema.safeParse(id).success) throw new UsageError(`Not ${what} id: "${id}"`);
  return id;
}

/** A whole number option, or undefined when absent. */
export function integerOption(args: ParsedArgs, name: string): number | undefined {
  const value = args.values[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^\d+$/.test(value)) {
    throw new UsageError(`--${name} must be a whole number (got "${String(value)}")`);
  }
  return Number(value);
}

/** A workspace's date as a day of its calendar (`YYYY-MM-DD` in its time zone). */
export const shortDate = (date: Date | string | null | undefined, timeZone: string) =>
  date ? localDate(new Date(date), timeZone) : '—';

/** What became of a mail: where it went, or a warning (the work is done and any link printed). */
export function reportMail(context: CommandContext, delivery: MailDelivery) {
  if (delivery.failure === null) {
    context.io.stdout(
      context.config.smtpUrl
        ? `Mail sent to ${delivery.to}.\n`
        : `Mail to ${delivery.to} written to the outbox ${context.config.outboxDir}.\n`,
    );
  } else {
    context.io.stderr(`Warning: the mail to ${delivery.to} could not be sent: ${delivery.failure}\n`);
  }
}

/** The database, mail driver and link address the feature functions work with. */
export const services = (context: CommandContext) => ({
  db: context.database.db,
  mailer: context.mailer,
  publicUrl: context.config.publicUrl,
  resources: createAppResources(context.now),
});

/** Runs `work` with the configured file store (the uploads folder or the bucket), closed after. */
export async function withFileStore<T>(
  context: LocalCommandContext,
  work: (store: OpenedFileStore) => Promise<T>,
): Promise<T> {
  const store = await openFileStore(context.config.fileStore);
  try {
    return await work(store);
  } finally {
    store.close();
  }
}
