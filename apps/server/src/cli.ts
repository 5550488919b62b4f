/**
 * The operator's command line: `npm run dukkan -- <command>`. It reads the same environment
 * as the server (DATA_DIR or DATABASE_URL, PUBLIC_URL, SMTP_URL…) and turns access requests into
 * workspaces. Exit codes: 0 done, 2 bad input, 1 failure.
 * When a server runs on the same DATA_DIR, every command is sent to it over its operator socket
 * (http/operator-socket.ts) and runs there, through this same runCli with the server's database,
 * mailer and configuration; otherwise the command opens and migrates the database itself.
 * It parses, opens and prints; the work itself is the features' (access-requests, workspaces).
 */
import { realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ParseArgsOptionsConfig, parseArgs } from 'node:util';
import {
  emailField,
  formatMoney,
  type IssuedPaymentStatus,
  invitationLifetimeDays,
  issuedPaymentStatuses,
  localDate,
  type PlanLength,
  planLengths,
  type SubscriptionStatus,
  subscriptionStatuses,
} from '@dukkan/contract';
import { pino } from 'pino';
import { z } from 'zod';
import { type Config, ConfigError, loadConfig } from './config.ts';
import { type DatabaseHandle, openDatabase } from './db/client.ts';
import { DataDirLockedError } from './db/lock.ts';
import {
  AccessRequestError,
  type AccessRequestStatus,
  accessRequestStatuses,
  approveAccessRequest,
  listAccessRequests,
  rejectAccessRequest,
} from './features/access-requests/access-requests.ts';
import { ApplicationError } from './features/applications/application-input.ts';
import {
  type ApplicationRecord,
  type ApplicationResult,
  createApplication,
  listApplications,
  rotateApplicationSecret,
  updateApplication,
} from './features/applications/applications.ts';
import { rotateSigningKeys } from './features/oauth/signing-keys.ts';
import { listInvoices } from './features/subscriptions/operator-invoices.ts';
import {
  approveSubscription,
  type DecidedSubscription,
  listSubscriptions,
  recordPayment,
  rejectSubscription,
  SubscriptionCommandError,
} from './features/subscriptions/subscriptions.ts';
import {
  createWorkspaceAndMailAdmin,
  type MailDelivery,
  type WorkspaceWithMailedAdmin,
} from './features/workspaces/create-workspace.ts';
import { askOperatorSocket, operatorSocketPath } from './http/operator-socket.ts';
import { createMailer, type Mailer } from './platform/mail/mailer.ts';
import { usePrivateUmask } from './platform/storage/private-files.ts';
import {
  describeCodeCollisions,
  findCodeCollisions,
  storedCodeColumns,
} from './resource-engine/code-collisions.ts';
import { createAppResources } from './resources.ts';

