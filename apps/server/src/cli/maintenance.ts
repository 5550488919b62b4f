/** The operator's maintenance commands: signing keys, stored codes. */
import { rotateSigningKeys } from '../features/oauth/signing-keys.ts';
import {
  describeCodeCollisions,
  findCodeCollisions,
  storedCodeColumns,
} from '../resource-engine/code-collisions.ts';
import { type CommandGroup, type CommandSpec, services } from './command.ts';

const commands = {
  'rotate-signing-keys': {
    options: {},
    positionals: [],
    run() {
      return async (context) => {
        const { kid, removed } = await rotateSigningKeys(context.database.db, context.now());
        context.io.stdout(
          `New signing key ${kid}; the previous one verifies for two more days.${removed > 0 ? ` ${removed} expired key${removed === 1 ? '' : 's'} removed.` : ''}\n`,
        );
      };
    },
  },
  'check-codes': {
    options: {},
    positionals: [],
    run() {
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
  },
} satisfies Record<string, CommandSpec>;

export const maintenanceCommands: CommandGroup<keyof typeof commands> = { commands, inputErrors: [] };
