/** The operator's commands on access requests and workspaces. */
import { emailField, invitationLifetimeDays } from '@dukkan/contract';
import { z } from 'zod';
import {
  AccessRequestError,
  accessRequestStatuses,
  approveAccessRequest,
  listAccessRequests,
  rejectAccessRequest,
} from '../features/access-requests/access-requests.ts';
import {
  createWorkspaceAndMailAdmin,
  type WorkspaceWithMailedAdmin,
} from '../features/workspaces/create-workspace.ts';
import {
  type CommandContext,
  type CommandGroup,
  type CommandSpec,
  listCommand,
  reportMail,
  services,
  UsageError,
  uuidArgument,
} from './command.ts';

const workspaceNameSchema = z.string().trim().min(1).max(255);

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

const commands = {
  requests: listCommand({
    noun: 'access request',
    statuses: accessRequestStatuses,
    rows: listAccessRequests,
    line: (row) =>
      [
        row.id,
        row.status.padEnd(8),
        row.createdAt.toISOString().slice(0, 16).replace('T', ' '),
        `${row.companyName} (${row.businessCategory}${row.companyWebsite ? `, ${row.companyWebsite}` : ''})`,
        `${row.name} <${row.email}> ${row.phone}`,
        row.language,
      ].join('  '),
  }),
  approve: {
    options: {},
    positionals: ['requestId'],
    run(args) {
      const id = uuidArgument(args, 'a request');
      return async (context) => {
        const { request, workspace } = await approveAccessRequest(services(context), id, context.now());
        context.io.stdout(`Approved access request ${id} (${request.companyName}).\n`);
        reportWorkspace(context, workspace);
      };
    },
  },
  reject: {
    options: {},
    positionals: ['requestId'],
    run(args) {
      const id = uuidArgument(args, 'a request');
      return async (context) => {
        const { request, mail } = await rejectAccessRequest(services(context), id, context.now());
        context.io.stdout(`Rejected access request ${id} (${request.companyName}, ${request.email}).\n`);
        reportMail(context, mail);
      };
    },
  },
  'create-workspace': {
    options: { name: { type: 'string' }, 'admin-email': { type: 'string' } },
    positionals: [],
    run(args) {
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
  },
} satisfies Record<string, CommandSpec>;

export const workspaceCommands: CommandGroup<keyof typeof commands> = {
  commands,
  inputErrors: [AccessRequestError],
};
