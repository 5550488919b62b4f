import { membershipStatuses } from '@dukkan/contract';
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { collated } from './sorting.ts';
import { recordId, workspaceKey, workspaceReference } from './workspace-keys.ts';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

/**
 * Unique indexes are named `<table>__<field>__unique`: the error handler reads the field back out
 * of the name to answer `DB` with `target: <field>`.
 */
export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    phone: text('phone'),
    passwordHash: text('password_hash'),
    profilePicture: text('profile_picture'),
    /** The language the user chose (profile or the menu's switch); null until they do. */
    language: text('language', { enum: ['en', 'ar'] }),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [uniqueIndex('users__email__unique').on(table.email)],
);

export const workspaces = pgTable(
  'workspaces',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    logo: text('logo'),
    /**
     * ISO 4217: what the workspace's exchange rates are against. Not null, EGP by default: every
     * workspace has one (rates mean nothing without it), and Dukkan's merchants are in Egypt first.
     */
    baseCurrency: text('base_currency').notNull().default('EGP'),
    /**
     * IANA time zone of the workspace's business: what "today" and due dates mean for it, and how
     * dates print in its mails. Africa/Cairo by default, like the base currency's EGP.
     */
    timeZone: text('time_zone').notNull().default('Africa/Cairo'),
    /** When a member dismissed the dashboard's "Get started" list; null while it shows. */
    getStartedDismissedAt: timestamp('get_started_dismissed_at', { withTimezone: true }),
    /** How many days the workspace's audit log keeps a change before the purge removes it. */
    auditRetentionDays: integer('audit_retention_days').notNull().default(365),
    /** Members must have used a second factor in their session to see anything of the workspace. */
    requireSecondFactor: boolean('require_second_factor').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    check('workspaces_audit_retention_days_range', sql`${table.auditRetentionDays} between 1 and 3650`),
  ],
);

export const roles = pgTable(
  'roles',
  {
    id: recordId(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    title: text('title').notNull(),
    permissions: text('permissions').array().notNull().default(sql`'{}'::text[]`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    workspaceKey('roles', table.workspaceId, table.id),
    uniqueIndex('roles__code__unique').on(table.workspaceId, collated(table.code)),
  ],
);

/**
 * A person's place in a workspace: admin (passes every check), a role (its tags), both or, for
 * an admin, neither. Only `active` memberships grant anything; `invited` ones wait for the
 * invitation to be accepted.
 */
export const memberships = pgTable(
  'memberships',
  {
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    // No action (checked at the end of the statement), not restrict: deleting a workspace
    // cascades to its roles and memberships together, while a role still held cannot be deleted.
    roleId: uuid('role_id'),
    isAdmin: boolean('is_admin').notNull().default(false),
    status: text('status', { enum: membershipStatuses }).notNull().default('active'),
    /** Staff code, unique within the workspace when set. */
    code: text('code'),
    applications: text('applications').array().notNull().default(sql`'{}'::text[]`),
    invitedBy: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
    /**
     * When the member last signed in to use this workspace (the start of the latest session that
     * opened it): what the workspace is shown, never the account's sign-ins elsewhere.
     */
    lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    primaryKey({ columns: [table.workspaceId, table.userId] }),
    workspaceReference('memberships', { workspaceId: table.workspaceId, column: table.roleId }, roles),
    index('memberships_user_idx').on(table.userId),
    index('memberships_role_idx').on(table.roleId),
    uniqueIndex('memberships__code__unique').on(table.workspaceId, table.code),
    check('memberships_status_check', sql`${table.status} in ('active', 'inactive', 'invited')`),
  ],
);

/**
 * Invitation links, stored as the SHA-256 of the mailed token. One per membership: a resend
 * replaces it, and removing the membership removes it. `accepted_at` makes it single-use while
 * the row stays, so the link can still say "already accepted".
 */
export const invites = pgTable(
  'invites',
  {
    tokenHash: text('token_hash').notNull(),
    workspaceId: uuid('workspace_id').notNull(),
    userId: uuid('user_id').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    workspaceKey('invites', table.workspaceId, table.tokenHash),
    // An invitation link carries the token alone: it is looked up across workspaces.
    index('invites_token_idx').on(table.tokenHash),
    uniqueIndex('invites_membership_idx').on(table.workspaceId, table.userId),
    foreignKey({
      name: 'invites_membership_fk',
      columns: [table.workspaceId, table.userId],
      foreignColumns: [memberships.workspaceId, memberships.userId],
    }).onDelete('cascade'),
  ],
);

/** Sessions are looked up by the SHA-256 of the cookie's token; the token itself is never stored. */
export const sessions = pgTable(
  'sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    /** What the person's session list names it by: the token's hash never leaves the server. */
    id: uuid('id').notNull().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    userAgent: text('user_agent'),
    /** The address it signed in from. */
    address: text('address'),
    /**
     * How it was authenticated, as RFC 8176 names methods (`pwd`, `otp`, `hwk`, `swk`): a session
     * with more than `pwd` used a second factor (at sign-in, or a step-up since).
     */
    factors: text('factors').array().notNull().default(sql`'{pwd}'::text[]`),
    /** When a request last used it, kept to the minute (written at most once a minute). */
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('sessions_user_idx').on(table.userId), uniqueIndex('sessions__id__unique').on(table.id)],
);

/** Single-use, expiring tokens mailed as links (password reset, set password). Stored hashed. */
export const passwordTokens = pgTable(
  'password_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['reset', 'set'] }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('password_tokens_user_idx').on(table.userId)],
);

export const accessRequests = pgTable(
  'access_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    phone: text('phone').notNull(),
    companyName: text('company_name').notNull(),
    companyWebsite: text('company_website'),
    businessCategory: text('business_category').notNull(),
    howDidYouHearAboutUs: text('how_did_you_hear_about_us').notNull(),
    language: text('language', { enum: ['en', 'ar'] })
      .notNull()
      .default('en'),
    status: text('status', { enum: ['pending', 'approved', 'rejected'] })
      .notNull()
      .default('pending'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('access_requests__email__unique').on(table.email),
    uniqueIndex('access_requests__phone__unique').on(table.phone),
  ],
);

/**
 * Every file a workspace uploaded, by the path it is served at (`/files/<workspaceId>/<name>`):
 * what counts against the workspace's quota, and what the clean-up removes once nothing refers
 * to it after the grace period.
 */
export const uploads = pgTable(
  'uploads',
  {
    path: text('path').notNull(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    bytes: integer('bytes').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    workspaceKey('uploads', table.workspaceId, table.path),
    index('uploads_created_idx').on(table.createdAt),
  ],
);

/** Solved captchas, kept until they expire so that each one is accepted once. */
export const usedCaptchas = pgTable('used_captchas', {
  digest: text('digest').primaryKey(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/** Installation-wide facts: generated secrets, whether the demo data was created. */
export const appMeta = pgTable('app_meta', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  createdAt: createdAt(),
});
