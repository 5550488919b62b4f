/**
 * What the login page may receive in navigation state: the query string of the attempted page,
 * and the email to fill in (from the invitation just accepted: kept out of the URL).
 */
export interface LoginRedirectState {
  search?: string;
  email?: string;
}

/** The email the login page is handed in navigation state, if any. */
export function loginEmailFrom(state: unknown): string {
  const email = (state as LoginRedirectState | null)?.email;
  return typeof email === 'string' ? email : '';
}

/** `/login?from=/brands` with the query kept out of the URL: `from` holds the path only (spec §2). */
export function loginPathFor(pathname: string): string {
  return withLoginReturn('/login', pathname);
}

/**
 * Where a page that needs a session sends a signed-out visitor: the login page with `from` its
 * path, and its query string in navigation state, re-appended after signing in (spec §2).
 */
export function loginRedirectFor(location: { pathname: string; search: string }): {
  to: string;
  state: LoginRedirectState;
} {
  return { to: loginPathFor(location.pathname), state: { search: location.search } };
}

/**
 * How a browser reads a path (WHATWG URL): tabs and line breaks dropped wherever they are, a
 * backslash taken as a slash.
 */
const asBrowserReads = (path: string) => path.replace(/[\t\n\r]/g, '').replace(/\\/g, '/');

/** A path that stays on this site: one leading slash, not two (`//evil.example` is another host). */
const staysHere = (path: string) => path.startsWith('/') && !path.startsWith('//');

/**
 * `path` resolved against the origin the way the browser will (dot segments removed), or null
 * when that leaves the origin or becomes a path the browser reads as another host: `/.//evil.test`
 * resolves to `//evil.test`, which the history refuses to push, leaving a blank page.
 */
function resolvedHere(path: string, origin: string): URL | null {
  try {
    const url = new URL(asBrowserReads(path), origin);
    return url.origin === origin && staysHere(url.pathname) ? url : null;
  } catch {
    return null;
  }
}

/**
 * `from` as a path of this origin, or null. Decided the way the browser will read it, raw and
 * once decoded (the router decodes it again), before and after resolving it against the page's
 * own origin: `/%09/evil.example` passes a check of its first characters, yet the browser drops
 * the tab and goes to `//evil.example`, another site; `/brands/..//evil.example` starts well and
 * resolves to `//evil.example`.
 */
function sameOriginPath(from: string, origin: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(from);
  } catch {
    return null;
  }
  if (![from, decoded].every((path) => staysHere(asBrowserReads(path)))) return null;
  if (!resolvedHere(decoded, origin)) return null;
  const url = resolvedHere(from, origin);
  return url ? `${url.pathname}${url.search}${url.hash}` : null;
}

/** Where to go after signing in: `from` (or /) plus the query string carried in navigation state. */
export function loginRedirectTarget(
  from: string | null,
  state: unknown,
  origin: string = globalThis.location?.origin ?? 'http://localhost',
): string {
  const path = (from && sameOriginPath(from, origin)) || '/';
  const search = (state as LoginRedirectState | null)?.search;
  if (typeof search !== 'string' || search === '' || search === '?') return path;
  return `${path}${search.startsWith('?') ? search : `?${search}`}`;
}

/** What sign-in needs to know of the member who just signed in. */
export interface SignInAccess {
  /** May the member open the page at this path (its route's guard, in their workspace)? */
  mayOpen: (pathname: string) => boolean;
  /** The menu's pages, in the menu's order. */
  menu: readonly string[];
}

const pathnameOf = (target: string) => target.replace(/[?#].*$/s, '');

/**
 * Where signing in lands (spec §4, "from or /", and decision 0018): the page it was sent from
 * (`loginRedirectTarget`: a path of this origin, with its query) if the member may open it, else
 * the dashboard `/` if they may open that, else the first page of the menu they may open — never
 * a refusal. Only with no page at all to open (no menu page is allowed) does it stay at the
 * target, where the refusal offers to sign out.
 */
export function landingAfterSignIn(
  from: string | null,
  state: unknown,
  access: SignInAccess,
  origin: string = globalThis.location?.origin ?? 'http://localhost',
): string {
  const target = loginRedirectTarget(from, state, origin);
  if (access.mayOpen(pathnameOf(target))) return target;
  if (access.mayOpen('/')) return '/';
  return access.menu.find((path) => access.mayOpen(path)) ?? target;
}

/**
 * The query string a sign-in must return with (the portal's OAuth parameters), kept for the tab
 * (`sessionStorage`, decision 0034) beside navigation state: a reload of /login or a detour
 * through /forgot-password and back, which arrive without that state, still return with it. Kept
 * for one return path at a time, and only handed back for that same path.
 */
const loginReturnKey = 'dukkan.loginReturn';

interface StoredLoginReturn {
  from: string;
  search: string;
}

function storage(): Storage | null {
  try {
    return globalThis.sessionStorage ?? null;
  } catch {
    return null; // blocked storage: navigation state alone, as before
  }
}

/**
 * The navigation state /login goes on with: `state` as given when it carries a query string (and
 * that query is remembered for `from`); else, for the same `from`, the query remembered earlier in
 * this tab; else `state` unchanged.
 */
export function loginReturnState(from: string | null, state: unknown): unknown {
  const given = state as LoginRedirectState | null;
  const store = storage();
  if (!from || !store) return state;
  try {
    if (typeof given?.search === 'string' && given.search !== '') {
      store.setItem(
        loginReturnKey,
        JSON.stringify({ from, search: given.search } satisfies StoredLoginReturn),
      );
      return state;
    }
    const stored = JSON.parse(store.getItem(loginReturnKey) ?? 'null') as Partial<StoredLoginReturn> | null;
    if (stored?.from !== from || typeof stored.search !== 'string') return state;
    return { ...(given ?? {}), search: stored.search } satisfies LoginRedirectState;
  } catch {
    return state;
  }
}

/** Signed in and on the way back: the remembered query has been used. */
export function forgetLoginReturn(): void {
  try {
    storage()?.removeItem(loginReturnKey);
  } catch {
    // blocked storage: nothing was kept
  }
}

/** /login or /forgot-password keeping the return path (`?from=`) of the page it is reached from. */
export function withLoginReturn(path: '/login' | '/forgot-password', from: string | null): string {
  // Keep slashes readable (`from=/brands`) while escaping what would break the query string.
  return from ? `${path}?from=${encodeURIComponent(from).replace(/%2F/gi, '/')}` : path;
}
