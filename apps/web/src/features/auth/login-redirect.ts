/** What the login redirect carries in navigation state: the query string of the attempted page. */
export interface LoginRedirectState {
  search?: string;
}

/** `/login?from=/brands` with the query kept out of the URL: `from` holds the path only (spec §2). */
export function loginPathFor(pathname: string): string {
  // Keep slashes readable (`from=/brands`) while escaping what would break the query string.
  return `/login?from=${encodeURIComponent(pathname).replace(/%2F/gi, '/')}`;
}

/** Only same-site paths: `//evil.example` and `/\evil.example` would leave the site. */
function isLocalPath(path: string): boolean {
  return path.startsWith('/') && !path.startsWith('//') && !path.startsWith('/\\');
}

/** Where to go after signing in: `from` (or /) plus the query string carried in navigation state. */
export function loginRedirectTarget(from: string | null, state: unknown): string {
  const path = from && isLocalPath(from) ? from : '/';
  const search = (state as LoginRedirectState | null)?.search;
  if (typeof search !== 'string' || search === '' || search === '?') return path;
  return `${path}${search.startsWith('?') ? search : `?${search}`}`;
}
