import { beforeEach, describe, expect, it } from 'vitest';
import { type Dukkan, DukkanError } from './dukkan.ts';
import { type DemoApp, handleRequest, type Reply } from './routes.ts';
import { type PendingLogin, SessionStore, type Tokens, type UserClaims } from './sessions.ts';

const now = Date.UTC(2026, 0, 1, 10, 0, 0);
const pending: PendingLogin = { codeVerifier: 'verifier', state: 'state-1', nonce: 'nonce-1' };
const mona: UserClaims = {
  sub: 'user-1',
  name: 'Mona',
  email: 'mona@example.com',
  workspace_id: 'ws-9',
  workspace_name: 'Cairo Shop',
};
const firstTokens: Tokens = {
  accessToken: 'access-1',
  accessTokenExpiresAt: now + 3600_000,
  refreshToken: 'refresh-1',
  idToken: 'id-1',
};

/** A Dukkan that answers as each test says, and notes what it was asked. */
class FakeDukkan implements Dukkan {
  calls: string[] = [];
  userInfoAnswers: Array<UserClaims | DukkanError> = [];
  refreshAnswer: Tokens | DukkanError = { accessToken: 'access-2', accessTokenExpiresAt: now + 7200_000 };
  finishAnswer: { tokens: Tokens; user: UserClaims } | DukkanError = {
    tokens: firstTokens,
    user: { sub: 'user-1', name: 'Mona (ID token)' },
  };

  async startLogin() {
    this.calls.push('startLogin');
    return { url: new URL('http://dukkan.test/authenticate?client_id=dukkan-demo'), pendingLogin: pending };
  }
  async finishLogin(callbackUrl: URL, pendingLogin: PendingLogin) {
    this.calls.push(`finishLogin ${callbackUrl.href} ${pendingLogin.state}`);
    return answer(this.finishAnswer);
  }
  async userInfo(accessToken: string, expectedSub: string) {
    this.calls.push(`userInfo ${accessToken} ${expectedSub}`);
    return answer(this.userInfoAnswers.shift() ?? mona);
  }
  async refresh(refreshToken: string) {
    this.calls.push(`refresh ${refreshToken}`);
    return answer(this.refreshAnswer);
  }
  async revoke(refreshToken: string) {
    this.calls.push(`revoke ${refreshToken}`);
  }
  async endSessionUrl(idToken: string | undefined, postLogoutRedirectUri: string) {
    this.calls.push(`endSession ${idToken} ${postLogoutRedirectUri}`);
    const url = new URL('http://dukkan.test/oidc/session/end');
    url.searchParams.set('post_logout_redirect_uri', postLogoutRedirectUri);
    return url;
  }
}

function answer<T>(value: T | DukkanError): T {
  if (value instanceof DukkanError) throw value;
  return value;
}

const refused = (description: string) => new DukkanError('refused', 'invalid_grant', description);
const revoked = new DukkanError('unauthorized', 'invalid_token', 'invalid token provided');
const unreachable = new DukkanError('failed', 'failed', 'fetch failed: connect ECONNREFUSED');

let dukkan: FakeDukkan;
let sessions: SessionStore;
let app: DemoApp;

beforeEach(() => {
  dukkan = new FakeDukkan();
  sessions = new SessionStore();
  app = { dukkan, sessions, redirectUri: () => 'http://localhost:3001/callback', now: () => now };
});

function request(method: string, url: string, cookie?: string): Promise<Reply> {
  return handleRequest(app, { method, url, cookieHeader: cookie });
}

function cookieFrom(reply: Reply): string {
  const id = /^demo_session=([^;]*)/.exec(reply.headers['Set-Cookie'] ?? '')?.[1];
  if (!id) throw new Error(`no session cookie in ${JSON.stringify(reply.headers)}`);
  return `demo_session=${id}`;
}

/** Goes through /login and /callback; returns the signed-in session's cookie. */
async function signIn(): Promise<string> {
  const login = await request('GET', '/login');
  const callback = await request('GET', '/callback?code=c0de&state=state-1', cookieFrom(login));
  expect(callback.status).toBe(303);
  return cookieFrom(callback);
}

describe('signed out', () => {
  it('the home page offers to sign in with Dukkan and asks Dukkan nothing', async () => {
    const reply = await request('GET', '/');
    expect(reply.status).toBe(200);
    expect(reply.body).toContain('Sign in with Dukkan');
    expect(dukkan.calls).toEqual([]);
  });

  it('an unknown session cookie is a signed-out visitor', async () => {
    const reply = await request('GET', '/', 'demo_session=forged');
    expect(reply.body).toContain('Sign in with Dukkan');
  });
});

