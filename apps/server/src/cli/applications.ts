/** The operator's commands on the platform's applications (`app …`). */

import type { ParseArgsOptionsConfig } from 'node:util';
import { formatMoney, type PlanLength, planLengths } from '@dukkan/contract';
import { ApplicationError } from '../features/applications/application-input.ts';
import {
  type ApplicationRecord,
  type ApplicationResult,
  createApplication,
  listApplications,
  rotateApplicationSecret,
  updateApplication,
} from '../features/applications/applications.ts';
import {
  type CommandContext,
  type CommandGroup,
  type CommandSpec,
  integerOption,
  type ParsedArgs,
  UsageError,
  withFileStore,
} from './command.ts';

/** The options that name an application's fields (`app create` adds `--client-id`). */
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

const commands = {
  'app list': {
    options: {},
    positionals: [],
    run() {
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
  },
  'app create': {
    options: { 'client-id': { type: 'string' }, ...applicationOptions },
    positionals: [],
    run(args) {
      const input = { clientId: args.values['client-id'], ...applicationFields(args, true) };
      return async (context) => {
        const result = await withFileStore(context, (files) =>
          createApplication(context.database.db, input, files),
        );
        reportApplication(context, 'Registered', result);
      };
    },
  },
  'app update': {
    options: applicationOptions,
    positionals: ['clientId'],
    run(args) {
      const clientId = args.positionals[0]!;
      const changes = applicationFields(args, false);
      if (Object.keys(changes).length === 0)
        throw new UsageError('app update: name at least one field to change');
      return async (context) => {
        const result = await withFileStore(context, (files) =>
          updateApplication(context.database.db, clientId, changes, files),
        );
        reportApplication(context, 'Updated', result);
      };
    },
  },
  'app secret': {
    options: {},
    positionals: ['clientId'],
    run(args) {
      const clientId = args.positionals[0]!;
      return async (context) => {
        reportApplication(
          context,
          'New secret for',
          await rotateApplicationSecret(context.database.db, clientId),
        );
      };
    },
  },
} satisfies Record<string, CommandSpec>;

export const applicationCommands: CommandGroup<keyof typeof commands> = {
  commands,
  inputErrors: [ApplicationError],
};
