/** The operator's commands on a person's account: a lost second factor. */
import { emailField } from '@dukkan/contract';
import { eq } from 'drizzle-orm';
import { users } from '../db/schema/index.ts';
import { factorChangeMail } from '../features/auth/second-factor-mail.ts';
import { resetSecondFactors } from '../features/auth/second-factors.ts';
import { type CommandGroup, type CommandSpec, UsageError } from './command.ts';

const commands = {
  'reset-second-factors': {
    options: {},
    positionals: ['email'],
    run(args) {
      const email = emailField.safeParse(args.positionals[0] ?? '');
      if (!email.success) {
        throw new UsageError(
          `reset-second-factors needs the person's email address (got "${args.positionals[0] ?? ''}")`,
        );
      }
      return async (context) => {
        const { db } = context.database;
        const [user] = await db
          .select({ id: users.id, name: users.name, language: users.language })
          .from(users)
          .where(eq(users.email, email.data))
          .limit(1);
        if (!user) throw new UsageError(`No account has the email address ${email.data}`);
        const removed = await resetSecondFactors(db, user.id);
        await context.mailer.send({
          to: email.data,
          ...factorChangeMail(user.language ?? 'en', 'reset', user.name),
        });
        context.io.stdout(
          `Removed ${removed} second factor${removed === 1 ? '' : 's'} and the recovery codes of ${email.data}; they sign in with their password alone until they add a factor again. They were told by mail.\n`,
        );
      };
    },
  },
} satisfies Record<string, CommandSpec>;

export const peopleCommands: CommandGroup<keyof typeof commands> = { commands, inputErrors: [] };