describe('/login', () => {
  it('keeps the PKCE verifier, state and nonce in a new session and redirects to Dukkan', async () => {
    const reply = await request('GET', '/login');
    expect(reply.status).toBe(303);
    expect(reply.headers.Location).toBe('http://dukkan.test/authenticate?client_id=dukkan-demo');
    expect(reply.headers['Set-Cookie']).toMatch(/^demo_session=[\w-]+; Path=\/; HttpOnly; SameSite=Lax$/);
    const session = sessions.get(cookieFrom(reply).split('=')[1]);
    expect(session?.pendingLogin).toEqual(pending);
  });

  it('reuses the session the browser already has', async () => {
    const cookie = cookieFrom(await request('GET', '/login'));
    const again = await request('GET', '/login', cookie);
    expect(again.headers['Set-Cookie']).toBeUndefined();
    expect(sessions.size).toBe(1);
  });

  it('says so when Dukkan cannot be reached', async () => {
    dukkan.startLogin = async () => {
      throw unreachable;
    };
    const reply = await request('GET', '/login');
    expect(reply.status).toBe(502);
    expect(reply.body).toContain('Could not reach Dukkan');
    expect(reply.body).toContain('ECONNREFUSED');
  });
});

describe('/callback', () => {
  it('exchanges the code at the registered redirect URI, fetches userinfo, and signs in with a new session id', async () => {
    const login = await request('GET', '/login');
    const reply = await request('GET', '/callback?code=c0de&state=state-1&iss=x', cookieFrom(login));
    expect(reply.status).toBe(303);
    expect(reply.headers.Location).toBe('/');
    expect(cookieFrom(reply)).not.toBe(cookieFrom(login));
    expect(sessions.get(cookieFrom(login).split('=')[1])).toBeUndefined();
    expect(dukkan.calls).toEqual([
      'startLogin',
      'finishLogin http://localhost:3001/callback?code=c0de&state=state-1&iss=x state-1',
      'userInfo access-1 user-1',
    ]);
    const session = sessions.get(cookieFrom(reply).split('=')[1]);
    expect(session?.signedIn).toEqual({ tokens: firstTokens, user: mona });
  });

  it("shows Dukkan's error (access_denied when the workspace has not installed the app) and a link home", async () => {
    const login = await request('GET', '/login');
    const reply = await request(
      'GET',
      '/callback?error=access_denied&error_description=The+workspace+has+not+installed+Demo+app&state=state-1',
      cookieFrom(login),
    );
    expect(reply.status).toBe(400);
    expect(reply.body).toContain('access_denied');
    expect(reply.body).toContain('The workspace has not installed Demo app');
    expect(reply.body).toContain('<a href="/">');
    expect(dukkan.calls).toEqual(['startLogin']);
    expect(sessions.get(cookieFrom(login).split('=')[1])?.pendingLogin).toBeUndefined();
  });

  it('refuses a callback this browser did not start, or a second use of one', async () => {
    expect((await request('GET', '/callback?code=c0de&state=state-1')).status).toBe(400);
    const login = await request('GET', '/login');
    dukkan.finishAnswer = refused('authorization code is invalid');
    const first = await request('GET', '/callback?code=c0de&state=state-1', cookieFrom(login));
    expect(first.status).toBe(400);
    expect(first.body).toContain('authorization code is invalid');
    const second = await request('GET', '/callback?code=c0de&state=state-1', cookieFrom(login));
    expect(second.body).toContain('This sign-in was not started here');
  });

  it('falls back to the ID token claims when userinfo fails', async () => {
    dukkan.userInfoAnswers = [unreachable];
    const cookie = await signIn();
    expect(sessions.get(cookie.split('=')[1])?.signedIn?.user.name).toBe('Mona (ID token)');
  });
});

