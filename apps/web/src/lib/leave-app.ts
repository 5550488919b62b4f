/**
 * A full page load of another address (the authorization server, a client application): the
 * router only moves between the app's own pages. Its own module so tests can watch it; jsdom
 * cannot navigate.
 */
export function leaveApp(address: string): void {
  window.location.assign(address);
}
