import { randomBytes } from 'node:crypto';
import {
  type AuthenticationMethod,
  recoveryCodeCount,
  type SecondFactorMethod,
  type SecondFactorSummary,
  totpPeriodSeconds,
} from '@dukkan/contract';
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import { and, asc, count, eq, isNull, lt, or } from 'drizzle-orm';
import { generateSecret, generateURI, verify as verifyTotpCode } from 'otplib';
import { recordSignInEvent } from '../../db/audit-log.ts';
import type { Database } from '../../db/client.ts';
import { authChallenges, recoveryCodes, type UserFactorRow, userFactors } from '../../db/schema/index.ts';
import { hashPassword, verifyPassword } from './passwords.ts';

/*
 * The second factors themselves (docs/architecture.md, "Second factors"): checking a TOTP code
 * once per time step, WebAuthn's ceremonies for passkeys, and single-use recovery codes. The
 * routes (`second-factor-routes.ts`) decide what a success does to a sign-in or a session.
 */

/** Where passkeys are bound: the public URL's host and origin, never the request's (which a proxy or an attacker sets). */
export interface RelyingParty {
  id: string;
  origin: string;
  name: string;
}

export function relyingPartyOf(publicUrl: string): RelyingParty {
  const url = new URL(publicUrl);
  return { id: url.hostname, origin: url.origin, name: 'Dukkan' };
}

export const summaryOf = (row: UserFactorRow): SecondFactorSummary => ({
  id: row.id,
  kind: row.kind,
  name: row.name,
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
});

export async function listFactors(db: Database, userId: string) {
  return db
    .select()
    .from(userFactors)
    .where(eq(userFactors.userId, userId))
    .orderBy(asc(userFactors.createdAt), asc(userFactors.id));
}

export async function unusedRecoveryCodes(db: Database, userId: string): Promise<number> {
  const [row] = await db
    .select({ left: count() })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  return row?.left ?? 0;
}

/** The second steps open to a person: none until they enrol a factor. */
export async function secondStepMethods(db: Database, userId: string): Promise<SecondFactorMethod[]> {
  const factors = await listFactors(db, userId);
  if (factors.length === 0) return [];
  const methods: SecondFactorMethod[] = [];
  if (factors.some((factor) => factor.kind === 'totp')) methods.push('totp');
  if (factors.some((factor) => factor.kind === 'passkey')) methods.push('passkey');
  if ((await unusedRecoveryCodes(db, userId)) > 0) methods.push('recovery');
  return methods;
}

// --- TOTP -------------------------------------------------------------------------------------

/** A new seed: 20 random bytes (160 bits, RFC 4226's recommendation), base32 for the apps. */
export const newTotpSecret = (): string => generateSecret({ length: 20 });

export const totpUri = (secret: string, accountName: string): string =>
  generateURI({ issuer: 'Dukkan', label: accountName, secret, period: totpPeriodSeconds });

/**
 * The time step a code belongs to, if it is the seed's code now or one step either side (a phone
 * whose clock is up to 30 seconds off), and newer than `afterStep`; null otherwise.
 */
export async function totpStep(
  secret: string,
  code: string,
  now: Date,
  afterStep: number | null,
): Promise<number | null> {
  const result = await verifyTotpCode({
    secret,
    token: code,
    epoch: Math.floor(now.getTime() / 1000),
    period: totpPeriodSeconds,
    epochTolerance: totpPeriodSeconds,
    ...(afterStep === null ? {} : { afterTimeStep: afterStep }),
  }).catch(() => ({ valid: false as const }));
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}

/**
 * Accepts a code of any of the person's authenticator apps, once: the factor's last step moves to
 * the code's in the same statement that checks it was older, so two requests racing with one code
 * cannot both pass. Returns the factor that accepted it.
 */
export async function acceptTotpCode(
  db: Database,
  userId: string,
  code: string,
  now: Date,
): Promise<UserFactorRow | null> {
  const factors = (await listFactors(db, userId)).filter((factor) => factor.kind === 'totp');
  for (const factor of factors) {
    const step = await totpStep(factor.totpSecret ?? '', code, now, factor.totpLastStep);
    if (step === null) continue;
    const [claimed] = await db
      .update(userFactors)
      .set({ totpLastStep: step, lastUsedAt: now })
      .where(
        and(
          eq(userFactors.id, factor.id),
          or(isNull(userFactors.totpLastStep), lt(userFactors.totpLastStep, step)),
        ),
      )
      .returning();
    if (claimed) return claimed;
  }
  return null;
}

// --- Recovery codes ---------------------------------------------------------------------------

const base32Alphabet = 'abcdefghijklmnopqrstuvwxyz234567';

/**
 * One recovery code: 15 base32 characters, 75 bits from the system's random source (ASVS asks
 * for at least 50), printed in three groups of five.
 */
export function newRecoveryCode(): string {
  const bytes = randomBytes(15);
  const characters = [...bytes].map((byte) => base32Alphabet[byte & 31]).join('');
  return `${characters.slice(0, 5)}-${characters.slice(5, 10)}-${characters.slice(10)}`;
}

/** The code as it is hashed and compared: without its hyphens, lower case. */
export const recoveryCodeKey = (code: string) => code.replace(/-/g, '').toLowerCase();

/** Replaces the person's recovery codes with ten new ones, stored as password hashes; returns them once. */
export async function replaceRecoveryCodes(db: Database, userId: string): Promise<string[]> {
  const codes = Array.from({ length: recoveryCodeCount }, newRecoveryCode);
  const hashes = await Promise.all(codes.map((code) => hashPassword(recoveryCodeKey(code))));
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await db.insert(recoveryCodes).values(hashes.map((codeHash) => ({ userId, codeHash })));
  return codes;
}

