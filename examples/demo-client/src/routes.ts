import { homeUrl } from './config.ts';
import { type Dukkan, DukkanError } from './dukkan.ts';
import { errorPage, notFoundPage, signedInPage, signedOutPage } from './pages.ts';
import {
  clearedSessionCookie,
  readCookie,
  type Session,
  type SessionStore,
  type SignedIn,
  sessionCookie,
  sessionCookieName,
} from './sessions.ts';

/** What the routes need: Dukkan, the sessions, and this application's own redirect URI. */
export interface DemoApp {
  dukkan: Dukkan;
  sessions: SessionStore;
  redirectUri: () => string;
  now?: () => number;
}

export interface IncomingRequest {
  method: string;
  /** The path and query, e.g. `/callback?code=…&state=…`. */
  url: string;
  cookieHeader?: string;
}

export interface Reply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Decides what to answer to one request. No sockets here: the server only writes the reply. */
export async function handleRequest(app: DemoApp, request: IncomingRequest): Promise<Reply> {
  const url = new URL(request.url, 'http://demo.invalid');
  const session = app.sessions.get(readCookie(request.cookieHeader, sessionCookieName));
  const route = routes[url.pathname];
  if (!route) return page(404, notFoundPage());
  const handler = route[request.method];
  if (!handler) {
    const reply = page(405, errorPage('Method not allowed', `Use ${Object.keys(route).join(' or ')}.`));
    reply.headers.Allow = Object.keys(route).join(', ');
    return reply;
  }
  try {
    return await handler(app, session, url);
  } catch (error) {
    if (error instanceof DukkanError) return dukkanFailure(error);
    throw error;
  }
}

type Handler = (app: DemoApp, session: Session | undefined, url: URL) => Promise<Reply>;

const routes: Record<string, Record<string, Handler>> = {
  '/': { GET: home },
  '/login': { GET: login },
  '/callback': { GET: callback },
  '/refresh': { POST: refresh },
  '/logout': { POST: logout },
};

/**
 * The home page. When signed in, the profile is fetched from Dukkan again each time: if Dukkan no
 * longer accepts the access token (revoked because the workspace's subscription ended, say), one
 * refresh is tried, and if Dukkan refuses that too the user is signed out here.
 */
async function home(app: DemoApp, session: Session | undefined): Promise<Reply> {
  const signedIn = session?.signedIn;
  if (!session || !signedIn) return page(200, signedOutPage());
  const now = app.now ?? Date.now;
  try {
    signedIn.user = await app.dukkan.userInfo(signedIn.tokens.accessToken, signedIn.user.sub);
  } catch (error) {
    if (!(error instanceof DukkanError) || error.kind !== 'unauthorized') {
      return page(
        200,
        signedInPage(signedIn, now(), `Could not update your profile from Dukkan: ${message(error)}`),
      );
    }
    const refreshed = await refreshTokens(app.dukkan, signedIn);
    if (refreshed.outcome === 'signedOut') return signOutLocally(app, session, refreshed.reason);
    if (refreshed.outcome === 'failed') {
      return page(
        200,
        signedInPage(signedIn, now(), `Could not refresh the access token: ${refreshed.reason}`),
      );
    }
    try {
      signedIn.user = await app.dukkan.userInfo(signedIn.tokens.accessToken, signedIn.user.sub);
    } catch (retryError) {
      if (retryError instanceof DukkanError && retryError.kind !== 'failed') {
        return signOutLocally(app, session, revokedReason(retryError));
      }
      return page(
        200,
        signedInPage(signedIn, now(), `Could not update your profile from Dukkan: ${message(retryError)}`),
      );
    }
  }
  return page(200, signedInPage(signedIn, now()));
}

/** Off to Dukkan's sign-in page, remembering the PKCE verifier, state and nonce for the way back. */
async function login(app: DemoApp, existing: Session | undefined): Promise<Reply> {
  const { url, pendingLogin } = await app.dukkan.startLogin();
  const session = existing ?? app.sessions.create();
  session.pendingLogin = pendingLogin;
  const reply = redirect(url.href);
  if (!existing) reply.headers['Set-Cookie'] = sessionCookie(session.id, isSecure(app));
  return reply;
}

/** Dukkan sends the user back here, with a code, or with an error such as access_denied. */
async function callback(app: DemoApp, session: Session | undefined, url: URL): Promise<Reply> {
  const pendingLogin = session?.pendingLogin;
  if (session) session.pendingLogin = undefined; // A login attempt is used once, whatever happens.

  const error = url.searchParams.get('error');
  if (error) {
    const description = url.searchParams.get('error_description') ?? undefined;
    return page(400, errorPage('Sign-in did not succeed', error, description));
  }
  if (!session || !pendingLogin) {
    return page(
      400,
      errorPage(
        'Sign-in did not succeed',
        'This sign-in was not started here, or it was already finished.',
        'Start again from the home page.',
      ),
    );
  }

  // openid-client reads the code, state and issuer from this URL, and sends its query-less part as
  // the redirect_uri, which must be the registered one exactly.
  const callbackUrl = new URL(app.redirectUri());
  callbackUrl.search = url.search;
  const { tokens, user } = await app.dukkan.finishLogin(callbackUrl, pendingLogin);
  let signedInUser = user;
  try {
    signedInUser = await app.dukkan.userInfo(tokens.accessToken, user.sub);
  } catch {
    // The ID token's claims are enough to start with; the home page asks for userinfo again.
  }

  // A new session id on signing in, so that an id known before it (fixation) is worth nothing.
  app.sessions.destroy(session.id);
  const signedInSession = app.sessions.create();
  signedInSession.signedIn = { tokens, user: signedInUser };
  const reply = redirect('/');
  reply.headers['Set-Cookie'] = sessionCookie(signedInSession.id, isSecure(app));
  return reply;
}

