import { createHash } from 'node:crypto';
import type { AltchaChallenge, CaptchaConfig } from '@dukkan/contract';
import { createChallenge, verifySolution } from 'altcha-lib';
import type { Payload } from 'altcha-lib/types';
import { lt } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { usedCaptchas } from '../../db/schema/index.ts';
import { AppError } from '../../errors.ts';

/** The invisible captcha of request-access, forgot-password and accept-invite. */
export interface CaptchaVerifier {
  readonly publicConfig: CaptchaConfig;
  /** ALTCHA only: a fresh proof-of-work challenge for the page to solve. */
  createChallenge(): Promise<AltchaChallenge>;
  /** Accepts a token once; a missing, wrong, expired or replayed one throws `CAPTCHA`. */
  verify(token: string | undefined, remoteAddress?: string): Promise<void>;
}

const captchaFailed = () => new AppError('CAPTCHA', 'Captcha verification failed', { key: 'reCaptchaToken' });

const challengeLifetimeMs = 10 * 60 * 1000;
const digest = (value: string) => createHash('sha256').update(value).digest('hex');

/**
 * Records a solved captcha by its identity; false when it was already used (a replay). The
 * identity is what the verification proved, never the token's spelling: the same solution
 * re-encoded (whitespace, key order, an extra field, base64 without padding) is the same one.
 */
async function markUsed(db: Database, identity: string, expiresAt: Date): Promise<boolean> {
  if (Math.random() < 0.02) await db.delete(usedCaptchas).where(lt(usedCaptchas.expiresAt, new Date()));
  const inserted = await db
    .insert(usedCaptchas)
    .values({ digest: digest(identity), expiresAt })
    .onConflictDoNothing()
    .returning({ digest: usedCaptchas.digest });
  return inserted.length === 1;
}

/** The ALTCHA widget's payload (base64 of a JSON object), decoded as the library decodes it. */
function decodeAltchaPayload(token: string): Payload | undefined {
  try {
    const payload: unknown = JSON.parse(atob(token));
    if (typeof payload !== 'object' || payload === null) return undefined;
    const { challenge } = payload as Partial<Payload>;
    return typeof challenge === 'string' ? (payload as Payload) : undefined;
  } catch {
    return undefined;
  }
}

/** ALTCHA: a self-hosted proof of work, verified with an HMAC key only this server knows. */
export function createAltchaVerifier(db: Database, hmacKey: string, difficulty: number): CaptchaVerifier {
  return {
    publicConfig: { provider: 'altcha' },
    async createChallenge() {
      const challenge = await createChallenge({
        hmacKey,
        maxNumber: difficulty,
        expires: new Date(Date.now() + challengeLifetimeMs),
      });
      return {
        algorithm: challenge.algorithm,
        challenge: challenge.challenge,
        maxnumber: challenge.maxnumber,
        salt: challenge.salt,
        signature: challenge.signature,
      };
    },
    async verify(token) {
      const payload = token ? decodeAltchaPayload(token) : undefined;
      if (!payload) throw captchaFailed();
      let valid = false;
      try {
        valid = await verifySolution(payload, hmacKey, true);
      } catch {
        valid = false;
      }
      if (!valid) throw captchaFailed();
      // Verified: `challenge` is the hash of this salt and number, and the signature is ours over
      // it, so it names the one solved challenge however the token was spelled.
      const used = await markUsed(
        db,
        `altcha:${payload.challenge}`,
        new Date(Date.now() + challengeLifetimeMs),
      );
      if (!used) throw captchaFailed();
    },
  };
}

export type FetchLike = (
  url: string,
  init: { method: string; body: URLSearchParams },
) => Promise<{ json(): Promise<unknown> }>;

/** reCAPTCHA, when its keys are configured: Google verifies, and each token is accepted once. */
export function createRecaptchaVerifier(
  db: Database,
  keys: { siteKey: string; secretKey: string },
  fetchImpl: FetchLike = fetch,
): CaptchaVerifier {
  return {
    publicConfig: { provider: 'recaptcha', siteKey: keys.siteKey },
    createChallenge() {
      throw new AppError('NOT_FOUND', 'This server uses reCAPTCHA; there is no challenge to fetch');
    },
    async verify(token, remoteAddress) {
      if (!token) throw captchaFailed();
      const body = new URLSearchParams({ secret: keys.secretKey, response: token });
      if (remoteAddress) body.set('remoteip', remoteAddress);
      let success = false;
      try {
        const response = await fetchImpl('https://www.google.com/recaptcha/api/siteverify', {
          method: 'POST',
          body,
        });
        success = ((await response.json()) as { success?: boolean }).success === true;
      } catch {
        success = false;
      }
      if (!success) throw captchaFailed();
      if (!(await markUsed(db, token, new Date(Date.now() + challengeLifetimeMs)))) throw captchaFailed();
    },
  };
}
