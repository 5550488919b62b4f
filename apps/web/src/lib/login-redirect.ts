/** What the login redirect carries in navigation state: the query string of the attempted page. */
export interface LoginRedirectState {
  search?: string;
}

/** `/login?from=/brands` with the query kept out of the URL: `from` holds the path only (spec §2). */
export function loginPathFor(pathname: string): string {
  // Keep slashes readable (`from=/brands`) while escaping what would break the query string.
  return `/login?from=${encodeURIComponent(pathname).replace(/%2F/gi, '/')}`;
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
 * `from` as a path of this origin, or null. Decided the way the browser will read it, raw and
 * once decoded (the router decodes it again), and resolved against the page's own origin:
 * `/%09/evil.example` passes a check of its first characters, yet the browser drops the tab and
 * goes to `//evil.example`, another site.
 */
function sameOriginPath(from: string, origin: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(from);
  } catch {
    return null;
  }
  if (![from, decoded].every((path) => staysHere(asBrowserReads(path)))) return null;
  try {
    const url = new URL(asBrowserReads(from), origin);
    return url.origin === origin ? `${url.pathname}${url.search}${url.hash}` : null;
  } catch {
    return null;
  }
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