/**
 * Uses one of the person's unused recovery codes: true once per code. The row is marked used in
 * a statement that requires it unused, so a code typed twice at once passes once.
 */
export async function useRecoveryCode(
  db: Database,
  userId: string,
  code: string,
  now: Date,
): Promise<boolean> {
  const unused = await db
    .select({ id: recoveryCodes.id, codeHash: recoveryCodes.codeHash })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  const key = recoveryCodeKey(code);
  const matches = await Promise.all(unused.map((row) => verifyPassword(row.codeHash, key)));
  const match = unused[matches.indexOf(true)];
  if (!match) return false;
  const [used] = await db
    .update(recoveryCodes)
    .set({ usedAt: now })
    .where(and(eq(recoveryCodes.id, match.id), isNull(recoveryCodes.usedAt)))
    .returning({ id: recoveryCodes.id });
  return used !== undefined;
}

// --- Passkeys ---------------------------------------------------------------------------------

/** The method a passkey proves (RFC 8176): a synced passkey is a software key, one bound to its device hardware. */
export const passkeyMethod = (factor: Pick<UserFactorRow, 'multiDevice'>): AuthenticationMethod =>
  factor.multiDevice ? 'swk' : 'hwk';

const transportsOf = (factor: UserFactorRow) =>
  (factor.transports ?? []) as NonNullable<RegistrationResponseJSON['response']['transports']>;

export async function passkeyRegistrationOptions(
  rp: RelyingParty,
  user: { id: string; email: string; name: string },
  existing: UserFactorRow[],
) {
  return generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: user.email,
    userDisplayName: user.name,
    userID: new TextEncoder().encode(user.id),
    attestationType: 'none',
    excludeCredentials: existing
      .filter((factor) => factor.kind === 'passkey' && factor.credentialId)
      .map((factor) => ({ id: factor.credentialId ?? '', transports: transportsOf(factor) })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
  });
}

/** The new passkey's columns when the browser's answer verifies against the challenge, else null. */
export async function verifyPasskeyRegistration(
  rp: RelyingParty,
  response: unknown,
  expectedChallenge: string,
) {
  const verification = await verifyRegistrationResponse({
    response: response as RegistrationResponseJSON,
    expectedChallenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    requireUserVerification: false,
  }).catch(() => null);
  if (!verification?.verified || !verification.registrationInfo) return null;
  const { credential, credentialDeviceType } = verification.registrationInfo;
  return {
    credentialId: credential.id,
    publicKey: isoBase64URL.fromBuffer(credential.publicKey),
    signCount: credential.counter,
    transports: credential.transports ?? [],
    multiDevice: credentialDeviceType === 'multiDevice',
  };
}

export async function passkeyAuthenticationOptions(rp: RelyingParty, factors: UserFactorRow[]) {
  return generateAuthenticationOptions({
    rpID: rp.id,
    userVerification: 'preferred',
    allowCredentials: factors
      .filter((factor) => factor.kind === 'passkey' && factor.credentialId)
      .map((factor) => ({ id: factor.credentialId ?? '', transports: transportsOf(factor) })),
  });
}

/**
 * Checks a passkey's signature of the challenge with the person's registered key, and moves its
 * counter on (a counter that goes back means a cloned key: refused). Returns the factor used.
 */
export async function acceptPasskey(
  db: Database,
  rp: RelyingParty,
  userId: string,
  response: unknown,
  expectedChallenge: string,
  now: Date,
): Promise<UserFactorRow | null> {
  const answer = response as AuthenticationResponseJSON;
  const [factor] = await db
    .select()
    .from(userFactors)
    .where(
      and(
        eq(userFactors.userId, userId),
        eq(userFactors.kind, 'passkey'),
        eq(userFactors.credentialId, String(answer.id)),
      ),
    )
    .limit(1);
  if (!factor?.credentialId || !factor.publicKey) return null;
  const verification = await verifyAuthenticationResponse({
    response: answer,
    expectedChallenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    credential: {
      id: factor.credentialId,
      publicKey: isoBase64URL.toBuffer(factor.publicKey),
      counter: factor.signCount ?? 0,
      transports: transportsOf(factor),
    },
    requireUserVerification: false,
  }).catch(() => null);
  if (!verification?.verified) return null;
  const { newCounter } = verification.authenticationInfo;
  // A counter of 0 throughout is an authenticator that does not count (most synced passkeys).
  const [used] = await db
    .update(userFactors)
    .set({ signCount: newCounter, lastUsedAt: now })
    .where(
      and(
        eq(userFactors.id, factor.id),
        newCounter === 0 ? eq(userFactors.signCount, 0) : lt(userFactors.signCount, newCounter),
      ),
    )
    .returning();
  return used ?? null;
}

// --- A lost factor ----------------------------------------------------------------------------

/**
 * Removes every factor and recovery code of a person (the operator's `reset-second-factors`,
 * for someone who lost theirs): they sign in with their password alone until they enrol again.
 * Their sessions stay; steps in progress end. Returns how many factors were removed.
 */
export async function resetSecondFactors(db: Database, userId: string): Promise<number> {
  return db.transaction(async (tx) => {
    const removed = await tx
      .delete(userFactors)
      .where(eq(userFactors.userId, userId))
      .returning({ id: userFactors.id });
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
    await tx.delete(authChallenges).where(eq(authChallenges.userId, userId));
    await recordSignInEvent(tx, userId, 'factors-reset', true);
    return removed.length;
  });
}
