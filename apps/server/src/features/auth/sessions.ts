import { and, eq, gt, ne } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../../db/client.ts';
import { sessions, users } from '../../db/schema/index.ts';
import { createToken, hashToken } from './tokens.ts';

export const sessionCookieName = 'dukkan_session';

export interface SessionSettings {
  ttlDays: number;
  /** Secure cookies when the public URL is https. */
  secure: boolean;
}

export interface SessionUser {
  tokenHash: string;
  userId: string;
}

export async function createSession(db: Database, userId: string, ttlDays: number, userAgent?: string) {
  const { token, tokenHash } = createToken();
  const expiresAt = new Date(Date.now() + ttlDays * 24 * 60 * 60 * 1000);
  await db.insert(sessions).values({ tokenHash, userId, expiresAt, userAgent: userAgent?.slice(0, 255) });
  return { token, expiresAt };
}

/** The hash of the request's session cookie, or null when there is no plausible one. */
export function sessionTokenHash(request: FastifyRequest): string | null {
  const token = request.cookies[sessionCookieName];
  if (!token || token.length > 100) return null;
  return hashToken(token);
}

/** The condition a session row must meet: this token, not expired. */
export function liveSession(tokenHash: string) {
  return and(eq(sessions.tokenHash, tokenHash), gt(sessions.expiresAt, new Date()));
}

/** The signed-in user behind the request's cookie, or null; one indexed query. */
export async function findSession(db: Database, request: FastifyRequest): Promise<SessionUser | null> {
  const tokenHash = sessionTokenHash(request);
  if (!tokenHash) return null;
  const [row] = await db
    .select({ userId: sessions.userId })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(liveSession(tokenHash))
    .limit(1);
  return row ? { tokenHash, userId: row.userId } : null;
}

export async function revokeSession(db: Database, tokenHash: string) {
  await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
}

/** Revokes every session of a user, or all but one (`except`, the caller's own). */
export async function revokeUserSessions(db: Database, userId: string, except?: string) {
  await db
    .delete(sessions)
    .where(
      except ? and(eq(sessions.userId, userId), ne(sessions.tokenHash, except)) : eq(sessions.userId, userId),
    );
}

export function setSessionCookie(
  reply: FastifyReply,
  token: string,
  expiresAt: Date,
  settings: SessionSettings,
) {
  void reply.setCookie(sessionCookieName, token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: settings.secure,
    path: '/',
    expires: expiresAt,
  });
}

export function clearSessionCookie(reply: FastifyReply, settings: SessionSettings) {
  void reply.clearCookie(sessionCookieName, {
    httpOnly: true,
    sameSite: 'lax',
    secure: settings.secure,
    path: '/',
  });
}
