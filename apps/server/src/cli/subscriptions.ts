/** The operator's commands on subscriptions, invoices and payments. */
import { formatMoney, issuedPaymentStatuses, subscriptionStatuses } from '@dukkan/contract';
import { listInvoices } from '../features/subscriptions/operator-invoices.ts';
import {
  approveSubscription,
  type DecidedSubscription,
  listSubscriptions,
  recordPayment,
  rejectSubscription,
  SubscriptionCommandError,
} from '../features/subscriptions/subscriptions.ts';
import {
  type CommandContext,
  type CommandGroup,
  type CommandSpec,
  listCommand,
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
} satisfies Record<string, CommandSpec>;

export const subscriptionCommands: CommandGroup<keyof typeof commands> = {
  commands,
  inputErrors: [SubscriptionCommandError],
};
