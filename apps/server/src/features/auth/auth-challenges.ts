import { secondStepLifetimeMinutes } from '@dukkan/contract';
import { and, eq, gt, lt } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../../db/client.ts';
import { type AuthChallengePurpose, authChallenges } from '../../db/schema/index.ts';
import { sessionCookieName } from '../../http/sessions.ts';
import { createToken, hashToken } from '../../http/tokens.ts';

/*
 * Steps in progress (`auth_challenges`): a sign-in awaiting its second factor, found by the
 * browser's sign-in cookie, and a session's enrolment or passkey step-up, found by the session.
 * Each lives `secondStepLifetimeMinutes`; an expired one is as good as none.
 */

/** The sign-in cookie: `__Host-` prefixed on https, like the session's. */
export const signInStepCookieNameFor = (sessionCookie: string) =>
  sessionCookie.replace(sessionCookieName, 'dukkan_sign_in');

const lifetimeMs = secondStepLifetimeMinutes * 60_000;

export async function startSignInStep(db: Database, userId: string, now: Date) {
  const { token, tokenHash } = createToken();
  const expiresAt = new Date(now.getTime() + lifetimeMs);
  await db.insert(authChallenges).values({ userId, purpose: 'sign-in', tokenHash, expiresAt });
  // Old, unfinished steps go as new ones start: the table holds only what is in progress.
  await db.delete(authChallenges).where(lt(authChallenges.expiresAt, now));
  return { token, expiresAt };
}

export function setSignInStepCookie(
  reply: FastifyReply,
  cookieName: string,
  token: string,
  expiresAt: Date,
  secure: boolean,
) {
  void reply.setCookie(cookieName, token, {
    httpOnly: true,
    sameSite: 'lax',
    secure,
    path: '/',
    expires: expiresAt,
  });
}

export function clearSignInStepCookie(reply: FastifyReply, cookieName: string, secure: boolean) {
  void reply.clearCookie(cookieName, { httpOnly: true, sameSite: 'lax', secure, path: '/' });
}

/** The sign-in whose second step the request's cookie continues, if it is still open. */
export async function findSignInStep(db: Database, request: FastifyRequest, cookieName: string, now: Date) {
  const token = request.cookies[cookieName];
  if (!token || token.length > 100) return null;
  const [row] = await db
    .select()
    .from(authChallenges)
    .where(
      and(
        eq(authChallenges.tokenHash, hashToken(token)),
        eq(authChallenges.purpose, 'sign-in'),
        gt(authChallenges.expiresAt, now),
      ),
    )
    .limit(1);
  return row ?? null;
}

/** Ends a step: its row goes, so the cookie or the pending seed cannot be used again. */
export async function endChallenge(db: Database, id: string) {
  const [ended] = await db
    .delete(authChallenges)
    .where(eq(authChallenges.id, id))
    .returning({ id: authChallenges.id });
  return ended !== undefined;
}

/** Opens (or restarts) a session's step of one purpose, holding a pending seed or a WebAuthn challenge. */
export async function openSessionChallenge(
  db: Database,
  session: { tokenHash: string; userId: string },
  purpose: Exclude<AuthChallengePurpose, 'sign-in'>,
  values: { totpSecret?: string; webauthnChallenge?: string },
  now: Date,
) {
  const expiresAt = new Date(now.getTime() + lifetimeMs);
  await db
    .insert(authChallenges)
    .values({ userId: session.userId, purpose, sessionTokenHash: session.tokenHash, expiresAt, ...values })
    .onConflictDoUpdate({
      target: [authChallenges.sessionTokenHash, authChallenges.purpose],
      set: {
        expiresAt,
        totpSecret: values.totpSecret ?? null,
        webauthnChallenge: values.webauthnChallenge ?? null,
      },
    });
}

export async function findSessionChallenge(
  db: Database,
  sessionTokenHash: string,
  purpose: Exclude<AuthChallengePurpose, 'sign-in'>,
  now: Date,
) {
  const [row] = await db
    .select()
    .from(authChallenges)
    .where(
      and(
        eq(authChallenges.sessionTokenHash, sessionTokenHash),
        eq(authChallenges.purpose, purpose),
        gt(authChallenges.expiresAt, now),
      ),
    )
    .limit(1);
  return row ?? null;
}

/** Stores the WebAuthn challenge a sign-in's passkey must sign. */
export async function setSignInChallenge(db: Database, id: string, webauthnChallenge: string) {
  await db.update(authChallenges).set({ webauthnChallenge }).where(eq(authChallenges.id, id));
}
