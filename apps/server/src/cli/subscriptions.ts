/** The operator's commands on subscriptions, invoices and payments. */
import {
  type BankTransferInstructions,
  bankTransferTextMax,
  formatMoney,
  issuedPaymentStatuses,
  locales,
  subscriptionStatuses,
} from '@dukkan/contract';
import { listInvoices } from '../features/subscriptions/operator-invoices.ts';
import {
  approveSubscription,
  type DecidedSubscription,
  listSubscriptions,
  recordPayment,
  rejectSubscription,
  SubscriptionCommandError,
} from '../features/subscriptions/subscriptions.ts';
import { clearBankTransfer, readBankTransfer, saveBankTransfer } from '../platform/payments/bank-transfer.ts';
import {
  type CommandContext,
  type CommandGroup,
  type CommandSpec,
  listCommand,
  type ParsedArgs,
  services,
  shortDate,
  statusOption,
  UsageError,
  uuidArgument,
} from './command.ts';

/** Approves or rejects a subscription, then says what it is now and what was issued and mailed. */
function decisionCommand(
  verb: string,
  decide: (deps: ReturnType<typeof services>, id: string, now: Date) => Promise<DecidedSubscription>,
): CommandSpec {
  return {
    options: {},
    positionals: ['subscriptionId'],
    run(args) {
      const id = uuidArgument(args, 'a subscription');
      return async (context) =>
        reportDecision(context, id, verb, await decide(services(context), id, context.now()));
    },
  };
}

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

/** A text of `set-bank-transfer`: trimmed, within `max`, on one line unless `multiline`. */
function bankText(args: ParsedArgs, option: string, max: number, multiline = false): string {
  const value = args.values[option];
  if (value === undefined) return '';
  const text = String(value).trim();
  if (text.length > max) throw new UsageError(`--${option} is longer than ${max} characters`);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if ((multiline ? /[\u0000-\u0009\u000b-\u001f\u007f]/ : /[\u0000-\u001f\u007f]/).test(text))
    throw new UsageError(`--${option} must not hold control characters${multiline ? '' : ' or line breaks'}`);
  return text;
}

/** The languages of `--<name>-en` / `--<name>-ar` given, or a usage error when `required` and none is. */
function bankLocalized(
  args: ParsedArgs,
  name: string,
  max: number,
  required: boolean,
): BankTransferInstructions['bank'] {
  const text = locales.flatMap((locale) => {
    const value = bankText(args, `${name}-${locale}`, max, name === 'notes');
    return value ? [{ locale, value }] : [];
  });
  if (required && text.length === 0)
    throw new UsageError(
      `set-bank-transfer: --${name}-en or --${name}-ar is required (give both for a text in each language)`,
    );
  return text;
}

/** An IBAN or account number: letters, digits, spaces and dashes, kept in capitals. */
function bankAccount(args: ParsedArgs): string {
  const account = bankText(args, 'account', bankTransferTextMax.account).replace(/\s+/g, ' ').toUpperCase();
  if (!account) throw new UsageError('set-bank-transfer: --account <IBAN or account number> is required');
  if (!/^[A-Z0-9][A-Z0-9 -]*$/.test(account))
    throw new UsageError(`--account must be letters, digits, spaces and dashes (got "${account}")`);
  return account;
}

const textsOf = (text: BankTransferInstructions['bank']) =>
  text.length === 0 ? '—' : text.map((entry) => `${entry.locale}: ${JSON.stringify(entry.value)}`).join('  ');

function describeBankTransfer(instructions: BankTransferInstructions): string {
  return [
    'Bank transfer, shown on every pending invoice with its number as the reference:',
    `  Account holder  ${textsOf(instructions.accountHolder)}`,
    `  Bank            ${textsOf(instructions.bank)}`,
    `  Account         ${instructions.account}`,
    `  Notes           ${textsOf(instructions.notes)}`,
  ].join('\n');
}

const noBankTransfer =
  'No bank-transfer instructions: pending invoices tell the workspace to contact the operator to pay.';

const bankTransferOptions = {
  'holder-en': { type: 'string' },
  'holder-ar': { type: 'string' },
  'bank-en': { type: 'string' },
  'bank-ar': { type: 'string' },
  account: { type: 'string' },
  'notes-en': { type: 'string' },
  'notes-ar': { type: 'string' },
} as const;

const commands = {
  subscriptions: listCommand({
    noun: 'subscription',
    statuses: subscriptionStatuses,
    rows: (db, status) => listSubscriptions(db, { status }),
    line: (row) =>
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
  }),
  'approve-subscription': decisionCommand('Approved', approveSubscription),
  'reject-subscription': decisionCommand('Rejected', rejectSubscription),
  invoices: listCommand({
    noun: 'invoice',
    statuses: issuedPaymentStatuses,
    rows: (db, status) => listInvoices(db, { status }),
    line: (row) =>
      [
        row.id,
        row.status.padEnd(10),
        `no. ${row.number}`.padEnd(8),
        shortDate(row.issuedAt, row.timeZone),
        formatMoney(row.amount, row.currency, 'en').padStart(14),
        `${row.details.plan} ${shortDate(row.details.periodStart, row.timeZone)} to ${shortDate(row.details.periodEnd, row.timeZone)}`,
        `"${row.workspaceName}"`,
      ].join('  '),
  }),
  'record-payment': {
    options: { status: { type: 'string' } },
    positionals: ['invoiceId'],
    run(args) {
      const id = uuidArgument(args, 'an invoice');
      const status = statusOption(args, ['successful', 'failed'] as const);
      if (status === undefined)
        throw new UsageError('record-payment: --status successful|failed is required');
      return async (context) => {
        const settled = await recordPayment(services(context), { invoiceId: id, status }, context.now());
        context.io.stdout(
          `Invoice ${id} (no. ${settled.invoice.number}) is ${settled.invoice.status}.${settled.renewed ? ` The subscription is renewed until ${shortDate(settled.subscription.endDate, settled.timeZone)}.` : ''}\n`,
        );
      };
    },
  },
  'bank-transfer': {
    options: {},
    positionals: [],
    run: () => async (context) => {
      const instructions = await readBankTransfer(context.database.db);
      context.io.stdout(`${instructions ? describeBankTransfer(instructions) : noBankTransfer}\n`);
    },
  },
  'set-bank-transfer': {
    options: bankTransferOptions,
    positionals: [],
    run(args) {
      // Every option is checked before the database opens: bad input changes nothing.
      const instructions: BankTransferInstructions = {
        accountHolder: bankLocalized(args, 'holder', bankTransferTextMax.name, true),
        bank: bankLocalized(args, 'bank', bankTransferTextMax.name, true),
        account: bankAccount(args),
        notes: bankLocalized(args, 'notes', bankTransferTextMax.notes, false),
      };
      return async (context) => {
        await saveBankTransfer(context.database.db, instructions);
        context.io.stdout(`Saved. ${describeBankTransfer(instructions)}\n`);
      };
    },
  },
  'clear-bank-transfer': {
    options: {},
    positionals: [],
    run: () => async (context) => {
      const cleared = await clearBankTransfer(context.database.db);
      context.io.stdout(cleared ? `Cleared. ${noBankTransfer}\n` : `${noBankTransfer}\n`);
    },
  },
} satisfies Record<string, CommandSpec>;

export const subscriptionCommands: CommandGroup<keyof typeof commands> = {
  commands,
  inputErrors: [SubscriptionCommandError],
};
