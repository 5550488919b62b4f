import { boolean, index, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './catalogue.ts';
import { users, workspaces } from './identity.ts';
import { applications } from './subscriptions.ts';
import { workspaceKey } from './workspace-keys.ts';

/*
 * The sign-in portal's authorization server (oidc-provider) keeps its state here, shared by every
 * instance: its models (sessions, interactions, codes, tokens, grants), the signing keys, and
 * which workspace each grant acts in.
 */

/**
 * One row per oidc-provider model instance (`model` is its name: AuthorizationCode, RefreshToken,
 * Session, Interaction, Grant…). The lookup columns are copies of payload fields the adapter
 * finds rows by; `consumed_at` is set once, atomically, when a code or token is used.
 */
export const oauthModels = pgTable(
  'oauth_models',
  {
    model: text('model').notNull(),
    id: text('id').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    grantId: text('grant_id'),
    uid: text('uid'),
    userCode: text('user_code'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
  },
  (table) => [
    primaryKey({ columns: [table.model, table.id] }),
    index('oauth_models_grant_idx').on(table.grantId),
    index('oauth_models_uid_idx').on(table.uid),
    index('oauth_models_user_code_idx').on(table.userCode),
    index('oauth_models_expires_idx').on(table.expiresAt),
  ],
);

/**
 * The workspace a grant acts in, and whose and for which application it is: the portal writes it
 * when the user signs in to the application, and revokes the grant's codes and tokens through it
 * when the subscription, the membership or the password changes.
 */
export const oauthGrants = pgTable(
  'oauth_grants',
  {
    grantId: text('grant_id').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    applicationId: uuid('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    /** Whether the session that signed in had used a second factor: a workspace that requires one refuses the rest. */
    multiFactor: boolean('multi_factor').notNull().default(false),
    createdAt: createdAt(),
  },
  (table) => [
    workspaceKey('oauth_grants', table.workspaceId, table.grantId),
    // oidc-provider names a grant by its id alone: revocations look it up across workspaces.
    index('oauth_grants_grant_idx').on(table.grantId),
    index('oauth_grants_user_idx').on(table.userId),
    index('oauth_grants_workspace_application_idx').on(table.workspaceId, table.applicationId),
  ],
);

/**
 * The keys that sign ID tokens (private JWKs). The newest one not retired signs; retired ones stay
 * published in the JWKS until `retired_at` is older than the longest token's life, so tokens
 * signed before a rotation still verify.
 */
export const oauthSigningKeys = pgTable('oauth_signing_keys', {
  kid: text('kid').primaryKey(),
  jwk: jsonb('jwk').$type<Record<string, unknown>>().notNull(),
  createdAt: createdAt(),
  retiredAt: timestamp('retired_at', { withTimezone: true }),
});
