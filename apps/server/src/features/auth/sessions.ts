import { and, eq, ne } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import type { Database } from '../../db/client.ts';
import { sessions } from '../../db/schema/index.ts';
import { sessionCookieName } from '../../http/sessions.ts';
import { createToken } from '../../http/tokens.ts';

// Test helpers import the cookie's name from here; its home is the shared layer.
export { sessionCookieName };

export interface SessionSettings {
  ttlDays: number;
  /** Secure cookies when the public URL is https. */
  secure: boolean;
  /** `sessionCookieNameFor(publicUrl)`: `__Host-` prefixed on https. */
  cookieName: string;
}

/** Where and how a session is opened: the browser, its address, and the methods it used (`pwd` alone by default). */
export interface SessionOrigin {
  userAgent?: string;
  address?: string;
  factors?: readonly string[];
}

export async function createSession(
  db: Database,
  userId: string,
  ttlDays: number,
  origin: SessionOrigin = {},
) {
  const { token, tokenHash } = createToken();
  const expiresAt = new Date(Date.now() + ttlDays * 24 * 60 * 60 * 1000);
  await db.insert(sessions).values({
    tokenHash,
    userId,
    expiresAt,
    userAgent: origin.userAgent?.slice(0, 255),
    address: origin.address?.slice(0, 64),
    factors: [...new Set(origin.factors ?? ['pwd'])],
  });
  return { token, expiresAt };
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
  void reply.setCookie(settings.cookieName, token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: settings.secure,
    path: '/',
    expires: expiresAt,
  });
}

export function clearSessionCookie(reply: FastifyReply, settings: SessionSettings) {
  void reply.clearCookie(settings.cookieName, {
    httpOnly: true,
    sameSite: 'lax',
    secure: settings.secure,
    path: '/',
  });
}
