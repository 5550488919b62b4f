import { randomUUID } from 'node:crypto';
import { desc, gt, isNull, lt, or } from 'drizzle-orm';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import type { Database } from '../../db/client.ts';
import { oauthSigningKeys } from '../../db/schema/index.ts';
import { lockUntilCommit } from '../../db/transaction-lock.ts';

/*
 * The keys that sign ID tokens: made at the first start, kept in the database (every instance
 * signs and publishes the same ones) and rotated by the operator (`dukkan oidc rotate-keys`). A
 * retired key stays in the JWKS for `retiredKeyLifeMs`, longer than any ID token lives, so what it
 * signed still verifies after a rotation.
 */

const signingAlgorithm = 'RS256';
export const retiredKeyLifeMs = 2 * 24 * 60 * 60 * 1000;

async function newKey(): Promise<{ kid: string; jwk: JWK }> {
  const { privateKey } = await generateKeyPair(signingAlgorithm, { extractable: true });
  const kid = randomUUID();
  return { kid, jwk: { ...(await exportJWK(privateKey)), kid, alg: signingAlgorithm, use: 'sig' } };
}

/** Makes the first key when there is none to sign with; several instances starting at once make one. */
export async function ensureSigningKey(db: Database): Promise<void> {
  await db.transaction(async (tx) => {
    await lockUntilCommit(tx, 'oauth', 'signing-keys');
    const [current] = await tx
      .select({ kid: oauthSigningKeys.kid })
      .from(oauthSigningKeys)
      .where(isNull(oauthSigningKeys.retiredAt))
      .limit(1);
    if (!current) await tx.insert(oauthSigningKeys).values(await newKey());
  });
}

/**
 * The keys to hand to the provider: the one that signs first (the newest not retired), then those
 * retired less than `retiredKeyLifeMs` ago, which only verify.
 */
export async function loadSigningKeys(db: Database, now: Date): Promise<JWK[]> {
  const rows = await db
    .select({ jwk: oauthSigningKeys.jwk, retiredAt: oauthSigningKeys.retiredAt })
    .from(oauthSigningKeys)
    .where(
      or(
        isNull(oauthSigningKeys.retiredAt),
        gt(oauthSigningKeys.retiredAt, new Date(now.getTime() - retiredKeyLifeMs)),
      ),
    )
    .orderBy(desc(isNull(oauthSigningKeys.retiredAt)), desc(oauthSigningKeys.createdAt));
  return rows.map((row) => row.jwk as JWK);
}

/**
 * A new key signs from now on; the one it replaces is retired (still published), and keys retired
 * long enough ago are deleted. Returns the new key's id.
 */
export async function rotateSigningKeys(db: Database, now: Date): Promise<{ kid: string; removed: number }> {
  const key = await newKey();
  return db.transaction(async (tx) => {
    await lockUntilCommit(tx, 'oauth', 'signing-keys');
    await tx.update(oauthSigningKeys).set({ retiredAt: now }).where(isNull(oauthSigningKeys.retiredAt));
    await tx.insert(oauthSigningKeys).values({ ...key, createdAt: now });
    const removed = await tx
      .delete(oauthSigningKeys)
      .where(lt(oauthSigningKeys.retiredAt, new Date(now.getTime() - retiredKeyLifeMs)))
      .returning({ kid: oauthSigningKeys.kid });
    return { kid: key.kid, removed: removed.length };
  });
}

/** A fingerprint of the published keys: an instance rebuilds its provider when it changes. */
export function keySetVersion(keys: readonly JWK[]): string {
  return keys.map((key) => key.kid).join(',');
}