export const helpText = `Dukkan operator commands

Usage: npm run dukkan -- <command> [options]

Commands:
  requests [--status pending|approved|rejected]
        List access requests (all of them, or those with the status).
  approve <requestId>
        Create the workspace named after the request's company, with a "manager" role holding
        every permission, invite the requester as its admin and mark the request approved.
  reject <requestId>
        Mark the request rejected and tell the requester by mail, in their language.
  create-workspace --name <name> --admin-email <email>
        Create a workspace and invite that person as its admin (an existing account joins with
        its password; a new one chooses a password after accepting).
  app list
        List the platform's applications (client id, type, prices, trial, redirect URIs).
  app create --client-id <id> --name-en <name> --name-ar <name> --home-url <url>
             --redirect-uri <url> [--redirect-uri <url>…] --type public|confidential
             --currency <ISO 4217> --monthly-price <minor units per location>
             [--discount <plan>=<basis points>…] [--trial-days <days>]
             [--description-en <text>] [--description-ar <text>] [--logo <file>]
        Register an application. A confidential client's secret is printed once. Plans:
        ${planLengths.join(', ')}; a discount of 1000 basis points is 10 %.
  app update <clientId> [any option of app create but --client-id]
        Change an application (a discount names one plan; the others stay).
  app secret <clientId>
        Give a confidential client a new secret, printed once (the old one stops working).
  subscriptions [--status ${subscriptionStatuses.join('|')}]
        List the workspaces' subscriptions (all of them, or those with the status).
  approve-subscription <subscriptionId>
        Approve a pending subscription: its first period starts now and its invoice is issued.
  reject-subscription <subscriptionId>
        Reject a pending subscription request.
  invoices [--status ${issuedPaymentStatuses.join('|')}]
        List the workspaces' issued invoices.
  record-payment <invoiceId> --status successful|failed
        Record the outcome of an invoice's payment; a paid invoice of a period in its grace
        renews the subscription.
  rotate-signing-keys
        Sign ID tokens with a new key from now on. The key it replaces stays published for two
        days, so what it signed still verifies; every running instance switches within a minute.
  check-codes
        List, per workspace, the codes stored before codes were normalized that are one code
        under the rule (the same letters in another Unicode form, with invisible characters or
        full-width) or no code at all. They were left as they are: rename all but one of each.
  help, --help, -h
        Show this text.

Each workspace's admins are mailed, in their language, when a subscription is requested,
approved or rejected.

Every invitation is printed with its link (valid ${invitationLifetimeDays} days) and mailed.

Commands run beside the running server: when a Dukkan server runs on the same DATA_DIR, the
command is sent to it over the unix socket DATA_DIR/operator.sock (which only the server's OS
account can open) and runs inside it, with its database, mail and PUBLIC_URL. The embedded
database (PGlite) serves one process, so there is no need to stop the server.

Without a running server the command opens the database itself, with the server's environment
variables (DATABASE_URL, or DATA_DIR for the embedded database, default ./data; PUBLIC_URL for
links; SMTP_URL or the outbox folder for mail); migrations run first.

Exit codes: 0 done, 2 bad input, 1 any other failure.
`;

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
const workspaceNameSchema = z.string().trim().min(1).max(255);

