/**
 * The addresses of the pages outside the signed-in area (spec §2): the web app routes them, and
 * the server knows them to give a page's first answer what that page loads (`http/spa.ts`).
 */
export const publicPages = {
  login: '/login',
  logout: '/logout',
  requestAccess: '/request-for-access',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  setPassword: '/set-password',
  acceptInvite: '/accept-invite',
  notFound: '/404',
  /** The sign-in portal: it needs a session, but not the signed-in area's shell. */
  portal: '/authenticate',
} as const;

/**
 * Where an address belongs: the login page, the sign-in portal (a session, no shell), another
 * public page, or the signed-in area.
 */
export type PageArea = 'login' | 'portal' | 'public' | 'signedIn';

const publicPagePaths = new Set<string>(Object.values(publicPages));

/**
 * The area of a path (a query or fragment is ignored; repeated and trailing slashes are not part of
 * the name). The server answers each area's first request with the scripts it needs (`http/spa.ts`);
 * the web app starts each area's downloads at once (`main.tsx`).
 */
export function pageArea(url: string): PageArea {
  const path = (url.split(/[?#]/)[0] ?? '').replace(/\/{2,}/g, '/').replace(/(.)\/+$/, '$1');
  if (path === publicPages.login) return 'login';
  if (path === publicPages.portal) return 'portal';
  return publicPagePaths.has(path) ? 'public' : 'signedIn';
}
