/**
 * Signed-in requests: an admin's session written to the database, or the cookie a sign-in answer
 * sets. Loads the server's modules: not for the bare baselines (list-baseline.ts).
 */
import type { Database } from '../../apps/server/src/db/client.ts';
import { memberships, sessions, users } from '../../apps/server/src/db/schema/index.ts';
import { createToken } from '../../apps/server/src/features/auth/tokens.ts';

/**
 * An admin of the workspace, signed in as login does it (features/auth/sessions.ts: only the
 * token's hash is stored, for 30 days): the token and the `dukkan_session=…` cookie.
 */
export async function adminSession(db: Database, workspaceId: string, user: { email: string; name: string }) {
  const [admin] = await db.insert(users).values(user).returning({ id: users.id });
  await db.insert(memberships).values({ workspaceId, userId: admin!.id, isAdmin: true });
  const { token, tokenHash } = createToken();
  await db
    .insert(sessions)
    .values({ tokenHash, userId: admin!.id, expiresAt: new Date(Date.now() + 30 * 24 * 60 * 60 * 1000) });
  return { token, cookie: `dukkan_session=${token}` };
}

/** The `dukkan_session=…` pair a sign-in answer sets; an error if it sets none. */
function sessionCookie(response: Response): string {
  const cookie = response.headers
    .getSetCookie()
    .map((header) => header.split(';')[0] ?? '')
    .find((pair) => pair.startsWith('dukkan_session='));
  if (!cookie) throw new Error('sign-in set no session cookie');
  return cookie;
}

/**
 * Signs in by `POST /api/auth/login` and checks the new cookie on `GET /api/auth/user`: the
 * cookie, and that answer's body.
 */
export async function signIn(url: string, email: string, password: string) {
  const response = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (response.status !== 200)
    throw new Error(`sign-in of ${email} answered ${response.status}: ${await response.text()}`);
  const cookie = sessionCookie(response);
  const check = await fetch(`${url}/api/auth/user`, { headers: { cookie } });
  const body = await check.text();
  if (check.status !== 200)
    throw new Error(`GET /api/auth/user with the new cookie answered ${check.status}`);
  return { cookie, body };
}
