import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { sessions, users } from './identity.ts';

/*
 * A person's second factors (docs/architecture.md, "Second factors"): authenticator apps (TOTP)
 * and passkeys, any number of each, and ten single-use recovery codes. Per person, never per
 * workspace: global tables (reference or coordinator-local on Citus, decision 0030), none of them
 * pointing into a workspace table.
 */

export const secondFactorKinds = ['totp', 'passkey'] as const;
export type SecondFactorKind = (typeof secondFactorKinds)[number];

/**
 * One factor. A TOTP factor holds its base32 seed and the last time step a code was accepted in
 * (a code is refused again in its step, and in any earlier one). A passkey holds what WebAuthn
 * registered: the credential's id and public key (base64url), its signature counter, transports,
 * and whether it may be synced (`multiDevice`: a software key, `swk`; otherwise hardware, `hwk`).
 */
export const userFactors = pgTable(
  'user_factors',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: secondFactorKinds }).notNull(),
    /** The person's own label ("Phone", "YubiKey"). */
    name: text('name').notNull(),
    totpSecret: text('totp_secret'),
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    credentialId: text('credential_id'),
    publicKey: text('public_key'),
    signCount: bigint('sign_count', { mode: 'number' }),
    transports: text('transports').array(),
    multiDevice: boolean('multi_device'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (table) => [
    index('user_factors_user_idx').on(table.userId),
    uniqueIndex('user_factors__credential_id__unique').on(table.credentialId),
    check(
      'user_factors_kind_check',
      sql`(${table.kind} = 'totp' and ${table.totpSecret} is not null)
        or (${table.kind} = 'passkey' and ${table.credentialId} is not null and ${table.publicKey} is not null
            and ${table.signCount} is not null)`,
    ),
  ],
);

export type UserFactorRow = typeof userFactors.$inferSelect;

/** Single-use recovery codes, stored as password hashes (argon2id); `used_at` set when one signs in. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (table) => [index('recovery_codes_user_idx').on(table.userId)],
);

export const authChallengePurposes = ['sign-in', 'enrol-totp', 'enrol-passkey', 'passkey'] as const;
export type AuthChallengePurpose = (typeof authChallengePurposes)[number];

/**
 * A step in progress, short-lived: a sign-in whose password was right and whose second factor is
 * awaited (`sign-in`, found by the hash of the browser's sign-in cookie), or a signed-in session's
 * enrolment or step-up (found by the session and purpose). Holds the pending TOTP seed of an
 * enrolment and the WebAuthn challenge a passkey must sign.
 */
export const authChallenges = pgTable(
  'auth_challenges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: authChallengePurposes }).notNull(),
    /** `sign-in`: the hash of the sign-in cookie's token. */
    tokenHash: text('token_hash'),
    /** Enrolment and step-up: the session it belongs to. */
    sessionTokenHash: text('session_token_hash').references(() => sessions.tokenHash, {
      onDelete: 'cascade',
    }),
    totpSecret: text('totp_secret'),
    webauthnChallenge: text('webauthn_challenge'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    uniqueIndex('auth_challenges__token_hash__unique').on(table.tokenHash),
    uniqueIndex('auth_challenges__session_purpose__unique').on(table.sessionTokenHash, table.purpose),
    index('auth_challenges_expires_idx').on(table.expiresAt),
    check(
      'auth_challenges_owner_check',
      sql`(${table.tokenHash} is not null) <> (${table.sessionTokenHash} is not null)`,
    ),
  ],
);
