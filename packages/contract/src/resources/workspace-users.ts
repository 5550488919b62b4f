import { z } from 'zod';
import {
  captchaTokenField,
  emailField,
  linkTokenField,
  nameField,
  phoneField,
  strongPasswordField,
} from '../auth/fields.ts';
import { normalizeCode } from '../domain/normalize-code.ts';
import { lazySchema } from '../lazy-schema.ts';
import { defineResource } from '../resource-kit/define-resource.ts';
import { idField, recordStatuses, recordStatusField, timestampField } from '../resource-kit/fields.ts';
import { textField } from '../text-field.ts';
import { validationCodes as codes } from '../validation-codes.ts';

export const membershipStatuses = [...recordStatuses, 'invited'] as const;
export type MembershipStatus = (typeof membershipStatuses)[number];

const roleIdField = lazySchema(() => z.uuid({ error: codes.ROLE_IS_REQUIRED }));
/** A staff code, normalized like every code (`normalizeCode`); empty is none (it has no sequence). */
const staffCodeField = lazySchema(() => textField().overwrite(normalizeCode).max(60, codes.CODE_TOO_LONG));
/** The applications a member may use, by client id (at most 60 characters: no longer one is installed). */
const applicationsField = lazySchema(() =>
  z.array(textField().max(60, codes.APPLICATION_NOT_INSTALLED)).max(50, codes.TOO_MANY_APPLICATIONS),
);

/** A member of the workspace as the Users page lists them; `id` is the user's id. */
export const workspaceUserRecordSchema = lazySchema(() =>
  z.object({
    id: idField,
    code: z.string().nullable(),
    name: z.string(),
    email: z.string(),
    phone: z.string().nullable(),
    isAdmin: z.boolean(),
    /** The workspace's only active admin: disabling, demoting or removing them is always refused (LAST_ADMIN). */
    isLastAdmin: z.boolean(),
    role: z.object({ id: idField, title: z.string() }).nullable(),
    applications: z.array(z.string()),
    lastLoginAt: timestampField.nullable(),
    /**
     * Whether the member has a second factor (an authenticator app or a passkey); null while they
     * are invited, when their account's details stay theirs.
     */
    secondFactor: z.boolean().nullable(),
    status: z.enum(membershipStatuses),
    createdAt: timestampField,
  }),
);
export type WorkspaceUserRecord = z.infer<typeof workspaceUserRecordSchema>;

/** `POST workspaces/users/invite?workspaceId=…`: a person (new or existing) invited with a role. */
export const inviteUserInputSchema = lazySchema(() =>
  z.object({
    email: emailField,
    roleId: roleIdField,
    code: staffCodeField.optional(),
    applications: applicationsField.default([]),
  }),
);
export type InviteUserInput = z.infer<typeof inviteUserInputSchema>;

/** `PATCH workspaces/users/{userId}`: change role, admin flag, status, code or applications. */
export const updateWorkspaceUserInputSchema = lazySchema(() =>
  z.object({
    roleId: roleIdField.optional(),
    isAdmin: z.boolean().optional(),
    status: recordStatusField.optional(),
    code: staffCodeField.optional(),
    applications: applicationsField.optional(),
  }),
);
export type UpdateWorkspaceUserInput = z.infer<typeof updateWorkspaceUserInputSchema>;

/** `POST workspaces/users/resend-invite?workspaceId=…` */
export const resendInviteInputSchema = lazySchema(() =>
  z.object({ userId: z.uuid({ error: codes.USER_NOT_FOUND }) }),
);

/** `POST workspaces/users/accept-invite` (public: the token is the credential). */
export const acceptInviteInputSchema = lazySchema(() => z.object({ token: linkTokenField }));
export interface AcceptInviteResult {
  /** Present when the person has no password yet: it lets them complete their profile. */
  passwordResetToken?: string;
  workspace: { name: string };
}

/** `GET auth/invite-status?token=…` */
export interface InviteStatus {
  status: 'pending' | 'accepted' | 'expired';
  /** `email`: the invited address, for the login page that follows (the token is the credential). */
  user: { email: string; passwordResetToken: string | null };
  workspace: { name: string };
}

/** `POST auth/set-profile`: completing the profile after accepting an invitation (spec §5). */
export const setProfileInputSchema = lazySchema(() =>
  z.object({
    name: nameField,
    phone: phoneField,
    password: strongPasswordField,
    reCaptchaToken: captchaTokenField.optional(),
    passwordResetToken: linkTokenField,
  }),
);
export type SetProfileInput = z.infer<typeof setProfileInputSchema>;

/** The page's form: the same fields plus the password confirmation. */
export const setProfileFormSchema = lazySchema(() =>
  z
    .object({
      name: nameField,
      phone: phoneField,
      password: strongPasswordField,
      confirmPassword: z
        .string({ error: codes.CONFIRM_PASSWORD_IS_REQUIRED })
        .min(1, codes.CONFIRM_PASSWORD_IS_REQUIRED),
    })
    .refine((form) => form.password === form.confirmPassword, {
      message: codes.PASSWORDS_DO_NOT_MATCH,
      path: ['confirmPassword'],
    }),
);
export type SetProfileForm = z.infer<typeof setProfileFormSchema>;

/**
 * The Users page's list (`GET workspaces/users`): the engine's list query and permission
 * rules; invitations and membership changes are the users feature's own routes.
 */
export const workspaceUsersResource = defineResource({
  key: 'workspaceUsers',
  path: 'workspaces/users',
  permission: 'Users',
  menu: { group: 'settings', order: 10 },
  verbs: ['list', 'get', 'filters', 'update', 'delete'],
  schemas: {
    record: workspaceUserRecordSchema,
    create: inviteUserInputSchema,
    update: updateWorkspaceUserInputSchema,
  },
  search: ['name', 'email', 'code'],
  sort: ['name', 'email', 'code', 'lastLoginAt', 'createdAt'],
  defaultSort: 'name',
  filters: [
    { field: 'status', kind: 'enum', values: membershipStatuses },
    { field: 'role', kind: 'reference' },
  ],
  hasStatus: false,
});
