import { and, eq, gt } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Database } from '../db/client.ts';
import { sessions, users } from '../db/schema/index.ts';
import { hashToken } from './tokens.ts';

// Reading a session, which the access guard needs. Creating, rotating and revoking sessions
// belongs to the auth feature (features/auth/sessions.ts), which builds on this.

/** The cookie that carries the session token. */
export const sessionCookieName = 'dukkan_session';

export interface SessionUser {
  tokenHash: string;
  userId: string;
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
