import { signInEventKinds } from '@dukkan/contract';
import { sql } from 'drizzle-orm';
import { boolean, check, index, json, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './identity.ts';
import { recordId } from './workspace-keys.ts';

/*
 * The audit log: every write of a workspace's data, one row per changed record, written in the
 * write's own transaction (`db/audit-log.ts`, docs/architecture.md "The audit log"), and each
 * person's sign-ins.
 */

/** Who made a change: a member over HTTP, the operator's command line, the system's own work, a payment provider. */
export const auditActorKinds = ['member', 'operator', 'system', 'provider'] as const;
export type AuditActorKind = (typeof auditActorKinds)[number];

/**
 * What was done to the record. `enable` and `disable` are a status change (an engine record's
 * `status`, a membership's); `accept`, `revoke`, `resend` and the others are a feature's own steps.
 */
export type AuditAction =
  | 'create'
  | 'update'
  | 'delete'
  | 'enable'
  | 'disable'
  | 'invite'
  | 'resend'
  | 'accept'
  | 'revoke'
  | 'purge'
  | (string & {});

/** A record's changed fields: `{ field: [before, after] }`, null for absent (a create's before, a delete's after). */
export type AuditChanges = Record<string, [unknown, unknown]>;

/**
 * One change of one record. `resource` is the engine's resource key (`brands`, `products`) or a
 * named area (`memberships`, `roles`, `invitations`, `settings`, `subscriptions`, `oauth-clients`,
 * `grants`); `record_id` the record's id as text (a membership's is the member's user id).
 *
 * `actor_user_id` has no reference to `users`: the log outlives the account (a deleted user's
 * changes stay on record under their id), and a reference would make deleting a user wait for,
 * or delete, a workspace's history. The row's time is `at`, not `created_at`: a row is never
 * updated. Keyed by workspace first like every workspace table (decision 0030), then by time
 * (decision 0059).
 *
 * `workspace_id` has no reference to `workspaces` either: a row is only ever written inside a
 * write of that workspace's data, and the reference's check, one query per row, was a sixth of a
 * bulk's 500 rows (decision 0056). A statement trigger on `workspaces` (migration 0031) deletes a
 * removed workspace's rows, as the reference's cascade did.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: recordId(),
    workspaceId: uuid('workspace_id').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    actorKind: text('actor_kind', { enum: auditActorKinds }).notNull(),
    actorUserId: uuid('actor_user_id'),
    /** The HTTP request's id (`X-Request-Id`); null for the command line and the system. */
    requestId: text('request_id'),
    address: text('address'),
    userAgent: text('user_agent'),
    action: text('action').$type<AuditAction>().notNull(),
    resource: text('resource').notNull(),
    recordId: text('record_id').notNull(),
    /** JSON text as the write sent it, never taken apart: nothing searches inside (decision 0060). */
    changes: json('changes').$type<AuditChanges>().notNull(),
  },
  (table) => [
    // Keyed by time within the workspace, the id breaking ties (decision 0059): the Activity
    // page's first page, newest first, is the key read backwards (a `desc` key would be `desc
    // nulls last` here, which `order by … desc` does not match), the retention purge's oldest
    // rows the key read forwards. Nothing looks a row up by its id alone; a key on
    // `(workspace_id, id)` beside an index on these three columns was a fifth of the statement
    // writing a bulk's 500 rows.
    primaryKey({ name: 'audit_log_pkey', columns: [table.workspaceId, table.at, table.id] }),
    // A record's History.
    index('audit_log_record_idx').on(table.workspaceId, table.resource, table.recordId, table.at),
    // The Activity page filtered by member.
    index('audit_log_actor_idx').on(table.workspaceId, table.actorUserId, table.at),
    // The capped counts of a filtered page (at most 1,001 matches): by member and resource, and
    // by action over a range of days, each read from the index alone (bench/README.md,
    // "audit-log.ts": 15 ms and 54 ms of scanning each, 0.3 ms with these).
    index('audit_log_actor_resource_idx').on(table.workspaceId, table.actorUserId, table.resource, table.at),
    index('audit_log_action_idx').on(table.workspaceId, table.action, table.at),
    check(
      'audit_log_actor_kind_check',
      sql`${table.actorKind} in ('member', 'operator', 'system', 'provider')`,
    ),
  ],
);

export type AuditLogRow = typeof auditLog.$inferSelect;

export { type SignInEventKind, signInEventKinds } from '@dukkan/contract';

/**
 * A person's sign-ins, failed sign-ins, sign-outs and password changes and resets: per person,
 * not per workspace (a global, coordinator-local table on Citus). A failure is stored only for an
 * account that exists; an unknown email address leaves nothing. Goes with the account.
 */
export const signInEvents = pgTable(
  'sign_in_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    kind: text('kind', { enum: signInEventKinds }).notNull(),
    success: boolean('success').notNull(),
    requestId: text('request_id'),
    address: text('address'),
    userAgent: text('user_agent'),
  },
  (table) => [
    // A profile's recent sign-ins, a workspace's members' sign-ins.
    index('sign_in_events_user_idx').on(table.userId, table.at),
    // The retention purge's oldest rows.
    index('sign_in_events_at_idx').on(table.at),
    check(
      'sign_in_events_kind_check',
      sql`${table.kind} in ('sign-in', 'failure', 'sign-out', 'password-change', 'password-reset',
        'second-factor', 'factor-added', 'factor-removed', 'factors-reset', 'recovery-codes')`,
    ),
  ],
);

export type SignInEventRow = typeof signInEvents.$inferSelect;

/**
 * Columns never written into an audit row's `changes`, by table: password hashes, token hashes,
 * client secrets, signing keys, second-factor seeds. `test/audit-secrets.test.ts` fails when a
 * column named like a secret (`password`, `secret`, `token`, `seed`, `hash`) is not listed here.
 */
export const auditSecretColumns: Readonly<Record<string, readonly string[]>> = {
  users: ['password_hash'],
  sessions: ['token_hash'],
  password_tokens: ['token_hash'],
  invites: ['token_hash'],
  applications: ['secret_hash'],
  oauth_models: ['payload'],
  oauth_signing_keys: ['jwk'],
  user_factors: ['totp_secret', 'public_key'],
  recovery_codes: ['code_hash'],
  auth_challenges: ['token_hash', 'session_token_hash', 'totp_secret', 'webauthn_challenge'],
};

/**
 * Columns derived from others, left out of `changes` like the timestamps: a product's variant
 * codes (its variants' SKUs and barcodes, for the list's search; the variants' own changes say it).
 */
export const auditDerivedColumns: Readonly<Record<string, readonly string[]>> = {
  products: ['variant_codes'],
};
