/**
 * The operator's command line: `npm run dukkan -- <command>`. It reads the same environment
 * as the server (DATA_DIR or DATABASE_URL, PUBLIC_URL, SMTP_URL…) and turns access requests into
 * workspaces. Exit codes: 0 done, 2 bad input, 1 failure.
 * When a server runs on the same DATA_DIR, every command is sent to it over its operator socket
 * (http/operator-socket.ts) and runs there, through this same runCli with the server's database,
 * mailer and configuration; otherwise the command opens and migrates the database itself.
 * It parses, opens and prints; the work itself is the features' (access-requests, workspaces).
 * The commands are grouped in `cli/` (workspaces, applications, subscriptions, maintenance), each
 * group a table of its commands' options, positionals and work; this file composes them.
 */
import { realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { applicationCommands } from './cli/applications.ts';
import { backupCommands, RestoreRefusedError } from './cli/backups.ts';
import { type CliIo, type CommandGroup, type ParsedArgs, UsageError } from './cli/command.ts';
import { helpText } from './cli/help.ts';
import { maintenanceCommands } from './cli/maintenance.ts';
import { peopleCommands } from './cli/people.ts';
import { subscriptionCommands } from './cli/subscriptions.ts';
import { workspaceCommands } from './cli/workspaces.ts';
import { ConfigError, loadConfig } from './config.ts';
import { asAuditActor } from './db/audit-log.ts';
import { type DatabaseHandle, openDatabase } from './db/client.ts';
import { DataDirLockedError } from './db/lock.ts';
import { askOperatorSocket, operatorSocketPath } from './http/operator-socket.ts';
import { createMailer, type Mailer } from './platform/mail/mailer.ts';
import { usePrivateUmask } from './platform/storage/private-files.ts';

export type { CliIo } from './cli/command.ts';
export { helpText } from './cli/help.ts';

/** The command groups; a command's name is unique across them. */
const groups: readonly CommandGroup[] = [
  workspaceCommands,
  applicationCommands,
  subscriptionCommands,
  maintenanceCommands,
  peopleCommands,
  backupCommands,
];
/** The operator's command table, by name. */
export const commands = {
  ...workspaceCommands.commands,
  ...applicationCommands.commands,
  ...subscriptionCommands.commands,
  ...maintenanceCommands.commands,
  ...peopleCommands.commands,
  ...backupCommands.commands,
};
type CommandName = keyof typeof commands;
/** Errors that are bad input (one line on stderr, exit code 2), the groups' and the command line's. */
const inputErrors = [UsageError, ConfigError, ...groups.flatMap((group) => group.inputErrors)];

/**
 * Options naming a file: made absolute against the operator's working folder before the command
 * is sent to a running server, whose own folder may be another.
 */
const fileOptions = new Set(['--logo']);

function parseCommandArgs(command: CommandName, argv: string[]): ParsedArgs {
  let parsed: ParsedArgs;
  try {
    parsed = parseArgs({
      args: argv,
      options: { ...commands[command].options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    // parseArgs explains the problem itself ("Unknown option '--x'"); keep its first line.
    const reason = String((error as Error).message)
      .split('\n')[0]
      ?.replace(/\. To specify a positional.*$/, '');
    throw new UsageError(`${command}: ${reason}`);
  }
  const expected = commands[command].positionals;
  if (parsed.values.help) return parsed;
  if (parsed.positionals.length !== expected.length) {
    throw new UsageError(
      expected.length === 0
        ? `${command} takes no arguments (got "${parsed.positionals.join(' ')}")`
        : `${command} needs exactly one <${expected[0]}> (see --help)`,
    );
  }
  return parsed;
}

function isCommandName(value: string): value is CommandName {
  return Object.hasOwn(commands, value);
}

/**
 * A failure in one line: the innermost cause (the driver's "connect ECONNREFUSED…", not the
 * wrapping "Failed query: …" with its SQL).
 */
function describeFailure(error: unknown): string {
  let current = error;
  for (let depth = 0; depth < 5 && current instanceof Error && current.cause instanceof Error; depth++) {
    current = current.cause;
  }
  const message = current instanceof Error ? current.message : String(current);
  return message.replace(/\s+/g, ' ').trim() || 'unknown error';
}

/** Where in `argv` the command's positionals named `file` are (`argv` starts with the command's words). */
function filePositionalIndexes(argv: readonly string[], command: CommandName): Set<number> {
  const spec = commands[command];
  if (!spec.positionals.includes('file')) return new Set();
  const words = command.split(' ').length;
  const { tokens } = parseArgs({
    args: argv.slice(words),
    options: { ...spec.options, help: { type: 'boolean', short: 'h' } },
    allowPositionals: true,
    strict: true,
    tokens: true,
  });
  const positionals = tokens.filter((token) => token.kind === 'positional');
  return new Set(
    positionals.flatMap((token, position) =>
      spec.positionals[position] === 'file' ? [token.index + words] : [],
    ),
  );
}

/** The argv with every file option's value, and every file positional, made absolute against this process's folder. */
function withAbsoluteFiles(argv: readonly string[], command: CommandName): string[] {
  const filePositionals = filePositionalIndexes(argv, command);
  return argv.map((arg, index) => {
    if (filePositionals.has(index)) return resolve(arg);
    const [option, inline] = arg.split(/=(.*)/s, 2) as [string, string | undefined];
    if (fileOptions.has(option) && inline !== undefined) return `${option}=${resolve(inline)}`;
    return index > 0 && fileOptions.has(argv[index - 1]!) ? resolve(arg) : arg;
  });
}

/** Runs one command and returns its exit code; every message ends up on `io`. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined) {
    io.stderr('No command given. Run `npm run dukkan -- --help` for the list.\n');
    return 2;
  }
  if (first === 'help' || first === '--help' || first === '-h') {
    io.stdout(helpText);
    return 0;
  }
  // `app <subcommand>` is one command of the table, named with its subcommand.
  const [name, options] = first === 'app' && rest[0] ? [`app ${rest[0]}`, rest.slice(1)] : [first, rest];
  if (first === 'app' && (rest[0] === '--help' || rest[0] === '-h')) {
    io.stdout(helpText);
    return 0;
  }
  if (first === 'app' && !isCommandName(name)) {
    io.stderr(
      `app needs one of: list, create, update, secret. Run \`npm run dukkan -- --help\` for their options.\n`,
    );
    return 2;
  }
  if (!isCommandName(name)) {
    io.stderr(`Unknown command "${name}". Run \`npm run dukkan -- --help\` for the list.\n`);
    return 2;
  }

  let database: DatabaseHandle | undefined;
  let mailer: Mailer | undefined;
  let unservedReason: string | undefined;
  try {
    const args = parseCommandArgs(name, options);
    if (args.values.help) {
      io.stdout(helpText);
      return 0;
    }
    const spec = commands[name];
    if (spec.local) {
      // Never sent to a server: it runs here, with this environment (restore replaces DATA_DIR's
      // database; copy-uploads fills the bucket before the server is given it).
      const work = spec.run(args);
      await work({ config: io.config ?? loadConfig(io.env), io, now: io.now ?? (() => new Date()) });
      return 0;
    }
    const work = spec.run(args);
    const config = io.config ?? loadConfig(io.env);
    database = io.database;
    if (!database) {
      // A server on this DATA_DIR runs the command itself (this same function, on its side).
      const answer = await askOperatorSocket(
        operatorSocketPath(config.dataDir),
        withAbsoluteFiles(argv, name),
        io,
      );
      if (answer.served) return answer.code;
      unservedReason = answer.reason;
      database = await openDatabase(config.database);
      await database.migrate();
    }
    mailer =
      io.mailer ??
      createMailer({
        from: config.mailFrom,
        smtpUrl: config.smtpUrl,
        outboxDir: config.outboxDir,
        // Mail problems are reported by the command itself; the driver stays quiet.
        log: pino({ level: 'silent' }),
      });
    // Every change the command makes is on record as the operator's.
    const opened = { config, database, mailer, io, now: io.now ?? (() => new Date()) };
    await asAuditActor('operator', () => work(opened));
    return 0;
  } catch (error) {
    if (inputErrors.some((kind) => error instanceof kind)) {
      io.stderr(`${(error as Error).message}\n`);
      return 2;
    }
    if (error instanceof RestoreRefusedError) {
      io.stderr(`${error.message}\n`);
      return 1;
    }
    if (error instanceof DataDirLockedError) {
      // A running server would have answered on its socket: say why it did not.
      io.stderr(
        `${error.message}. The embedded database serves one process, and a running server runs commands itself, but ${unservedReason ?? 'no server answered'}. Stop that process, or use PostgreSQL (DATABASE_URL).\n`,
      );
      return 1;
    }
    io.stderr(`Failed: ${describeFailure(error)}\n`);
    return 1;
  } finally {
    if (!io.mailer) mailer?.close();
    if (database && database !== io.database) await database.close();
  }
}

/**
 * True when this file is the program being run (tsx or the bundle), not an import. main.ts
 * imports it too (it runs forwarded commands), so in the bundle this code sits in a chunk shared
 * by dist/main.js and dist/cli.js: the program is then dist/cli.js beside that chunk.
 */
function isMainModule(): boolean {
  const entry = process.argv[1];
  if (!entry) return false;
  try {
    const program = realpathSync(entry);
    const here = realpathSync(fileURLToPath(import.meta.url));
    return program === here || program === join(dirname(here), 'cli.js');
  } catch {
    return false;
  }
}

if (isMainModule()) {
  // A command without a server opens DATA_DIR itself: what it creates there is private too.
  usePrivateUmask();
  const code = await runCli(process.argv.slice(2), {
    env: process.env,
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  });
  process.exitCode = code;
}