/** The Refresh button: a new access token from the refresh token, unless Dukkan refuses. */
async function refresh(app: DemoApp, session: Session | undefined): Promise<Reply> {
  if (!session?.signedIn) return redirect('/');
  const refreshed = await refreshTokens(app.dukkan, session.signedIn);
  if (refreshed.outcome === 'signedOut') return signOutLocally(app, session, refreshed.reason);
  if (refreshed.outcome === 'failed') {
    return page(502, errorPage('Could not refresh the access token', refreshed.reason));
  }
  return redirect('/');
}

/**
 * Sign out: the refresh token is revoked at Dukkan, the session here is forgotten, and the browser
 * goes to Dukkan's end-session page, which signs the user out there and comes back to our home page.
 */
async function logout(app: DemoApp, session: Session | undefined): Promise<Reply> {
  const signedIn = session?.signedIn;
  if (session) app.sessions.destroy(session.id);
  let location = '/';
  if (signedIn) {
    if (signedIn.tokens.refreshToken) {
      await app.dukkan.revoke(signedIn.tokens.refreshToken).catch(() => {
        // Signing out here goes on even if Dukkan cannot be reached; its refresh token then expires there.
      });
    }
    location = await app.dukkan
      .endSessionUrl(signedIn.tokens.idToken, homeUrl(app.redirectUri()))
      .then((endSession) => endSession.href)
      .catch(() => '/');
  }
  const reply = redirect(location);
  reply.headers['Set-Cookie'] = clearedSessionCookie(isSecure(app));
  return reply;
}

type RefreshOutcome =
  | { outcome: 'refreshed' }
  | { outcome: 'signedOut'; reason: string }
  | { outcome: 'failed'; reason: string };

/**
 * Trades the refresh token for new tokens, keeping the refresh and ID tokens Dukkan does not
 * replace. Dukkan refusing (e.g. invalid_grant: the subscription expired, the user lost the app)
 * means the user is signed out; Dukkan not answering does not.
 */
export async function refreshTokens(dukkan: Dukkan, signedIn: SignedIn): Promise<RefreshOutcome> {
  const refreshToken = signedIn.tokens.refreshToken;
  if (!refreshToken)
    return { outcome: 'signedOut', reason: 'Dukkan gave this application no refresh token.' };
  try {
    const tokens = await dukkan.refresh(refreshToken);
    signedIn.tokens = {
      ...tokens,
      refreshToken: tokens.refreshToken ?? refreshToken,
      idToken: tokens.idToken ?? signedIn.tokens.idToken,
    };
    return { outcome: 'refreshed' };
  } catch (error) {
    if (error instanceof DukkanError && error.kind !== 'failed')
      return { outcome: 'signedOut', reason: revokedReason(error) };
    return { outcome: 'failed', reason: message(error) };
  }
}

/**
 * Why Dukkan ended the sign-in, in a person's words. Its refusal says only `invalid_grant` ("grant
 * request is invalid") or `invalid_token`, as OAuth does: for a sign-in that worked before, that
 * means Dukkan no longer lets this person into the application in that workspace — the
 * workspace's subscription ended, or the application was taken from them.
 */
export function revokedReason(error: DukkanError): string {
  if (error.code === 'invalid_grant' || error.code === 'invalid_token') {
    return (
      'Dukkan no longer lets you into Demo app in this workspace: its subscription to Demo app has ended, ' +
      'or your access to the app was removed. Sign in again to continue, in this workspace once it is ' +
      'subscribed again, or in another one.'
    );
  }
  return 'Dukkan ended this sign-in. Sign in again to continue.';
}

function signOutLocally(app: DemoApp, session: Session, reason: string): Reply {
  app.sessions.destroy(session.id);
  const reply = page(200, signedOutPage(`You were signed out: ${reason}`));
  reply.headers['Set-Cookie'] = clearedSessionCookie(isSecure(app));
  return reply;
}

function dukkanFailure(error: DukkanError): Reply {
  if (error.kind === 'failed') return page(502, errorPage('Could not reach Dukkan', error.message));
  return page(400, errorPage('Sign-in did not succeed', error.code, error.message));
}

function isSecure(app: DemoApp): boolean {
  return app.redirectUri().startsWith('https:');
}

function page(status: number, body: string): Reply {
  return {
    status,
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' },
    body,
  };
}

function redirect(location: string): Reply {
  // 303: after a POST too, the browser follows with a GET.
  return { status: 303, headers: { Location: location, 'Cache-Control': 'no-store' }, body: '' };
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
