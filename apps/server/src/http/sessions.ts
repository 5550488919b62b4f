import { and, eq, gt } from 'drizzle-orm';
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

/** The signed-in user behind the request's cookie, or null; one indexed query. */
export async function findSession(
  db: Database,
  request: FastifyRequest,
  cookieName: string,
): Promise<SessionUser | null> {
  const tokenHash = sessionTokenHash(request, cookieName);
  if (!tokenHash) return null;
  const [row] = await db
    .select({ userId: sessions.userId })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(liveSession(tokenHash))
    .limit(1);
  return row ? { tokenHash, userId: row.userId } : null;
}