interface CommandContext {
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
type Command = (args: ParsedArgs) => (context: CommandContext) => Promise<void>;
interface ParsedArgs {
  positionals: string[];
  values: Record<string, string | boolean | undefined>;
}

const commandNames = [
  'requests',
  'approve',
  'reject',
  'create-workspace',
  'app list',
  'app create',
  'app update',
  'app secret',
  'subscriptions',
  'approve-subscription',
  'reject-subscription',
  'invoices',
  'record-payment',
  'rotate-signing-keys',
  'check-codes',
] as const;
type CommandName = (typeof commandNames)[number];

/** Each command's options; an option another command takes is still unknown here. */
const applicationOptions: ParseArgsOptionsConfig = {
  'name-en': { type: 'string' },
  'name-ar': { type: 'string' },
  'description-en': { type: 'string' },
  'description-ar': { type: 'string' },
  'home-url': { type: 'string' },
  'redirect-uri': { type: 'string', multiple: true },
  type: { type: 'string' },
  currency: { type: 'string' },
  'monthly-price': { type: 'string' },
  discount: { type: 'string', multiple: true },
  'trial-days': { type: 'string' },
  logo: { type: 'string' },
};

const commandOptions: Record<CommandName, ParseArgsOptionsConfig> = {
  requests: { status: { type: 'string' } },
  approve: {},
  reject: {},
  'create-workspace': { name: { type: 'string' }, 'admin-email': { type: 'string' } },
  'app list': {},
  'app create': { 'client-id': { type: 'string' }, ...applicationOptions },
  'app update': applicationOptions,
  'app secret': {},
  subscriptions: { status: { type: 'string' } },
  'approve-subscription': {},
  'reject-subscription': {},
  invoices: { status: { type: 'string' } },
  'record-payment': { status: { type: 'string' } },
  'rotate-signing-keys': {},
  'check-codes': {},
};

const expectedPositionals: Record<CommandName, string[]> = {
  requests: [],
  approve: ['requestId'],
  reject: ['requestId'],
  'create-workspace': [],
  'app list': [],
  'app create': [],
  'app update': ['clientId'],
  'app secret': ['clientId'],
  subscriptions: [],
  'approve-subscription': ['subscriptionId'],
  'reject-subscription': ['subscriptionId'],
  invoices: [],
  'record-payment': ['invoiceId'],
  'rotate-signing-keys': [],
  'check-codes': [],
};

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
      options: { ...commandOptions[command], help: { type: 'boolean', short: 'h' } },
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
  const expected = expectedPositionals[command];
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

/** A status option among `allowed`, or undefined when absent. */
function statusOption<S extends string>(args: ParsedArgs, allowed: readonly S[]): S | undefined {
  const status = args.values.status;
  if (status !== undefined && !(allowed as readonly unknown[]).includes(status)) {
    throw new UsageError(`--status must be one of ${allowed.join(', ')} (got "${String(status)}")`);
  }
  return status as S | undefined;
}

function uuidArgument(args: ParsedArgs, what: string): string {
  const id = args.positionals[0] ?? '';
  if (!requestIdSchema.safeParse(id).success) throw new UsageError(`Not ${what} id: "${id}"`);
  return id;
}

/** A whole number option, or undefined when absent. */
function integerOption(args: ParsedArgs, name: string): number | undefined {
  const value = args.values[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^\d+$/.test(value)) {
    throw new UsageError(`--${name} must be a whole number (got "${String(value)}")`);
  }
  return Number(value);
}

/**
 * The application fields the options name, shaped as the applications feature takes them (it
 * checks them and names every bad field). `--discount quarterly=500` sets one plan's discount.
 */
function applicationFields(args: ParsedArgs, defaults: boolean): Record<string, unknown> {
  const text = (name: string) => args.values[name] as string | undefined;
  const discounts: Partial<Record<PlanLength, number>> = defaults
    ? Object.fromEntries(planLengths.map((plan) => [plan, 0]))
    : {};
  for (const entry of (args.values.discount as unknown as string[] | undefined) ?? []) {
    const match = /^([a-z]+)=(\d+)$/.exec(entry);
    if (!match || !(planLengths as readonly string[]).includes(match[1]!)) {
      throw new UsageError(
        `--discount must be <plan>=<basis points>, with a plan among ${planLengths.join(', ')} (got "${entry}")`,
      );
    }
    discounts[match[1] as PlanLength] = Number(match[2]);
  }
  const localized = (prefix: string) => {
    const pair = { en: text(`${prefix}-en`), ar: text(`${prefix}-ar`) };
    return pair.en === undefined && pair.ar === undefined
      ? undefined
      : Object.fromEntries(Object.entries(pair).filter(([, value]) => value !== undefined));
  };
  const fields: Record<string, unknown> = {
    name: localized('name'),
    description: localized('description'),
    homeUrl: text('home-url'),
    redirectUris: args.values['redirect-uri'],
    clientType: text('type'),
    currency: text('currency'),
    monthlyPricePerLocation: integerOption(args, 'monthly-price'),
    discounts: Object.keys(discounts).length > 0 ? discounts : undefined,
    trialDays: integerOption(args, 'trial-days'),
    logo: text('logo'),
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

/** An application in a few lines: what the operator checks after registering or changing it. */
function describeApplication(application: ApplicationRecord): string {
  const discounts = planLengths.map((plan) => `${plan} ${application.discounts[plan] / 100}%`).join(', ');
  return [
    `${application.clientId}  ${application.name.en} / ${application.name.ar}  (${application.clientType}${application.hasSecret ? ', has a secret' : ''})`,
    `  id ${application.id}; price ${formatMoney(application.monthlyPricePerLocation, application.currency, 'en')} per location per month; discounts ${discounts}; trial ${application.trialDays} days`,
    `  home ${application.homeUrl}; redirect URIs ${application.redirectUris.join(' ')}${application.logo ? `; logo ${application.logo}` : ''}`,
  ].join('\n');
}

function reportApplication(context: CommandContext, verb: string, result: ApplicationResult) {
  context.io.stdout(
    `${verb} application ${result.application.clientId}.\n${describeApplication(result.application)}\n`,
  );
  if (result.secret) {
    context.io.stdout(`Client secret (shown once, store it now): ${result.secret}\n`);
  }
}

/** A workspace's date as a day of its calendar (`YYYY-MM-DD` in its time zone). */
const shortDate = (date: Date | string | null | undefined, timeZone: string) =>
  date ? localDate(new Date(date), timeZone) : '—';

function reportDecision(context: CommandContext, id: string, verb: string, decided: DecidedSubscription) {
  context.io.stdout(`${verb} subscription ${id} (now ${decided.subscription.status}).\n`);
  if (decided.invoice) {
    const invoice = decided.invoice;
    context.io.stdout(
      `Issued invoice ${invoice.id} (no. ${invoice.number}): ${formatMoney(invoice.amount, invoice.currency, 'en')} for ${invoice.details.plan}, ${shortDate(invoice.details.periodStart, decided.timeZone)} to ${shortDate(invoice.details.periodEnd, decided.timeZone)}.\n`,
    );
  }
  context.io.stdout(
    `${decided.mailsSent} mail${decided.mailsSent === 1 ? '' : 's'} to the workspace's admins.\n`,
  );
}

function requestId(args: ParsedArgs): string {
  const id = args.positionals[0] ?? '';
  if (!requestIdSchema.safeParse(id).success) throw new UsageError(`Not a request id: "${id}"`);
  return id;
}

/** What became of a mail: where it went, or a warning (the work is done and any link printed). */
function reportMail(context: CommandContext, delivery: MailDelivery) {
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

/** Prints what a new workspace and its admin's invitation are, then what became of the mail. */
function reportWorkspace(context: CommandContext, created: WorkspaceWithMailedAdmin) {
  context.io.stdout(
    [
      `Created workspace "${created.workspace.name}" (${created.workspace.id}) with the role "${created.role.code}" (every permission).`,
      `Invited ${created.adminEmail} as its admin (${created.invitation.createdUser ? 'new account: they choose a password after accepting' : 'existing account: they join with their password'}).`,
      `Invitation link (valid ${invitationLifetimeDays} days): ${created.invitationLink}`,
      '',
    ].join('\n'),
  );
  reportMail(context, created.mail);
}

/** The database, mail driver and link address the feature functions work with. */
const services = (context: CommandContext) => ({
  db: context.database.db,
  mailer: context.mailer,
  publicUrl: context.config.publicUrl,
  resources: createAppResources(context.now),
});

const commands: Record<CommandName, Command> = {
  requests(args) {
    const status = args.values.status;
    if (status !== undefined && !(accessRequestStatuses as readonly unknown[]).includes(status)) {
      throw new UsageError(
        `--status must be one of ${accessRequestStatuses.join(', ')} (got "${String(status)}")`,
      );
    }
    return async (context) => {
      const rows = await listAccessRequests(context.database.db, status as AccessRequestStatus | undefined);
      if (rows.length === 0) {
        context.io.stdout(status ? `No ${status} access requests.\n` : 'No access requests.\n');
        return;
      }
      const lines = rows.map((row) =>
        [
          row.id,
          row.status.padEnd(8),
          row.createdAt.toISOString().slice(0, 16).replace('T', ' '),
          `${row.companyName} (${row.businessCategory}${row.companyWebsite ? `, ${row.companyWebsite}` : ''})`,
          `${row.name} <${row.email}> ${row.phone}`,
          row.language,
        ].join('  '),
      );
      context.io.stdout(
        `${lines.join('\n')}\n${rows.length} access request${rows.length === 1 ? '' : 's'}.\n`,
      );
    };
  },

  approve(args) {
    const id = requestId(args);
    return async (context) => {
      const { request, workspace } = await approveAccessRequest(services(context), id, context.now());
      context.io.stdout(`Approved access request ${id} (${request.companyName}).\n`);
      reportWorkspace(context, workspace);
    };
  },

  reject(args) {
    const id = requestId(args);
    return async (context) => {
      const { request, mail } = await rejectAccessRequest(services(context), id, context.now());
      context.io.stdout(`Rejected access request ${id} (${request.companyName}, ${request.email}).\n`);
      reportMail(context, mail);
    };
  },

  'create-workspace'(args) {
    const name = workspaceNameSchema.safeParse(args.values.name ?? '');
    if (!name.success) throw new UsageError('--name is required: the workspace name, 1 to 255 characters');
    const email = emailField.safeParse(args.values['admin-email'] ?? '');
    if (!email.success) {
      throw new UsageError(
        `--admin-email must be an email address (got "${String(args.values['admin-email'] ?? '')}")`,
      );
    }
    return async (context) => {
      const created = await createWorkspaceAndMailAdmin(
        services(context),
        { name: name.data, adminEmail: email.data },
        context.now(),
      );
      reportWorkspace(context, created);
    };
  },

  'app list'() {
    return async (context) => {
      const applications = await listApplications(context.database.db);
      if (applications.length === 0) {
        context.io.stdout('No applications.\n');
        return;
      }
      context.io.stdout(
        `${applications.map(describeApplication).join('\n')}\n${applications.length} application${applications.length === 1 ? '' : 's'}.\n`,
      );
    };
  },

  'app create'(args) {
    const input = { clientId: args.values['client-id'], ...applicationFields(args, true) };
    return async (context) => {
      const files = { uploadsDir: context.config.uploads.dir };
      reportApplication(context, 'Registered', await createApplication(context.database.db, input, files));
    };
  },

  'app update'(args) {
    const clientId = args.positionals[0]!;
    const changes = applicationFields(args, false);
    if (Object.keys(changes).length === 0)
      throw new UsageError('app update: name at least one field to change');
    return async (context) => {
      const files = { uploadsDir: context.config.uploads.dir };
      reportApplication(
        context,
        'Updated',
        await updateApplication(context.database.db, clientId, changes, files),
      );
    };
  },

  'app secret'(args) {
    const clientId = args.positionals[0]!;
    return async (context) => {
      reportApplication(
        context,
        'New secret for',
        await rotateApplicationSecret(context.database.db, clientId),
      );
    };
  },

  'rotate-signing-keys'() {
    return async (context) => {
      const { kid, removed } = await rotateSigningKeys(context.database.db, context.now());
      context.io.stdout(
        `New signing key ${kid}; the previous one verifies for two more days.${removed > 0 ? ` ${removed} expired key${removed === 1 ? '' : 's'} removed.` : ''}\n`,
      );
    };
  },

  'check-codes'() {
    return async (context) => {
      const collisions = await findCodeCollisions(
        context.database.db,
        storedCodeColumns(services(context).resources),
      );
      if (collisions.length === 0) {
        context.io.stdout('No stored codes collide: every code is stored as the rule makes it.\n');
        return;
      }
      context.io.stdout(
        `${[
          ...describeCodeCollisions(collisions),
          `${collisions.length} group${collisions.length === 1 ? '' : 's'} of codes stored apart that are one code (or none) under the rule. Rename all but one of each; the records are as they were.`,
        ].join('\n')}\n`,
      );
    };
  },

  subscriptions(args) {
    const status = statusOption<SubscriptionStatus>(args, subscriptionStatuses);
    return async (context) => {
      const rows = await listSubscriptions(context.database.db, { status });
      if (rows.length === 0) {
        context.io.stdout(status ? `No ${status} subscriptions.\n` : 'No subscriptions.\n');
        return;
      }
      const lines = rows.map((row) =>
        [
          row.id,
          row.status.padEnd(19),
          (row.plan ?? 'trial').padEnd(12),
          `${shortDate(row.startDate, row.timeZone)} to ${shortDate(row.endDate, row.timeZone)}`,
          `${row.clientId} for "${row.workspaceName}"`,
          [
            row.cancelling ? 'cancelling' : '',
            row.graceEndsAt ? `in grace until ${shortDate(row.graceEndsAt, row.timeZone)}` : '',
          ]
            .filter(Boolean)
            .join(', '),
        ]
          .join('  ')
          .trimEnd(),
      );
      context.io.stdout(`${lines.join('\n')}\n${rows.length} subscription${rows.length === 1 ? '' : 's'}.\n`);
    };
  },

  'approve-subscription'(args) {
    const id = uuidArgument(args, 'a subscription');
    return async (context) => {
      reportDecision(
        context,
        id,
        'Approved',
        await approveSubscription(services(context), id, context.now()),
      );
    };
  },

  'reject-subscription'(args) {
    const id = uuidArgument(args, 'a subscription');
    return async (context) => {
      reportDecision(context, id, 'Rejected', await rejectSubscription(services(context), id, context.now()));
    };
  },

  invoices(args) {
    const status = statusOption<IssuedPaymentStatus>(args, issuedPaymentStatuses);
    return async (context) => {
      const rows = await listInvoices(context.database.db, { status });
      if (rows.length === 0) {
        context.io.stdout(status ? `No ${status} invoices.\n` : 'No invoices.\n');
        return;
      }
      const lines = rows.map((row) =>
        [
          row.id,
          row.status.padEnd(10),
          `no. ${row.number}`.padEnd(8),
          shortDate(row.issuedAt, row.timeZone),
          formatMoney(row.amount, row.currency, 'en').padStart(14),
          `${row.details.plan} ${shortDate(row.details.periodStart, row.timeZone)} to ${shortDate(row.details.periodEnd, row.timeZone)}`,
          `"${row.workspaceName}"`,
        ].join('  '),
      );
      context.io.stdout(`${lines.join('\n')}\n${rows.length} invoice${rows.length === 1 ? '' : 's'}.\n`);
    };
  },

  'record-payment'(args) {
    const id = uuidArgument(args, 'an invoice');
    const status = statusOption(args, ['successful', 'failed'] as const);
    if (status === undefined) throw new UsageError('record-payment: --status successful|failed is required');
    return async (context) => {
      const settled = await recordPayment(services(context), { invoiceId: id, status }, context.now());
      context.io.stdout(
        `Invoice ${id} (no. ${settled.invoice.number}) is ${settled.invoice.status}.${settled.renewed ? ` The subscription is renewed until ${shortDate(settled.subscription.endDate, settled.timeZone)}.` : ''}\n`,
      );
    };
  },
};

function isCommandName(value: string): value is CommandName {
  return (commandNames as readonly string[]).includes(value);
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

/** The argv with every file option's value made absolute against this process's folder. */
function withAbsoluteFiles(argv: readonly string[]): string[] {
  return argv.map((arg, index) => {
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
    const work = commands[name](args);
    const config = io.config ?? loadConfig(io.env);
    database = io.database;
    if (!database) {
      // A server on this DATA_DIR runs the command itself (this same function, on its side).
      const answer = await askOperatorSocket(operatorSocketPath(config.dataDir), withAbsoluteFiles(argv), io);
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
    await work({ config, database, mailer, io, now: io.now ?? (() => new Date()) });
    return 0;
  } catch (error) {
    if (
      error instanceof UsageError ||
      error instanceof ConfigError ||
      error instanceof AccessRequestError ||
      error instanceof ApplicationError ||
      error instanceof SubscriptionCommandError
    ) {
      io.stderr(`${error.message}\n`);
      return 2;
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
