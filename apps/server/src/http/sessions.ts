import { and, eq, gt, lt } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Database } from '../db/client.ts';
import { sessions, users } from '../db/schema/index.ts';
import { hashToken } from './tokens.ts';

// Reading a session, which the access guard needs. Creating, rotating and revoking sessions
// belongs to the auth feature (features/auth/sessions.ts), which builds on this.

/** The cookie that carries the session token, as named on http (see `sessionCookieNameFor`). */
export const sessionCookieName = 'dukkan_session';

/**
 * The session cookie's name for a public URL: on https it has the `__Host-` prefix, so the browser
 * keeps it only when it is Secure, on path `/` and set by this very host (a sibling subdomain
 * cannot plant or overwrite a session). Only that name is read there.
 */
export function sessionCookieNameFor(publicUrl: string): string {
  return publicUrl.startsWith('https://') ? `__Host-${sessionCookieName}` : sessionCookieName;
}

export interface SessionUser {
  tokenHash: string;
  userId: string;
  /** How the session authenticated (RFC 8176 method names): `pwd`, and `otp`, `hwk` or `swk` after a second factor. */
  factors: string[];
}

/** The hash of the request's session cookie, or null when there is no plausible one. */
export function sessionTokenHash(request: FastifyRequest, cookieName: string): string | null {
  const token = request.cookies[cookieName];
  if (!token || token.length > 100) return null;
  return hashToken(token);
}

/** The condition a session row must meet: this token, not expired. */
export function liveSession(tokenHash: string) {
  return and(eq(sessions.tokenHash, tokenHash), gt(sessions.expiresAt, new Date()));
}

/** How often a session's "last seen" is written: at most once a minute, not on every request. */
const lastSeenResolutionMs = 60_000;

/**
 * Notes that a session was used now, when its last note is over a minute old: what the person's
 * session list shows as "last seen". At most one write a minute per session, never waited for
 * twice (the condition makes a racing second write a no-op).
 */
export async function touchSession(db: Database, tokenHash: string, lastSeenAt: Date, now = new Date()) {
  if (now.getTime() - lastSeenAt.getTime() < lastSeenResolutionMs) return;
  const stale = new Date(now.getTime() - lastSeenResolutionMs);
  await db
    .update(sessions)
    .set({ lastSeenAt: now })
    .where(and(eq(sessions.tokenHash, tokenHash), lt(sessions.lastSeenAt, stale)));
}

/** The signed-in user behind the request's cookie, or null; one indexed query. */
export async function findSession(
  db: Database,
  request: FastifyRequest,
  cookieName: string,
): Promise<SessionUser | null> {
  const tokenHash = sessionTokenHash(request, cookieName);
  if (!tokenHash) return null;
  const [row] = await db
    .select({ userId: sessions.userId, factors: sessions.factors, lastSeenAt: sessions.lastSeenAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(liveSession(tokenHash))
    .limit(1);
  if (!row) return null;
  await touchSession(db, tokenHash, row.lastSeenAt);
  return { tokenHash, userId: row.userId, factors: row.factors };
}