describe('home page, signed in', () => {
  it('shows userinfo fetched again: name, email, workspace and the token expiry, with Refresh and Sign out', async () => {
    const cookie = await signIn();
    dukkan.userInfoAnswers = [{ ...mona, workspace_name: 'Cairo Shop (renamed)' }];
    const reply = await request('GET', '/', cookie);
    expect(reply.status).toBe(200);
    expect(reply.body).toContain('Mona');
    expect(reply.body).toContain('mona@example.com');
    expect(reply.body).toContain('Cairo Shop (renamed)');
    expect(reply.body).toContain('ws-9');
    expect(reply.body).toContain('expires at 2026-01-01 11:00:00 UTC (in 60 min)');
    expect(reply.body).toContain('action="/refresh"');
    expect(reply.body).toContain('action="/logout"');
  });

  it('when the access token was revoked, refreshes once and shows the page with the new token', async () => {
    const cookie = await signIn();
    dukkan.calls = [];
    dukkan.userInfoAnswers = [revoked, mona];
    const reply = await request('GET', '/', cookie);
    expect(dukkan.calls).toEqual([
      'userInfo access-1 user-1',
      'refresh refresh-1',
      'userInfo access-2 user-1',
    ]);
    expect(reply.body).toContain('expires at 2026-01-01 12:00:00 UTC (in 120 min)');
    const tokens = sessions.get(cookie.split('=')[1])?.signedIn?.tokens;
    expect(tokens).toEqual({
      accessToken: 'access-2',
      accessTokenExpiresAt: now + 7200_000,
      refreshToken: 'refresh-1',
      idToken: 'id-1',
    });
  });

  it('when the access token was revoked and the refresh is refused, signs the user out here with the reason', async () => {
    const cookie = await signIn();
    dukkan.userInfoAnswers = [revoked];
    dukkan.refreshAnswer = refused("The workspace's subscription to Demo app has expired");
    const reply = await request('GET', '/', cookie);
    expect(reply.status).toBe(200);
    // In a person's words, not the OAuth refusal's.
    expect(reply.body).toContain(
      'You were signed out: Dukkan no longer lets you into Demo app in this workspace: its subscription to Demo app has ended',
    );
    expect(reply.body).not.toContain('has expired');
    expect(reply.body).toContain('Sign in with Dukkan');
    expect(reply.headers['Set-Cookie']).toContain('Max-Age=0');
    expect(sessions.size).toBe(0);
  });

  it('when Dukkan does not answer, keeps the user signed in with what it knew and says so', async () => {
    const cookie = await signIn();
    dukkan.userInfoAnswers = [unreachable];
    const reply = await request('GET', '/', cookie);
    expect(reply.body).toContain('Could not update your profile from Dukkan: fetch failed');
    expect(reply.body).toContain('Cairo Shop');
    expect(sessions.size).toBe(1);
  });
});

describe('POST /refresh', () => {
  it('trades the refresh token for new tokens, keeping a rotated refresh token', async () => {
    const cookie = await signIn();
    dukkan.refreshAnswer = { accessToken: 'access-3', refreshToken: 'refresh-2' };
    const reply = await request('POST', '/refresh', cookie);
    expect(reply.status).toBe(303);
    expect(reply.headers.Location).toBe('/');
    const tokens = sessions.get(cookie.split('=')[1])?.signedIn?.tokens;
    expect(tokens).toMatchObject({ accessToken: 'access-3', refreshToken: 'refresh-2', idToken: 'id-1' });
  });

  it('when Dukkan refuses (invalid_grant), clears the session and says why', async () => {
    const cookie = await signIn();
    dukkan.refreshAnswer = refused('The user no longer has access to Demo app');
    const reply = await request('POST', '/refresh', cookie);
    expect(reply.status).toBe(200);
    expect(reply.body).toContain('You were signed out: Dukkan no longer lets you into Demo app');
    expect(reply.body).toContain('your access to the app was removed');
    expect(reply.body).not.toContain('The user no longer has access');
    expect(reply.headers['Set-Cookie']).toContain('Max-Age=0');
    expect(sessions.size).toBe(0);
  });

  it('when Dukkan cannot be reached, keeps the session', async () => {
    const cookie = await signIn();
    dukkan.refreshAnswer = unreachable;
    const reply = await request('POST', '/refresh', cookie);
    expect(reply.status).toBe(502);
    expect(sessions.size).toBe(1);
  });

  it('is a POST only, and a signed-out visitor is sent home', async () => {
    expect((await request('GET', '/refresh')).status).toBe(405);
    expect((await request('POST', '/refresh')).headers.Location).toBe('/');
  });
});

describe('POST /logout', () => {
  it("revokes the refresh token, forgets the session and goes to Dukkan's end-session page", async () => {
    const cookie = await signIn();
    dukkan.calls = [];
    const reply = await request('POST', '/logout', cookie);
    expect(dukkan.calls).toEqual(['revoke refresh-1', 'endSession id-1 http://localhost:3001/']);
    expect(reply.status).toBe(303);
    expect(reply.headers.Location).toBe(
      'http://dukkan.test/oidc/session/end?post_logout_redirect_uri=http%3A%2F%2Flocalhost%3A3001%2F',
    );
    expect(reply.headers['Set-Cookie']).toContain('Max-Age=0');
    expect(sessions.size).toBe(0);
  });

  it('signs out here even when Dukkan cannot be reached', async () => {
    const cookie = await signIn();
    dukkan.revoke = async () => {
      throw unreachable;
    };
    dukkan.endSessionUrl = async () => {
      throw unreachable;
    };
    const reply = await request('POST', '/logout', cookie);
    expect(reply.headers.Location).toBe('/');
    expect(sessions.size).toBe(0);
  });
});

it('answers 404 to other paths', async () => {
  expect((await request('GET', '/nothing')).status).toBe(404);
});
