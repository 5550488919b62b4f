import { randomBytes } from 'node:crypto';

/** What the application remembers between the trip to Dukkan and the way back. */
export interface PendingLogin {
  codeVerifier: string;
  state: string;
  nonce: string;
}

/** The claims Dukkan gives about the signed-in user (ID token and userinfo). */
export interface UserClaims {
  sub: string;
  name?: string;
  email?: string;
  picture?: string;
  locale?: string;
  /** The workspace the user chose in Dukkan: this application acts in it only. */
  workspace_id?: string;
  workspace_name?: string;
}

export interface Tokens {
  accessToken: string;
  /** When the access token expires (milliseconds since the epoch), if Dukkan said. */
  accessTokenExpiresAt?: number;
  refreshToken?: string;
  idToken?: string;
}

export interface SignedIn {
  tokens: Tokens;
  user: UserClaims;
}

export interface Session {
  id: string;
  pendingLogin?: PendingLogin;
  signedIn?: SignedIn;
  lastSeen: number;
}

export const sessionCookieName = 'demo_session';

/** Sessions in memory: they are gone when the process stops, which is fine for a demo. */
export class SessionStore {
  readonly #sessions = new Map<string, Session>();

  constructor(
    /** A session unused for this long is forgotten. */
    private readonly idleTimeoutMs = 8 * 60 * 60 * 1000,
    private readonly now: () => number = Date.now,
  ) {}

  create(): Session {
    this.#forgetIdle();
    const session: Session = { id: randomBytes(32).toString('base64url'), lastSeen: this.now() };
    this.#sessions.set(session.id, session);
    return session;
  }

  get(id: string | undefined): Session | undefined {
    if (!id) return undefined;
    const session = this.#sessions.get(id);
    if (!session) return undefined;
    if (this.now() - session.lastSeen > this.idleTimeoutMs) {
      this.#sessions.delete(id);
      return undefined;
    }
    session.lastSeen = this.now();
    return session;
  }

  destroy(id: string): void {
    this.#sessions.delete(id);
  }

  get size(): number {
    return this.#sessions.size;
  }

  #forgetIdle(): void {
    const now = this.now();
    for (const [id, session] of this.#sessions) {
      if (now - session.lastSeen > this.idleTimeoutMs) this.#sessions.delete(id);
    }
  }
}

/** Finds one cookie's value in a request's `Cookie` header. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const separator = part.indexOf('=');
    if (separator < 0) continue;
    if (part.slice(0, separator).trim() === name) return part.slice(separator + 1).trim();
  }
  return undefined;
}

/**
 * The `Set-Cookie` value for the session id: HttpOnly (page scripts cannot read it) and
 * SameSite=Lax (other sites cannot send it with a form POST, which protects /refresh and /logout).
 * `secure` when the application itself is served over https.
 */
export function sessionCookie(id: string, secure: boolean): string {
  return `${sessionCookieName}=${id}; Path=/; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/** The `Set-Cookie` value that makes the browser forget the session id. */
export function clearedSessionCookie(secure: boolean): string {
  return `${sessionCookieName}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secure ? '; Secure' : ''}`;
}
