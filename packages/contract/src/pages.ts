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

/** The path of an address as the router matches it: no query or fragment, no repeated or trailing slash. */
export function pagePath(url: string): string {
  return (url.split(/[?#]/)[0] ?? '').replace(/\/{2,}/g, '/').replace(/(.)\/+$/, '$1');
}
